"""The games a load or chaos run plays: which game each table is, how many seats it has, and
what its host asks of ``POST /api/tables`` (every game from the registry; the tables spread
over them in turn for a mix)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.games.interface import IllegalCommand
from shared.games.registry import GAMES, game

MIX = "mix"
CHOICES = (*GAMES, MIX)  # what ``--game`` takes
STAKE = 10  # cents a player pays into the pot of a staked table's game
# Short games, so that a run of a minute sees games end, pay their pots out and be dealt
# again (the settings each game's form names as its own).
SHORT: dict[str, dict[str, Any]] = {"euchre": {"target": 2}, "contract-whist": {"rounds": 1}}
# The view's field that numbers a game's hands (Contract Whist numbers its rounds).
HAND_NUMBER: dict[str, str] = {"contract-whist": "round_no"}


def played(choice: str) -> tuple[str, ...]:
    """The games of a run asked for ``choice``: one game, or every game for a mix."""
    if choice == MIX:
        return tuple(GAMES)
    if choice not in GAMES:
        raise ValueError(f"unknown game {choice!r}: choose one of {', '.join(CHOICES)}")
    return (choice,)


def seats_for(name: str, asked: int) -> int:
    """``asked`` seats if the game's tables may have them, else the game's own number (Euchre
    is four, whatever a Swick run of three asks)."""
    module = game(name)
    try:
        module.make_config({**module.form.defaults, "seats": asked})
    except IllegalCommand:
        return int(module.form.defaults["seats"])
    return asked


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of the run."""

    number: int  # among all the run's tables
    game: str
    seats: int
    staked: bool  # played for money: Swick always (its antes), the others for a stake
    bots: Mapping[int, str]  # seat -> bot name

    def request(self) -> dict[str, Any]:
        """The body of ``POST /api/tables`` that opens it. No pause on each hand's result: the
        figures measure the command path, and stay comparable with those taken before tables
        paused between hands."""
        body: dict[str, Any] = {
            "game": self.game,
            "seats": self.seats,
            "timer_seconds": 30,
            "interlude_seconds": 0,
            "bots": dict(self.bots),
            **SHORT.get(self.game, {}),
        }
        if self.staked and "stake" in game(self.game).form.own:
            body["stake"] = STAKE
        return body

    @property
    def hand_number(self) -> str:
        return HAND_NUMBER.get(self.game, "hand_no")


def plan(
    choice: str, tables: int, asked_seats: int, bots: Mapping[int, Mapping[int, str]]
) -> list[TablePlan]:
    """``tables`` tables, given to the games of ``choice`` in turn. A game played for a stake
    or for points has every other table staked (its first one among them): both are audited."""
    games = played(choice)
    plans = []
    for number in range(tables):
        name = games[number % len(games)]
        nth = number // len(games)  # this table's place among its game's
        staked = "stake" not in game(name).form.own or nth % 2 == 0
        seats = seats_for(name, asked_seats)
        plans.append(TablePlan(number, name, seats, staked, dict(bots.get(number, {}))))
    return plans
