"""``swick chaos``: the load test's people at their tables while faults strike at random (table
workers killed with SIGKILL, the ledger restarted, the gateway's broker connection cut), then
the checks that matter: nothing acknowledged was lost or applied twice, no table stalled, and
the ledger's books agree with every table."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from services.load import loadtest
from services.load.loadtest import Load, LoadOptions
from services.load.platform import Platform
from services.load.proxy import Proxy
from services.progress import SILENT, Progress

FAULTS = ("worker_killed", "ledger_restarted", "gateway_cut")
STALL_AFTER = 15.0  # seconds without progress; a worker's tables move within ~2 s of its death
READY_WITHIN = 30.0  # seconds for the gateway to find the broker again after the last fault

# Refusals a person may meet under faults without anything being wrong; any other error fails
# the run (a socket the gateway dropped, a command never answered).
EXPECTED_ERRORS = {
    "stale": "acted on a view that an update lost in a broker cut had overtaken (the gateway"
    " sends every watched table afresh once it is back)",
}


@dataclass
class ChaosReport:
    tables: int
    seats: int
    workers: int
    seconds: float
    seed: int
    faults: dict[str, int]
    connections_cut: int  # broker connections of the gateway aborted
    commands: int
    hands: int
    resent: int
    applied_already: int  # resent after a lost answer, and found applied: the table deduplicated
    actions_lost: int
    actions_applied_twice: int
    seq_gaps: list[str]
    stall_after: float
    tables_stalled: list[str]  # no progress for ``stall_after``, or none after the faults ended
    ledger_ok: bool
    ledger_problems: list[str]
    tables_reconciled: int
    tables_not_reconciled: list[str]
    wallets: int
    wallets_differing: list[str]
    errors: dict[str, int]  # by code, as the people saw them
    unexpected_errors: dict[str, int]  # any of these fails the run
    problems: list[str] = field(default_factory=list)  # the platform failed to come back
    ok: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Faults:
    """Strikes at random for the run's first ``options.seconds - calm`` seconds, then brings
    the lineup back and notes where every table stands, so the run can tell whether each one
    moved on afterwards."""

    def __init__(
        self, proxy: Proxy, options: LoadOptions, *, every: float, calm: float, each_kind: bool
    ) -> None:
        self.proxy = proxy
        self.options = options
        self.rng = random.Random(f"chaos-{options.seed}")
        self.every = every
        self.calm = calm
        self.forced = self.rng.sample(FAULTS, len(FAULTS)) if each_kind else []
        self.counts: Counter[str] = Counter()
        self.problems: list[str] = []
        self.load: Load | None = None
        self.restored: dict[str, int] | None = None  # table -> seq once the faults ended

    async def strike(self, load: Load) -> None:
        self.load, platform = load, load.platform
        until = time.monotonic() + self.options.seconds - self.calm
        while (left := until - time.monotonic()) > 0:
            pause = self.rng.uniform(0.5, 1.5) * self.every
            if self.forced:  # leave room for every kind still owed
                pause = min(pause, left / (len(self.forced) + 1))
            elif pause >= left:
                break
            await asyncio.sleep(pause)
            kind = self.forced.pop() if self.forced else self.rng.choice(FAULTS)
            await getattr(self, kind)(platform)
            self.counts[kind] += 1
        await self._restore(platform)
        self.restored = {table: seq for table, (seq, _) in load.progress.items()}

    async def worker_killed(self, platform: Platform) -> None:
        workers = platform.running("table")
        if workers:  # one may have stopped on its own (it does when it loses the broker)
            platform.kill(self.rng.choice(workers))
        await asyncio.sleep(self.rng.uniform(0.5, 3.0))
        platform.start_worker()

    async def ledger_restarted(self, platform: Platform) -> None:
        sig = self.rng.choice((signal.SIGKILL, signal.SIGTERM))
        for ledger in platform.running("ledger"):
            await asyncio.to_thread(platform.kill, ledger, sig)  # SIGTERM: it shuts down first
        await asyncio.sleep(self.rng.uniform(0.0, 2.0))
        await platform.start_ledger()

    async def gateway_cut(self, platform: Platform) -> None:
        self.proxy.cut()

    async def _restore(self, platform: Platform) -> None:
        if not platform.running("gateway"):
            self.problems.append("the gateway exited")
            await platform.start_gateway(self.proxy.url(self.options.amqp_url))
        await platform.restore(workers=self.options.workers, bots=0)
        try:  # ready: connected to the broker again
            await platform.answering(platform.base, "/readyz", within=READY_WITHIN)
        except TimeoutError:
            self.problems.append(f"the gateway was not ready {READY_WITHIN:.0f} s after the faults")


async def run(
    options: LoadOptions,
    *,
    every: float = 6.0,
    calm: float | None = None,
    each_kind: bool = True,
    stall_after: float = STALL_AFTER,
    progress: Progress = SILENT,
) -> ChaosReport:
    """``options.seconds`` of play: faults every ``every`` s or so (randomly, by
    ``options.seed``), then ``calm`` s without any, in which every table must move on.
    ``each_kind``: strike each kind of fault at least once."""
    options = replace(options, stall_after=stall_after)
    calm = max(10.0, options.seconds / 6) if calm is None else calm
    async with Proxy.to(options.amqp_url) as proxy:
        faults = Faults(proxy, options, every=every, calm=calm, each_kind=each_kind)
        figures = await loadtest.run(
            options,
            faults.strike,
            label="chaos",
            gateway_amqp_url=proxy.url(options.amqp_url),
            progress=progress,
        )
    return _report(options, figures, faults)


def _report(options: LoadOptions, figures: loadtest.Figures, faults: Faults) -> ChaosReport:
    load = faults.load
    assert load is not None  # the faults begin with the play
    checked = figures.audit
    problems = list(faults.problems)
    if faults.restored is None:
        problems.append("the run ended before the lineup was back")
        frozen: set[str] = set()
    else:
        before = faults.restored
        frozen = {t for t, (seq, _) in load.progress.items() if seq == before.get(t, seq)}
    stalled = sorted(set(figures.stalled) | frozen)
    errors = dict(figures.errors)
    report = ChaosReport(
        tables=options.tables,
        seats=options.seats,
        workers=options.workers,
        seconds=figures.seconds,
        seed=options.seed,
        faults={kind: faults.counts[kind] for kind in FAULTS},
        connections_cut=faults.proxy.cuts,
        commands=figures.commands,
        hands=figures.hands,
        resent=figures.resent,
        applied_already=figures.applied_already,
        actions_lost=checked["actions_lost"],
        actions_applied_twice=checked["actions_applied_twice"],
        seq_gaps=checked["gaps"],
        stall_after=options.stall_after,
        tables_stalled=stalled,
        ledger_ok=checked["ledger_ok"],
        ledger_problems=checked["ledger_problems"],
        tables_reconciled=checked["tables_reconciled"],
        tables_not_reconciled=checked["tables_not_reconciled"],
        wallets=sum(
            1
            for people in load.tables.values()
            for person in people
            if person.view is not None and person.view["seat"] is not None
        ),
        wallets_differing=checked["wallets_differing"],
        errors=errors,
        unexpected_errors={k: n for k, n in errors.items() if k not in EXPECTED_ERRORS},
        problems=problems,
    )
    report.ok = bool(
        checked["ok"]
        and not stalled
        and not problems
        and not report.unexpected_errors
        and report.tables_reconciled == options.tables
        and report.wallets == options.tables * options.seats
    )
    return report


def describe(r: ChaosReport) -> str:
    faults = ", ".join(f"{kind.replace('_', ' ')} {n}" for kind, n in r.faults.items())
    expected = {k: n for k, n in r.errors.items() if k in EXPECTED_ERRORS}
    lines = [
        f"{r.tables} tables of {r.seats} people, {r.workers} table worker(s), {r.seconds} s,"
        f" seed {r.seed}",
        f"faults: {faults} ({r.connections_cut} broker connection(s) cut)",
        f"commands: {r.commands}, hands: {r.hands}, resent: {r.resent},"
        f" answered applied-already: {r.applied_already}",
        f"actions lost: {r.actions_lost}",
        f"actions applied twice: {r.actions_applied_twice}",
        f"tables stalled (no progress for {r.stall_after:.0f} s, or none after the faults):"
        f" {len(r.tables_stalled)}{_some(r.tables_stalled)}",
        f"seq gaps: {len(r.seq_gaps)}{_some(r.seq_gaps)}",
        f"ledger invariants: {'hold' if r.ledger_ok else 'BROKEN ' + '; '.join(r.ledger_problems)}",
        f"tables reconciled with the ledger: {r.tables_reconciled}/{r.tables}"
        f"{_some(r.tables_not_reconciled)}",
        f"wallets matching table stacks: {r.wallets - len(r.wallets_differing)}"
        f"/{r.tables * r.seats}{_some(r.wallets_differing)}",
        f"errors seen by people: expected {expected or 'none'},"
        f" unexpected {r.unexpected_errors or 'none'}",
    ]
    if expected:
        lines += [f"  {code}: {EXPECTED_ERRORS[code]}" for code in expected]
    lines += [f"problem: {problem}" for problem in r.problems]
    lines.append("chaos: ok" if r.ok else "chaos: FAILED")
    return "\n".join(lines)


def _some(items: list[str], shown: int = 5) -> str:
    if not items:
        return ""
    more = f", +{len(items) - shown} more" if len(items) > shown else ""
    return f" ({', '.join(items[:shown])}{more})"
