"""Copies of a game record with one thing changed each, for the node tests of the verifiers:
each goes to the fixture with the verdict Python gives it."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from shared.games.interface import GameModule


def verdict(game: GameModule[Any, Any, Any, Any, Any], record: dict[str, Any]) -> dict[str, Any]:
    """``game``'s verdict on ``record`` as the fixtures hold it: whether it passed, how many
    hands (or rounds) it checked, and the first mismatch."""
    checked = game.verify_record(record)
    return {"ok": checked.ok, checked.deals: checked.checked, "mismatch": checked.mismatch}


# A place in a record: the keys and indexes that lead to it from the top.
Place = tuple[str | int, ...]


def holder(record: dict[str, Any], place: Place) -> tuple[Any, str | int]:
    """The list or dict that holds ``place`` in ``record``, and its key or index there."""
    found: Any = record
    for step in place[:-1]:
        found = found[step]
    return found, place[-1]


class Tampered:
    def __init__(self, game: GameModule[Any, Any, Any, Any, Any], record: dict[str, Any]) -> None:
        self.game = game
        self.record = record
        self.made: list[tuple[str, dict[str, Any]]] = []

    def variant(self, name: str) -> dict[str, Any]:
        """A fresh copy of the record, to be changed in place."""
        copied = copy.deepcopy(self.record)
        self.made.append((name, copied))
        return copied

    def swapped(self, name: str, first: Place, second: Place) -> None:
        """A copy with the values at two places of the record swapped."""
        v = self.variant(name)
        (one, i), (other, j) = holder(v, first), holder(v, second)
        one[i], other[j] = other[j], one[i]

    def dealt_swapped(self, deals: str) -> None:
        """Seat 0's and seat 1's first dealt cards swapped in the last of the record's ``deals``."""
        self.swapped(
            "two dealt cards swapped between seats",
            (deals, -1, "dealt", 0, 0),
            (deals, -1, "dealt", 1, 0),
        )

    def reseeded(self) -> None:
        v = self.variant("another seed")
        v["seed"] = hashlib.sha256(b"not the seed").hexdigest()

    def first_moved(self, name: str, first: str, seats: int) -> None:
        """The record's ``first`` seat (who dealt or bid first) moved one seat on."""
        v = self.variant(name)
        v[first] = (v[first] + 1) % seats

    def judged(self) -> list[dict[str, Any]]:
        return [
            {"name": name, "record": r, "verdict": verdict(self.game, r)} for name, r in self.made
        ]
