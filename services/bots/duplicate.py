"""``swick arena --duplicate`` for Euchre and Contract Whist: each deal played once at every
seating, so that the luck of the cards cancels out.

A deal is what one seed deals: a whole game, every hand (round) of which is dealt from the
game's seed, so the same seed gives the same cards hand by hand whoever plays them. Each deal
is played from a fresh table at every rotation of the lineup (the strategies moved one seat
round each time; a rotation seating the same strategies at the same seats as an earlier one
is played once: a Euchre lineup ``a,b,a,b`` has two, the partnerships swapping sides), so every
strategy holds every seat's cards equally often. The figures are per game (a seat's points:
Euchre's are its team's), each strategy's mean over its seats and seatings with a 95% interval
over the deals, and each pair's difference. Swick's duplicate arena is
``services.bots.arena.play_duplicate``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.bots.arena import Interval, differences, play_deals
from services.bots.contract_whist import arena as whist_arena
from services.bots.euchre import arena as euchre_arena
from services.bots.tables import fresh_table, game_points, play_to_end
from services.progress import SILENT, Progress

GAME_LIMIT = 20_000  # commands: far more than any game takes
TITLES = {"euchre": "Euchre", "contract-whist": "Contract Whist"}


@dataclass(frozen=True, slots=True)
class DuplicateResult:
    game: str
    names: tuple[str, ...]  # the strategy at each seat of the first seating
    deals: int
    seatings: int  # the seatings each deal was played at
    seconds: float
    cpu_seconds: float
    points: dict[str, Interval]  # per strategy, a seat's points per game
    differences: dict[str, Interval]  # "a - b", per deal
    target: int | None = None
    rounds: int | None = None

    @property
    def games(self) -> int:
        return self.deals * self.seatings


def lineup(game: str, names: Sequence[str], seed: int, worlds: int | None = None) -> list[Any]:
    """The strategies named, one a seat (a built-in level of ``game`` or
    ``package.module:Class``), each with its own generator drawn from ``seed``; hard bots
    search ``worlds`` worlds (the live bots' budget by default)."""
    module = {"euchre": euchre_arena, "contract-whist": whist_arena}[game]
    rng = random.Random(seed)
    hard_worlds = module.WORLDS if worlds is None else worlds
    return [module.strategy(name, random.Random(rng.random()), hard_worlds) for name in names]


def seatings(names: Sequence[str]) -> list[tuple[int, ...]]:
    """The rotations of the lineup, each as the lineup's index at every seat, less those that
    seat the same names at the same seats as an earlier one."""
    n = len(names)
    found: dict[tuple[str, ...], tuple[int, ...]] = {}
    for rotation in range(n):
        seating = tuple((seat + rotation) % n for seat in range(n))
        found.setdefault(tuple(names[i] for i in seating), seating)
    return list(found.values())


def play_game(
    game: str,
    strategies: Sequence[Any],
    seating: Sequence[int],
    seed: int,
    *,
    target: int | None = None,
    rounds: int | None = None,
) -> tuple[int, ...]:
    """One game dealt from ``seed`` with ``strategies[seating[seat]]`` deciding for ``seat``:
    what each seat scored. Raises ``IllegalAnswer`` for an answer not among the legal ones."""
    table = fresh_table(game, len(seating), seed, target=target, rounds=rounds)
    play_to_end(table, [strategies[index] for index in seating], GAME_LIMIT)
    return game_points(table)


def play(
    game: str,
    names: Sequence[str],
    strategies: Sequence[Any],
    deals: int,
    seed: int,
    *,
    target: int | None = None,
    rounds: int | None = None,
    progress: Progress = SILENT,
) -> DuplicateResult:
    """Play ``deals`` deals of ``game``, each at every seating of ``strategies`` (named
    ``names``, one a seat)."""
    rotations = seatings(names)
    progress.stage(f"{', '.join(names)} at {TITLES[game]} (duplicate)", deals)
    played = play_deals(
        names,
        rotations,
        deals,
        seed,
        lambda seating, deal_seed: play_game(
            game, strategies, seating, deal_seed, target=target, rounds=rounds
        ),
        progress,
    )
    unique = list(dict.fromkeys(names))
    return DuplicateResult(
        game,
        tuple(names),
        deals,
        len(rotations),
        played.seconds,
        played.cpu_seconds,
        {name: Interval.of(played.won[name]) for name in unique},
        differences(unique, played.per_deal),
        target,
        rounds,
    )


def describe(result: DuplicateResult) -> str:
    settings = f" to {result.target}" * (
        result.target is not None
    ) + f", {result.rounds} rounds" * (result.rounds is not None)
    lines = [
        f"{TITLES[result.game]}{settings}: {result.deals:,} deals of {', '.join(result.names)},"
        f" each played at {result.seatings} seatings ({result.games:,} games in"
        f" {result.seconds:.1f} s, {result.cpu_seconds:.1f} s of CPU)"
    ]
    for name, i in result.points.items():
        lines.append(
            f"  {name:>8}: {i.mean:+7.2f} points per game  (95% CI {i.low:+.2f} to {i.high:+.2f})"
        )
    for pair, i in result.differences.items():
        verdict = "significant" if i.excludes_zero() else "not significant"
        lines.append(
            f"  {pair}: {i.mean:+.2f} points per game"
            f"  (95% CI {i.low:+.2f} to {i.high:+.2f}, {verdict})"
        )
    return "\n".join(lines)


def report(result: DuplicateResult) -> dict[str, object]:
    return {
        "game": result.game,
        "seats": list(result.names),
        "duplicate": True,
        "deals": result.deals,
        "seatings": result.seatings,
        "games": result.games,
        "target": result.target,
        "rounds": result.rounds,
        "seconds": result.seconds,
        "cpu_seconds": result.cpu_seconds,
        "points_per_game": {name: i.to_json() for name, i in result.points.items()},
        "differences": {pair: i.to_json() for pair, i in result.differences.items()},
    }
