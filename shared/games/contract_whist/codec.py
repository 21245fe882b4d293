"""Lossless JSON for Contract Whist's states, actions, events and views (cards as codes such
as ``"10D"``, suits as letters such as ``"H"``, no trumps as ``null``); the encoding is the
table's (``shared.games.table.codec``)."""

from __future__ import annotations

from shared.games.contract_whist.actions import Action
from shared.games.contract_whist.events import Event
from shared.games.contract_whist.state import State
from shared.games.contract_whist.views import Private, WhistView, private_part, view_for
from shared.games.table.codec import TableCodec

CODEC: TableCodec[State, Action, Event, WhistView] = TableCodec(
    State,
    Action,
    Event,
    WhistView,
    view_for=view_for,
    private_part=private_part,
    private=Private,
)
