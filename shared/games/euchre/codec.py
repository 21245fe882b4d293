"""Lossless JSON for Euchre's states, actions, events and views (cards as codes such as
``"10D"``, suits as letters such as ``"H"``); the encoding is the table's
(``shared.games.table.codec``)."""

from __future__ import annotations

from shared.games.euchre.actions import Action
from shared.games.euchre.events import Event
from shared.games.euchre.state import State
from shared.games.euchre.views import EuchreView, Private, private_part, view_for
from shared.games.table.codec import TableCodec

CODEC: TableCodec[State, Action, Event, EuchreView] = TableCodec(
    State,
    Action,
    Event,
    EuchreView,
    view_for=view_for,
    private_part=private_part,
    private=Private,
)
