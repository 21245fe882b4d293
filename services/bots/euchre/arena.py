"""``swick arena --game euchre``: two strategies play Euchre against each other, in
partnership (each holds two seats across the table), in-process with the pure engine.

The partnerships change sides every game. The arena reports the first strategy's points less
the second's per game, with a 95% confidence interval, and the share of games it won. The same
seed gives the same result on any machine (hard bots search a fixed number of worlds).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from services.bots.arena import Interval
from services.bots.euchre.levels import Easy, Hard, Medium
from services.bots.euchre.search import WORLDS
from services.bots.strategy import named_strategy
from services.bots.tables import played_scores
from services.progress import SILENT, Progress

LEVELS = {"easy": Easy, "medium": Medium, "hard": Hard}
GAME_LIMIT = 5_000  # commands: far more than any game to 10 takes


@dataclass(frozen=True, slots=True)
class EuchreArenaResult:
    names: tuple[str, str]
    games: int
    target: int
    seconds: float
    margin: Interval  # points per game, the first strategy's less the second's
    wins: float  # the share of games the first strategy's side won


def strategy(name: str, rng: random.Random, hard_worlds: int = WORLDS) -> Any:
    """A built-in level (``easy``, ``medium``, ``hard``), or ``package.module:Class``."""
    return named_strategy(name, rng, LEVELS, partial(Hard, worlds=hard_worlds))


def play_game(strategies: Sequence[Any], target: int, seed: int) -> tuple[int, int]:
    """One game to ``target`` with ``strategies[seat]`` at each seat: the teams' scores."""
    first, second = played_scores(
        "euchre", strategies, seed, GAME_LIMIT, target=target, salt="euchre-arena"
    )
    return first, second


def play(
    names: tuple[str, str],
    games: int,
    seed: int,
    *,
    target: int = 10,
    hard_worlds: int = WORLDS,
    progress: Progress = SILENT,
) -> EuchreArenaResult:
    """``games`` games of ``names[0]`` (seats 0 and 2 in even games, 1 and 3 in odd ones)
    against ``names[1]``."""
    rng = random.Random(seed)
    first, second = (
        [strategy(names[0], random.Random(rng.random()), hard_worlds) for _ in range(2)],
        [strategy(names[1], random.Random(rng.random()), hard_worlds) for _ in range(2)],
    )
    progress.stage(f"{names[0]} and {names[0]} against {names[1]} and {names[1]}", games)
    margins: list[float] = []
    won = 0
    started = time.perf_counter()
    for n in range(games):
        swap = n % 2
        seats = [first[0], second[0], first[1], second[1]]
        if swap:
            seats = [second[0], first[0], second[1], first[1]]
        scores = play_game(seats, target, seed * 1_000_003 + n)
        mine, theirs = (scores[1], scores[0]) if swap else scores
        margins.append(float(mine - theirs))
        won += mine > theirs
        progress.advance(1)
    return EuchreArenaResult(
        names, games, target, time.perf_counter() - started, Interval.of(margins), won / games
    )


def describe(result: EuchreArenaResult) -> str:
    a, b = result.names
    m = result.margin
    return (
        f"Euchre to {result.target}: {a} against {b}, {result.games} games in "
        f"{result.seconds:.1f} s\n"
        f"  {a} - {b}: {m.mean:+.2f} points per game (95% CI {m.low:+.2f} to {m.high:+.2f}); "
        f"{a} won {result.wins:.0%} of the games"
    )


def report(result: EuchreArenaResult) -> dict[str, Any]:
    return {
        "game": "euchre",
        "names": list(result.names),
        "games": result.games,
        "target": result.target,
        "seconds": result.seconds,
        "margin": result.margin.to_json(),
        "wins": result.wins,
    }
