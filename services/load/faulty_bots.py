"""Strategies with the bugs a player's own bot may have, for ``swick chaos``: one raises, one
answers an action the rules refuse. Run as registered bots (``swick bots --strategy
services.load.faulty_bots:Raising --name ...``), they show whether a table goes on when a bot
misbehaves.

Each misbehaves on every other turn it is given (its first included) until the file named by
``SWICK_CHAOS_CALM`` exists (the faults are over), and plays a legal action otherwise. Each
misbehaviour adds a line (``raised`` or ``illegal``) to the file named by
``SWICK_CHAOS_FAULTS``, so the chaos run can count them across processes and restarts.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any, Protocol

from shared.games.interface import Option
from shared.games.lifecycle import PlayCard

# Cards 0 to 23 are in every game's deck (Euchre's is the smallest).
EVERY_DECK = range(24)

CALM_VARIABLE = "SWICK_CHAOS_CALM"
LOG_VARIABLE = "SWICK_CHAOS_FAULTS"
RAISED, ILLEGAL = "raised", "illegal"


class StrategyFault(RuntimeError):
    """What the raising strategy raises: a bug in a bot's own code."""


class SeatView(Protocol):
    """What the faulty strategies read of any game's view of their seat."""

    @property
    def options(self) -> Sequence[Option[Any]]: ...

    @property
    def hand(self) -> Sequence[int | None]: ...


class Misbehaving:
    fault = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.turns = 0
        self.calm = os.environ.get(CALM_VARIABLE, "")
        self.log = os.environ.get(LOG_VARIABLE, "")

    def choose(self, view: SeatView, legal: Sequence[Any]) -> Any:
        self.turns += 1
        if self.turns % 2 == 1 and not (self.calm and os.path.exists(self.calm)):
            self._note()
            return self.misbehave(view, legal)
        return self.rng.choice(list(legal))

    def misbehave(self, view: SeatView, legal: Sequence[Any]) -> Any:
        raise NotImplementedError

    def _note(self) -> None:
        if self.log:  # one short appended line: whole even when processes write at once
            with open(self.log, "a") as log:
                log.write(f"{self.fault}\n")


class Raising(Misbehaving):
    """Raises instead of choosing."""

    fault = RAISED

    def misbehave(self, view: SeatView, legal: Sequence[Any]) -> Any:
        raise StrategyFault(f"a bot's bug, on turn {self.turns}")


class Illegal(Misbehaving):
    """Answers an action of its game that the rules refuse now: one the view lists as refused,
    or a card the seat does not hold."""

    fault = ILLEGAL

    def misbehave(self, view: SeatView, legal: Sequence[Any]) -> Any:
        refused = [option.action for option in view.options if not option.legal]
        if refused:
            return self.rng.choice(refused)
        return PlayCard(card=next(card for card in EVERY_DECK if card not in view.hand))


def count(log: str) -> dict[str, int]:
    """Misbehaviours noted in ``log``, by fault."""
    try:
        with open(log) as lines:
            noted = [line.strip() for line in lines]
    except FileNotFoundError:
        noted = []
    return {fault: noted.count(fault) for fault in (RAISED, ILLEGAL)}
