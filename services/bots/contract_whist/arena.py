"""``swick arena --game contract-whist``: strategies play Contract Whist against each other,
every player for themself, in-process with the pure engine.

Each game seats the strategies round the table in turn (``names`` repeated to fill 2 to 5
seats), and the seats rotate by one every game so that every strategy bids first as often.
The arena reports each strategy's points per game with a 95% confidence interval, and the
first strategy's points less the second's (their seats' means) per game. The same seed gives
the same result on any machine (hard bots search a fixed number of worlds).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from services.bots.arena import Interval
from services.bots.contract_whist.levels import Easy, Hard, Medium
from services.bots.contract_whist.search import WORLDS
from services.bots.strategy import named_strategy
from services.bots.tables import played_scores
from services.progress import SILENT, Progress

LEVELS = {"easy": Easy, "medium": Medium, "hard": Hard}
GAME_LIMIT = 20_000  # commands: far more than a 17-round game at 5 seats takes


@dataclass(frozen=True, slots=True)
class WhistArenaResult:
    names: tuple[str, ...]
    players: int
    games: int
    rounds: int
    seconds: float
    points: dict[str, Interval]  # per strategy, a seat's points per game
    margin: Interval  # per game, the first strategy's seats' mean less the second's


def strategy(name: str, rng: random.Random, hard_worlds: int = WORLDS) -> Any:
    """A built-in level (``easy``, ``medium``, ``hard``), or ``package.module:Class``."""
    return named_strategy(name, rng, LEVELS, partial(Hard, worlds=hard_worlds))


def play_game(strategies: Sequence[Any], rounds: int, seed: int) -> tuple[int, ...]:
    """One game of ``rounds`` rounds with ``strategies[seat]`` at each seat: the totals."""
    return played_scores(
        "contract-whist", strategies, seed, GAME_LIMIT, rounds=rounds, salt="whist-arena"
    )


def play(
    names: Sequence[str],
    players: int,
    games: int,
    seed: int,
    *,
    rounds: int = 17,
    hard_worlds: int = WORLDS,
    progress: Progress = SILENT,
) -> WhistArenaResult:
    """``games`` games at ``players`` seats, filled with ``names`` in turn and rotated by one
    seat a game. A name given twice is one strategy (its seats' points together)."""
    rng = random.Random(seed)
    lineup = [names[seat % len(names)] for seat in range(players)]
    names = tuple(dict.fromkeys(names))
    bots = [strategy(name, random.Random(rng.random()), hard_worlds) for name in lineup]
    progress.stage(f"{' '.join(lineup)} at Contract Whist", games)
    points: dict[str, list[float]] = {name: [] for name in names}
    margins: list[float] = []
    started = time.perf_counter()
    for n in range(games):
        shift = n % players
        order = [(seat + shift) % players for seat in range(players)]  # who sits at each seat
        scores = play_game([bots[i] for i in order], rounds, seed * 1_000_003 + n)
        mine: dict[str, list[int]] = {name: [] for name in names}
        for seat, i in enumerate(order):
            mine[lineup[i]].append(scores[seat])
        for name, got in mine.items():
            points[name].extend(got)
        if len(names) > 1:
            first, second = mine[names[0]], mine[names[1]]
            margins.append(sum(first) / len(first) - sum(second) / len(second))
        progress.advance(1)
    return WhistArenaResult(
        tuple(names),
        players,
        games,
        rounds,
        time.perf_counter() - started,
        {name: Interval.of(got) for name, got in points.items()},
        Interval.of(margins or [0.0]),
    )


def describe(result: WhistArenaResult) -> str:
    lines = [
        f"Contract Whist, {result.players} players, {result.rounds} rounds: "
        f"{result.games} games in {result.seconds:.1f} s"
    ]
    for name, got in result.points.items():
        lines.append(
            f"  {name}: {got.mean:+.1f} points per game (95% CI {got.low:+.1f} to {got.high:+.1f})"
        )
    if len(result.names) > 1:
        a, b = result.names[:2]
        m = result.margin
        lines.append(
            f"  {a} - {b}: {m.mean:+.1f} points per game (95% CI {m.low:+.1f} to {m.high:+.1f})"
        )
    return "\n".join(lines)


def report(result: WhistArenaResult) -> dict[str, Any]:
    return {
        "game": "contract-whist",
        "names": list(result.names),
        "players": result.players,
        "games": result.games,
        "rounds": result.rounds,
        "seconds": result.seconds,
        "points": {name: i.to_json() for name, i in result.points.items()},
        "margin": result.margin.to_json(),
    }
