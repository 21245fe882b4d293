"""What the games' public records share: their JSON form, and the first checks of a record,
that its seed is the one whose fingerprint the table published when the game started."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of re-dealing a record hand by hand."""

    ok: bool
    hands: int  # how many hands were checked
    mismatch: str = ""  # the first difference found


class RecordFormat(Generic[R]):
    """A game's record class to and from the JSON its records are stored and served in."""

    def __init__(self, kind: type[R]) -> None:
        self._adapter = TypeAdapter(kind)

    def dump(self, record: R) -> Any:
        return self._adapter.dump_python(record, mode="json")

    def load(self, data: Any) -> R:
        return self._adapter.validate_python(data)


def revealed_seed(algorithm: str, known: str, seed: str, fingerprint: str) -> bytes | str:
    """The bytes of a record's ``seed``, or why it can't be trusted to re-deal the game: the
    record was dealt by an ``algorithm`` other than the ``known`` one, the seed is not hex, or
    its hash is not the ``fingerprint`` published at the start."""
    if algorithm != known:
        return f"unknown algorithm {algorithm!r}"
    try:
        secret = bytes.fromhex(seed)
    except ValueError:
        return "the seed is not hex"
    if hashlib.sha256(secret).hexdigest() != fingerprint:
        return "the seed does not match the fingerprint published at the start"
    return secret
