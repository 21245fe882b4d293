"""``swick bots check``: a strategy answers many random positions; illegal, failing or slow
answers are reported before any table sees them.

Games at 3 to 6 seats are played with the pure engine: the strategy decides for the seat to
act, at every seat; half the time a random legal action is played instead of its answer, so it
meets positions its own play would not reach. Each answer is checked against the legal actions
and timed (wall clock, as a table waits).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from services.benchmarks.engine import seated_table
from services.bots.strategy import StrategyFactory
from shared.games.interface import Command
from shared.games.swick.decide import step
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.views import view_for

SLOW_MS = 1000.0  # a table's human players feel more; the service gives up at 10 s


@dataclass
class CheckReport:
    positions: int = 0
    illegal: list[str] = field(default_factory=list)  # what was answered, where
    errors: list[str] = field(default_factory=list)
    slow: int = 0  # answers slower than ``slow_ms``
    times_ms: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.illegal and not self.errors and not self.slow

    def describe(self, slow_ms: float = SLOW_MS) -> str:
        cuts = statistics.quantiles(self.times_ms, n=100) if len(self.times_ms) > 1 else [0.0] * 99
        lines = [
            f"{self.positions:,} positions: {len(self.illegal)} illegal answers,"
            f" {len(self.errors)} errors, {self.slow} slower than {slow_ms:.0f} ms"
            f" (p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms,"
            f" max {max(self.times_ms, default=0.0):.1f} ms)",
        ]
        lines += [f"  illegal: {line}" for line in self.illegal[:10]]
        lines += [f"  error: {line}" for line in self.errors[:10]]
        lines.append("OK" if self.ok else "FAILED")
        return "\n".join(lines)


def check(
    factory: StrategyFactory,
    positions: int = 2000,
    seed: int = 1,
    seats: Sequence[int] = (3, 4, 5, 6),
    slow_ms: float = SLOW_MS,
) -> CheckReport:
    rng = random.Random(seed)
    strategy = factory(random.Random(rng.random()))
    report = CheckReport()
    games = 0
    while report.positions < positions:
        n = seats[games % len(seats)]
        state = seated_table(n, seed=seed * 1000 + games)
        games += 1
        for commands in range(400):
            if report.positions >= positions or not to_act(state):
                break
            seat = to_act(state)[0]
            legal = [o.action for o in legal_actions(state, seat) if o.legal]
            view = view_for(state, seat)
            where = f"{n} seats, hand {view.hand_no}, {view.phase.value}, seat {seat}"
            action = rng.choice(legal)
            started = time.perf_counter()
            try:
                answer = strategy.choose(view, legal)
            except Exception as error:  # the strategy's bug: report it and play on
                report.errors.append(f"{where}: {error!r}")
            else:
                report.times_ms.append((time.perf_counter() - started) * 1000)
                report.slow += report.times_ms[-1] > slow_ms
                if answer not in legal:
                    report.illegal.append(f"{where}: {answer!r}")
                elif rng.random() < 0.5:
                    action = answer
            report.positions += 1
            command = Command(actor=seat, action=action, action_id=f"c{commands}", seq=state.seq)
            state, _ = step(state, command)
    return report
