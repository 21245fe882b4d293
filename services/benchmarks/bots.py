"""``swick bench bots``: how long the ``hard`` bot thinks per decision, with its live budget."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass

from services.benchmarks.engine import seated_table
from services.bots.levels import Hard, Medium
from shared.games.interface import Command
from shared.games.swick.decide import step
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.views import view_for


@dataclass(frozen=True, slots=True)
class DecisionFigures:
    decisions: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    budget_ms: float


def run(hands: int, seed: int = 1, budget_ms: float = 200.0) -> DecisionFigures:
    """A hard bot at seat 0 against two medium bots; times every decision the hard bot makes."""
    rng = random.Random(seed)
    hard = Hard(random.Random(rng.random()), budget_ms=budget_ms)
    medium = Medium(random.Random(rng.random()))
    state = seated_table(3, seed=seed)
    times: list[float] = []
    n = 0
    while state.hand_no < hands:
        seat = to_act(state)[0]
        legal = [o.action for o in legal_actions(state, seat) if o.legal]
        view = view_for(state, seat)
        if seat == 0:
            started = time.perf_counter()
            action = hard.choose(view, legal)
            times.append((time.perf_counter() - started) * 1000)
        else:
            action = medium.choose(view, legal)
        state, _ = step(state, Command(actor=seat, action=action, action_id=f"b{n}", seq=state.seq))
        n += 1
    cuts = statistics.quantiles(times, n=100)
    return DecisionFigures(len(times), cuts[49], cuts[94], max(times), budget_ms)


def report(figures: DecisionFigures) -> dict[str, object]:
    return {"benchmark": "bots", **asdict(figures)}


def describe(f: DecisionFigures) -> str:
    return (
        f"hard bot, {f.decisions} decisions (budget {f.budget_ms:.0f} ms): "
        f"p50 {f.p50_ms:.1f} ms, p95 {f.p95_ms:.1f} ms, max {f.max_ms:.1f} ms"
    )
