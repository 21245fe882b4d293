"""What a bot is: a strategy that decides for one seat from that seat's view alone.

A strategy never sees the table's state: it gets the seat's ``SwickView`` (exactly what a
player at that seat sees) and the actions it may take now, and returns one of them. Write one
by implementing ``Strategy``; run it with ``swick bots --strategy package.module:Class``.
At a Euchre table the view is an ``EuchreView`` (its ``game`` is ``"euchre"``) and the actions
Euchre's; a strategy that does not play Euchre fails there, and the seat gets the rules'
default.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from shared.games.swick.actions import Action
from shared.games.swick.views import SwickView


class Strategy(Protocol):
    """Chooses the action of the seat whose view it is given."""

    def choose(self, view: SwickView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty). ``view.options`` also lists the illegal ones with
        the reason they are refused."""
        ...


class StrategyFactory(Protocol):
    def __call__(self, rng: random.Random) -> Strategy: ...


V = TypeVar("V")
A = TypeVar("A")


@dataclass(eq=False)
class Seeded:
    """A strategy drawing its choices from its own generator."""

    rng: random.Random


class AnyLegal(Seeded, Generic[V, A]):
    """Any legal action, at random (views of type ``V``, actions of type ``A``)."""

    def choose(self, view: V, legal: Sequence[A]) -> A:
        return self.rng.choice(list(legal))


def load_strategy(spec: str) -> StrategyFactory:
    """The class named by ``"package.module:Class"``; it is built with a ``random.Random``.

    Like ``python -m``, the current directory is searched too.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected package.module:Class, got {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    factory: StrategyFactory = getattr(importlib.import_module(module_name), attribute)
    return factory


def named_strategy(
    name: str,
    rng: random.Random,
    levels: Mapping[str, Callable[[random.Random], Any]],
    hard: Callable[[random.Random], Any],
) -> Any:
    """The strategy ``name`` built with ``rng``: a built-in level of ``levels`` (``hard``
    built by ``hard``, with its search's budget), or ``package.module:Class``."""
    if name == "hard":
        return hard(rng)
    return levels[name](rng) if name in levels else load_strategy(name)(rng)
