"""Lossless JSON for states, actions, events and views (cards as codes such as ``"10D"``,
suits as letters such as ``"H"``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError

from shared.games.euchre.actions import Action
from shared.games.euchre.cards import Card
from shared.games.euchre.events import Event
from shared.games.euchre.state import State
from shared.games.euchre.views import EuchreView, private_part, view_for
from shared.games.exact_fields import ExactFields
from shared.games.interface import IllegalCommand, Option

_STATE = TypeAdapter(State)
_EVENT: TypeAdapter[Event] = TypeAdapter(Annotated[Event, Field(discriminator="kind")])
_ACTION: TypeAdapter[Action] = TypeAdapter(Annotated[Action, Field(discriminator="kind")])
_ACTION_FIELDS = ExactFields(Action)
_VIEW = TypeAdapter(EuchreView)


def dump_state(state: State) -> Any:
    return _STATE.dump_python(state, mode="json")


def load_state(data: Any) -> State:
    return _STATE.validate_python(data)


def dump_event(event: Event) -> Any:
    return _EVENT.dump_python(event, mode="json")


def load_event(data: Any) -> Event:
    return _EVENT.validate_python(data)


def dump_action(action: Action) -> Any:
    return _ACTION.dump_python(action, mode="json")


def load_action(data: Any) -> Action:
    """Parse an action from JSON; raises ``IllegalCommand("malformed", ...)`` with the reason.

    Strictly: a bool is ``true`` or ``false``, a number is an int, a card is its code and a suit
    its letter. Validated as JSON text, so lists stand for tuples as JSON has no others.
    An action names every field of its kind and no other (``ExactFields``): none is defaulted.
    """
    _ACTION_FIELDS.check(data)  # every field of its kind, and no other: no default stands in
    try:
        return _ACTION.validate_json(json.dumps(data), strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise IllegalCommand(
            "malformed", f"{where}: {first['msg']}" if where else first["msg"]
        ) from None


def dump_view(view: EuchreView) -> Any:
    return _VIEW.dump_python(view, mode="json")


def view_json(view: EuchreView) -> str:
    return _VIEW.dump_json(view).decode()


def load_view(data: Any) -> EuchreView:
    """A view as a bot receives it, back in its typed form."""
    return _VIEW.validate_python(data)


_CARDS: TypeAdapter[tuple[Card, ...]] = TypeAdapter(tuple[Card, ...])
_OPTIONS: TypeAdapter[tuple[Option[Action], ...]] = TypeAdapter(tuple[Option[Action], ...])
# A spectator's view has no seat and no private part; a seat's view is that text with these
# two spliced (the fields keep the model's order, so the text is the model's own).
_NO_SEAT = '{"seat":null,'
_NO_PRIVATE = ',"hand":[],"discarded":[],"options":[],"trick":'


def views_json(state: State, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
    """``view_json(view_for(state, seat))`` for the spectators and each of ``seats``, with the
    public part built and encoded once."""
    spectator = view_json(view_for(state, None))
    assert spectator.startswith(_NO_SEAT) and spectator.count(_NO_PRIVATE) == 1
    head, _, tail = spectator[len(_NO_SEAT) :].partition(_NO_PRIVATE)
    views = {}
    for seat in seats:
        if state.players[seat] is None:
            views[seat] = spectator
            continue
        private = private_part(state, seat)
        views[seat] = "".join(
            (
                f'{{"seat":{seat},',
                head,
                ',"hand":',
                _CARDS.dump_json(private.hand).decode(),
                ',"discarded":',
                _CARDS.dump_json(private.discarded).decode(),
                ',"options":',
                _OPTIONS.dump_json(private.options).decode(),
                ',"trick":',
                tail,
            )
        )
    return spectator, views
