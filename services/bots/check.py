"""``swick bots check``: a strategy answers many random positions; illegal, failing or slow
answers are reported before any table sees them.

Games of the chosen game (Swick by default) at each of its table sizes are played with the
pure engine: the strategy decides for the seat to act, at every seat; half the time a random
legal action is played instead of its answer, so it meets positions its own play would not
reach. Each answer is checked against the legal actions and timed (wall clock, as a table
waits).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.bots.tables import DEFAULT_SEATS, SEATS, check_seats, fresh_table

SLOW_MS = 1000.0  # a table's human players feel more; the service gives up at 10 s
# The commands a table is played for at most: a Swick table deals hands for ever; a Euchre or
# Contract Whist game ends well within these.
COMMANDS = {"swick": 400, "euchre": 5_000, "contract-whist": 20_000}


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
    factory: Callable[[random.Random], Any],
    positions: int = 2000,
    seed: int = 1,
    seats: Sequence[int] | None = None,
    slow_ms: float = SLOW_MS,
    game: str = "swick",
) -> CheckReport:
    """``factory``'s strategy answers ``positions`` positions of ``game`` at ``seats`` seats
    (each table size the game has by default, in turn); raises ``ValueError`` for a game or a
    table size there is not."""
    check_seats(game, DEFAULT_SEATS.get(game, 0))  # a game there is
    sizes = tuple(SEATS[game] if seats is None else seats)
    if not sizes:
        raise ValueError("name a table size to check at")
    for n in sizes:
        check_seats(game, n)
    rng = random.Random(seed)
    strategy = factory(random.Random(rng.random()))
    report = CheckReport()
    games = 0
    while report.positions < positions:
        n = sizes[games % len(sizes)]
        table = fresh_table(game, n, seed=seed * 1000 + games)
        games += 1
        for _ in range(COMMANDS[game]):
            pending = table.to_act()
            if report.positions >= positions or table.ended or not pending:
                break
            seat = pending[0]
            legal = table.legal(seat)
            view = table.view(seat)
            where = f"{n} seats, {_deal_of(view)}, {view.phase.value}, seat {seat}"
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
            table.act(seat, action)
    return report


def _deal_of(view: Any) -> str:
    """Where in the game a position is: Swick's and Euchre's hand, Contract Whist's round."""
    round_no = getattr(view, "round_no", None)
    return f"round {round_no}" if round_no is not None else f"hand {view.hand_no}"
