"""``swick bench bots``: how long the ``hard`` bot thinks per decision, as at live tables.

Each decision's wall time and CPU time (of this thread) are measured: the wall time is what a
table waits, the CPU time what the decision costs, whatever else the machine is doing. The
searched decisions are reported apart (the others, a single legal action or a rule of thumb,
take well under a millisecond), with the worlds they sampled on average.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass

from services.benchmarks.engine import seated_table
from services.bots.budget import HARD_CAP_MS, HARD_WORLDS
from services.bots.levels import Hard, Medium
from services.progress import SILENT, Progress
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
    cpu_p50_ms: float
    cpu_p95_ms: float
    cpu_max_ms: float
    seats: int
    worlds: int  # the budget: worlds sampled per searched decision
    cap_ms: float | None  # the wall-clock safety cap
    searched: int  # decisions that searched (the others are the heuristics' alone)
    capped: int  # searches the cap cut short
    searched_p50_ms: float  # wall time of the searched decisions alone
    searched_p95_ms: float
    searched_cpu_p50_ms: float
    searched_cpu_p95_ms: float
    worlds_per_search: float  # worlds the searched decisions sampled, on average


def run(
    hands: int,
    seed: int = 1,
    seats: int = 3,
    worlds: int = HARD_WORLDS,
    cap_ms: float | None = HARD_CAP_MS,
    progress: Progress = SILENT,
) -> DecisionFigures:
    """A hard bot at seat 0 against ``seats - 1`` medium bots; times every decision the hard
    bot makes."""
    rng = random.Random(seed)
    hard = Hard(random.Random(rng.random()), worlds=worlds, cap_ms=cap_ms)
    medium = Medium(random.Random(rng.random()))
    state = seated_table(seats, seed=seed)
    wall: list[float] = []
    cpu: list[float] = []
    searched_wall: list[float] = []
    searched_cpu: list[float] = []
    n = 0
    progress.stage(f"hard bot, {worlds} worlds a decision", hands)
    while state.hand_no < hands:
        seat = to_act(state)[0]
        legal = [o.action for o in legal_actions(state, seat) if o.legal]
        view = view_for(state, seat)
        if seat == 0:
            before = hard.search.effort.decisions
            started, started_cpu = time.perf_counter(), time.thread_time()
            action = hard.choose(view, legal)
            cpu.append((time.thread_time() - started_cpu) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
            if hard.search.effort.decisions > before:
                searched_wall.append(wall[-1])
                searched_cpu.append(cpu[-1])
        else:
            action = medium.choose(view, legal)
        hand_no = state.hand_no
        state, _ = step(state, Command(actor=seat, action=action, action_id=f"b{n}", seq=state.seq))
        progress.advance(state.hand_no - hand_no)
        n += 1
    cuts, cpu_cuts = statistics.quantiles(wall, n=100), statistics.quantiles(cpu, n=100)
    effort = hard.search.effort
    searched_cuts = _percentiles(searched_wall)
    searched_cpu_cuts = _percentiles(searched_cpu)
    return DecisionFigures(
        decisions=len(wall),
        seats=seats,
        p50_ms=cuts[49],
        p95_ms=cuts[94],
        max_ms=max(wall),
        cpu_p50_ms=cpu_cuts[49],
        cpu_p95_ms=cpu_cuts[94],
        cpu_max_ms=max(cpu),
        worlds=worlds,
        cap_ms=cap_ms,
        searched=effort.decisions,
        capped=effort.capped,
        searched_p50_ms=searched_cuts[49],
        searched_p95_ms=searched_cuts[94],
        searched_cpu_p50_ms=searched_cpu_cuts[49],
        searched_cpu_p95_ms=searched_cpu_cuts[94],
        worlds_per_search=effort.worlds / max(1, effort.decisions),
    )


def _percentiles(samples: list[float]) -> list[float]:
    """The 1st to 99th percentiles (all zero with no sample, the sample itself with one)."""
    if len(samples) < 2:
        return [samples[0] if samples else 0.0] * 99
    return statistics.quantiles(samples, n=100)


def report(figures: DecisionFigures) -> dict[str, object]:
    return {"benchmark": "bots", **asdict(figures)}


def describe(f: DecisionFigures) -> str:
    cap = "no cap" if f.cap_ms is None else f"cap {f.cap_ms:.0f} ms"
    return (
        f"hard bot at {f.seats} seats, {f.decisions} decisions ({f.searched} searched, "
        f"{f.worlds} worlds each, "
        f"{cap}, {f.capped} cut short by the cap): "
        f"wall p50 {f.p50_ms:.1f} ms, p95 {f.p95_ms:.1f} ms, max {f.max_ms:.1f} ms; "
        f"CPU p50 {f.cpu_p50_ms:.1f} ms, p95 {f.cpu_p95_ms:.1f} ms, max {f.cpu_max_ms:.1f} ms\n"
        f"searched decisions alone ({f.worlds_per_search:.1f} worlds each on average): "
        f"wall p50 {f.searched_p50_ms:.1f} ms, p95 {f.searched_p95_ms:.1f} ms; "
        f"CPU p50 {f.searched_cpu_p50_ms:.1f} ms, p95 {f.searched_cpu_p95_ms:.1f} ms"
    )
