"""Lossless JSON for Swick's states, actions, events and views (cards as codes such as
``"10D"``); the encoding is the table's (``shared.games.table.codec``)."""

from __future__ import annotations

from shared.games.swick.actions import Action
from shared.games.swick.events import Event
from shared.games.swick.state import State
from shared.games.swick.views import Private, SwickView, private_part, view_for
from shared.games.table.codec import TableCodec

CODEC: TableCodec[State, Action, Event, SwickView] = TableCodec(
    State,
    Action,
    Event,
    SwickView,
    view_for=view_for,
    private_part=private_part,
    private=Private,
)
