"""An action as sent names exactly its kind's fields: none unknown, none left to a default.

The action dataclasses give some fields defaults for the engine's own use (``alone=False``);
a sender's action must not lean on them, since a field left out or misspelt (``"alon": true``)
would silently become another move. A field the protocol makes optional says so in its
metadata (``OPTIONAL``: Swick's ``entropy``, a player's optional addition to the shuffle).
Each codec's ``load_action`` checks the field names with ``ExactFields`` before pydantic
checks their types.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from shared.games.interface import IllegalCommand

OPTIONAL = {"optional": True}  # a field's metadata: a sender may leave it out


class ExactFields:
    """The field names of each kind of a union of action dataclasses."""

    def __init__(self, action_union: Any) -> None:
        self.fields: dict[str, frozenset[str]] = {}
        self.required: dict[str, frozenset[str]] = {}
        for member in typing.get_args(action_union):
            # a generic action (``PlayCard[Card]``) has the fields of its class
            fields = dataclasses.fields(typing.get_origin(member) or member)
            kind = str(next(f.default for f in fields if f.name == "kind"))
            self.fields[kind] = frozenset(f.name for f in fields)
            self.required[kind] = frozenset(
                f.name for f in fields if not f.metadata.get("optional")
            )

    def check(self, data: Any) -> None:
        """Raise ``IllegalCommand("malformed", ...)`` if ``data`` is an action of a known kind
        with a field its kind lacks or without one it has; other shapes are left to the
        type check."""
        if not isinstance(data, dict):
            return
        expected = self.fields.get(data["kind"]) if isinstance(data.get("kind"), str) else None
        if expected is None:
            return
        given = {str(name) for name in data}
        unknown = sorted(given - expected)
        missing = sorted(self.required[data["kind"]] - given)
        if unknown:
            raise IllegalCommand("malformed", f"{unknown[0]}: {data['kind']} takes no such field")
        if missing:
            raise IllegalCommand("malformed", f"{missing[0]}: Field required")
