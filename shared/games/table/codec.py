"""Lossless JSON for a game's states, actions, events and views, the same way for every game.

A game names its types (and how a seat's view differs from a spectator's); the rules of the
encoding are here: actions are parsed strictly, every field of their kind and no other, and a
command's views are encoded with the public part once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from typing import Annotated, Any, Generic, TypeVar, get_type_hints

from pydantic import Field, TypeAdapter, ValidationError

from shared.games.exact_fields import ExactFields
from shared.games.interface import IllegalCommand
from shared.games.table.state import TableState

S = TypeVar("S", bound=TableState)
A = TypeVar("A")
E = TypeVar("E")
V = TypeVar("V")

_NO_SEAT = '{"seat":null,'


class TableCodec(Generic[S, A, E, V]):
    """The JSON of one game's types.

    A spectator's view has no seat and empty ``private`` fields; a seat's view is that text with
    its seat and its own private part spliced in (the fields keep the model's order, so the text
    is the model's own). ``private`` is the dataclass of a seat's private part: its fields are
    the view's private fields, in the view's order.
    """

    def __init__(
        self,
        state: type[S],
        action: Any,
        event: Any,
        view: type[V],
        *,
        view_for: Callable[[S, int | None], V],
        private_part: Callable[[S, int], Any],
        private: type[Any],
    ) -> None:
        self._state: TypeAdapter[S] = TypeAdapter(state)
        self._event: TypeAdapter[E] = TypeAdapter(Annotated[event, Field(discriminator="kind")])
        self._action: TypeAdapter[A] = TypeAdapter(Annotated[action, Field(discriminator="kind")])
        self._action_fields = ExactFields(action)
        self._view: TypeAdapter[V] = TypeAdapter(view)
        self._view_for = view_for
        self._private_part = private_part
        hints = get_type_hints(private, include_extras=True)
        names = [field.name for field in fields(private)]
        self._private = tuple((f',"{name}":', name, TypeAdapter(hints[name])) for name in names)
        assert is_dataclass(view)
        view_names = [field.name for field in fields(view)]
        after = view_names[view_names.index(names[-1]) + 1]  # the field after the private ones
        self._no_private = "".join(f',"{name}":[]' for name in names) + f',"{after}":'
        self._after = f',"{after}":'

    def dump_state(self, state: S) -> Any:
        return self._state.dump_python(state, mode="json")

    def load_state(self, data: Any) -> S:
        return self._state.validate_python(data)

    def dump_event(self, event: E) -> Any:
        return self._event.dump_python(event, mode="json")

    def load_event(self, data: Any) -> E:
        return self._event.validate_python(data)

    def dump_action(self, action: A) -> Any:
        return self._action.dump_python(action, mode="json")

    def load_action(self, data: Any) -> A:
        """Parse an action from JSON; raises ``IllegalCommand("malformed", ...)`` with the
        reason.

        Strictly: a bool is ``true`` or ``false``, a number is an int (neither a bool nor a
        string), a card is its code and a suit its letter. Validated as JSON text, so lists
        stand for tuples as JSON has no others. An action names every field of its kind and no
        other (``ExactFields``): none is defaulted.
        """
        self._action_fields.check(data)  # every field of its kind, and no other
        try:
            return self._action.validate_json(json.dumps(data), strict=True)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise IllegalCommand(
                "malformed", f"{where}: {first['msg']}" if where else first["msg"]
            ) from None

    def dump_view(self, view: V) -> Any:
        return self._view.dump_python(view, mode="json")

    def view_json(self, view: V) -> str:
        return self._view.dump_json(view).decode()

    def load_view(self, data: Any) -> V:
        """A view as a bot receives it, back in its typed form."""
        return self._view.validate_python(data)

    def views_json(self, state: S, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        """``view_json(view_for(state, seat))`` for the spectators and each of ``seats``, with
        the public part built and encoded once."""
        spectator = self.view_json(self._view_for(state, None))
        no_private = self._no_private
        assert spectator.startswith(_NO_SEAT) and spectator.count(no_private) == 1
        head, _, tail = spectator[len(_NO_SEAT) :].partition(no_private)
        views = {}
        for seat in seats:
            if state.players[seat] is None:
                views[seat] = spectator
                continue
            private = self._private_part(state, seat)
            parts = [f'{{"seat":{seat},', head]
            for key, name, adapter in self._private:
                parts += (key, adapter.dump_json(getattr(private, name)).decode())
            parts += (self._after, tail)
            views[seat] = "".join(parts)
        return spectator, views
