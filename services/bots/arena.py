"""``swick arena``: strategies play each other in-process with the pure engine.

Seats rotate every hand, so each strategy plays every seat equally often. For each strategy the
arena reports the mean cents won per hand with a 95% confidence interval, and for each pair of
different strategies the mean difference per hand with its interval (from the per-hand
differences, so the luck of the deal that both share cancels out).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from services.benchmarks.engine import seated_table
from services.bots.strategy import Strategy
from shared.games.interface import Command
from shared.games.swick.decide import step
from shared.games.swick.events import HandSettled
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import BETWEEN_HANDS
from shared.games.swick.views import view_for

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Interval:
        mean = statistics.fmean(samples)
        half = (
            Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
            if len(samples) > 1
            else math.inf
        )
        return cls(mean, mean - half, mean + half)

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


@dataclass(frozen=True, slots=True)
class ArenaResult:
    names: tuple[str, ...]
    hands: int
    seconds: float
    per_strategy: dict[str, Interval]
    differences: dict[str, Interval]  # "a - b"

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds


def play(
    names: Sequence[str], strategies: Sequence[Strategy], hands: int, seed: int
) -> ArenaResult:
    """Play ``hands`` hands with ``strategies[i]`` rotating through the seats."""
    n = len(strategies)
    state = seated_table(n, seed=seed)
    won: dict[str, list[float]] = {name: [] for name in set(names)}
    per_hand: list[dict[str, float]] = []
    played = commands = 0
    started = time.perf_counter()
    while played < hands:
        pending = to_act(state)
        if not pending:  # set money grew past the stacks: the table waits; deal a fresh one
            state = seated_table(n, seed=seed + played)
            continue
        seat = pending[0]
        hand_no = state.hand_no + (state.phase in BETWEEN_HANDS)  # the hand being played
        strategy = strategies[(seat + hand_no) % n]  # who sits at ``seat`` this hand
        legal = [o.action for o in legal_actions(state, seat) if o.legal]
        action = legal[0] if len(legal) == 1 else strategy.choose(view_for(state, seat), legal)
        command = Command(actor=seat, action=action, action_id=f"a{commands}", seq=state.seq)
        state, events = step(state, command)
        commands += 1
        for event in events:
            if isinstance(event, HandSettled):
                hand: dict[str, list[float]] = {}
                for s, delta in enumerate(event.result.delta):
                    name = names[(s + event.result.hand_no) % n]
                    hand.setdefault(name, []).append(delta)
                for name, deltas in hand.items():
                    won[name].extend(deltas)
                per_hand.append({name: statistics.fmean(d) for name, d in hand.items()})
                played += 1
    seconds = time.perf_counter() - started
    unique = sorted(set(names), key=names.index)
    differences = {
        f"{a} - {b}": Interval.of([h[a] - h[b] for h in per_hand])
        for i, a in enumerate(unique)
        for b in unique[i + 1 :]
    }
    return ArenaResult(
        tuple(names),
        played,
        seconds,
        {name: Interval.of(won[name]) for name in unique},
        differences,
    )


def report(result: ArenaResult) -> dict[str, object]:
    def interval(i: Interval) -> dict[str, float]:
        return {"mean": i.mean, "low": i.low, "high": i.high}

    return {
        "seats": list(result.names),
        "hands": result.hands,
        "hands_per_second": result.hands_per_second,
        "cents_per_hand": {name: interval(i) for name, i in result.per_strategy.items()},
        "differences": {pair: interval(i) for pair, i in result.differences.items()},
    }


def describe(result: ArenaResult) -> str:
    lines = [
        f"{result.hands:,} hands of {', '.join(result.names)} "
        f"({result.hands_per_second:,.0f} hands/s)"
    ]
    for name, i in result.per_strategy.items():
        lines.append(f"  {name:>8}: {i.mean:+7.2f} ¢/hand  (95% CI {i.low:+.2f} to {i.high:+.2f})")
    for pair, i in result.differences.items():
        verdict = "significant" if i.excludes_zero() else "not significant"
        lines.append(
            f"  {pair}: {i.mean:+.2f} ¢/hand  (95% CI {i.low:+.2f} to {i.high:+.2f}, {verdict})"
        )
    return "\n".join(lines)
