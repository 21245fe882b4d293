"""Options built from the rules' reasons against each choice."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from shared.games.interface import Option

T = TypeVar("T")
A = TypeVar("A")


def offered(action: Callable[[T], A], reasons: Iterable[tuple[T, str]]) -> list[Option[A]]:
    """The option of ``action`` for each choice, legal when the rules give no reason against it
    (``""``) and otherwise carrying the reason."""
    return [Option(action(choice), not why, why) for choice, why in reasons]
