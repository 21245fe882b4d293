"""Copies of a game record with one thing changed each, for the node tests of the verifiers:
each goes to the fixture with the verdict Python gives it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any


class Tampered:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.made: list[tuple[str, dict[str, Any]]] = []

    def variant(self, name: str) -> dict[str, Any]:
        """A fresh copy of the record, to be changed in place."""
        copied = copy.deepcopy(self.record)
        self.made.append((name, copied))
        return copied

    def judged(self, verdict_of: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
        return [{"name": name, "record": r, "verdict": verdict_of(r)} for name, r in self.made]
