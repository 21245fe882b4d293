"""``swick chaos``: the load test's people at their tables (of every game, as in the load test)
while faults strike at random (table workers killed with SIGKILL, the ledger restarted, the
gateway's broker connection cut, the ledger's and the workers' database connections terminated,
a poison posting sent, a bots service killed) and bots with bugs of their own play some seats
(a strategy that raises, one that answers illegally); then the checks that matter, for the run
and for each game: nothing acknowledged was lost or applied twice, no table stalled, no service
died on its own, the ledger set aside exactly the poison postings, and its books agree with
every table."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import signal
import subprocess
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncpg

from services.load import faulty_bots, loadtest
from services.load.audit import behind
from services.load.loadtest import Load, LoadOptions
from services.load.platform import Platform, answering, application_name
from services.load.proxy import Proxy
from services.progress import SILENT, Progress
from shared.bus import RabbitBus
from shared.messages import Leg, Posting

# Struck by the run, at random moments.
STRUCK = (
    "worker_killed",
    "ledger_restarted",
    "gateway_cut",
    "ledger_db_cut",
    "workers_db_cut",
    "poison_posting",
    "bots_killed",
)
SLOW = ("ledger_db_cut", "workers_db_cut")
# Struck only when asked for: the broker is the machine's, shared with anything else using it.
BROKER_RESTART = "broker_restarted"
BROKER_DOWN_FOR = (0.5, 3.0)  # seconds between stop_app and start_app
# Struck by the faulty bots themselves, on their own turns (services.load.faulty_bots).
MISBEHAVED = {"strategy_raised": faulty_bots.RAISED, "strategy_illegal": faulty_bots.ILLEGAL}
FAULTS = (*STRUCK, *MISBEHAVED)
FAULTY_BOTS = {  # bot name -> its strategy
    "chaos-raise": "services.load.faulty_bots:Raising",
    "chaos-illegal": "services.load.faulty_bots:Illegal",
}
BUILT_IN_BOT = "easy"  # seated too, so that the built-in bots service is killed as well
STALL_AFTER = 15.0  # seconds without progress; a worker's tables move within ~2 s of its death
CUT_FOR, CUT_EVERY = 3.0, 0.02  # seconds a service's database connections are cut, and how often
CUT_AT_MOST = 10.0  # seconds of cutting, waiting for a connection caught busy
CARRY_ON_WITHIN = 10.0  # seconds for the ledger to catch up, and tables to move, after a cut
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
    game: str  # as asked: one game, or the mix
    people: int  # seats taken by people: each one's wallet is audited
    workers: int
    seconds: float
    seed: int
    faults: dict[str, int]
    connections_cut: int  # broker connections of the gateway aborted
    database_connections_terminated: dict[str, int]  # by service
    database_connections_terminated_in_use: dict[str, int]  # in a query or transaction
    bot_seats: dict[str, int]  # seats played by each bot
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
    poison_postings: int  # sent: each must be set aside, none may block a table
    set_aside: int  # postings the ledger dead-lettered
    conflicts: int  # postings whose number was applied with another body
    exited: dict[str, int]  # services that died on their own (restarted), by service
    errors: dict[str, int]  # by code, as the people saw them
    unexpected_errors: dict[str, int]  # any of these fails the run
    problems: list[str] = field(default_factory=list)  # the platform failed to come back
    # Each game's share: its tables, hands, commands, latency, stalls and audit, and whether
    # everything that must hold held for it.
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    ok: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Faults:
    """Strikes at random for the run's first ``options.seconds - calm`` seconds, then brings
    the lineup back and notes where every table stands, so the run can tell whether each one
    moved on afterwards."""

    def __init__(
        self,
        proxy: Proxy,
        options: LoadOptions,
        *,
        every: float,
        calm: float,
        each_kind: bool,
        broker_restart: bool = False,
    ) -> None:
        self.proxy = proxy
        self.options = options
        self.rng = random.Random(f"chaos-{options.seed}")
        self.every = every
        self.calm = calm
        self.patience = CARRY_ON_WITHIN
        # Owed kinds, struck from the end: the database cuts last, as they take longest (and
        # longer still when a service does not carry on), so that the others all strike.
        self.kinds = (*STRUCK, BROKER_RESTART) if broker_restart else STRUCK
        quick = [kind for kind in self.kinds if kind not in SLOW]
        owed = self.rng.sample(SLOW, len(SLOW)) + self.rng.sample(quick, len(quick))
        self.forced = owed if each_kind else []
        self.counts: Counter[str] = Counter()
        self.terminated: Counter[str] = Counter()  # database connections, by service
        self.terminated_in_use: Counter[str] = Counter()  # of those: in a query or transaction
        self.exited: Counter[str] = Counter()
        self.problems: list[str] = []
        self.load: Load | None = None
        self.restored: dict[str, int] | None = None  # table -> seq once the faults ended
        self.misbehaviours = Path()  # the faulty bots' notes (in the run's logs)
        self.calm_flag = Path()  # made when the faults end: the faulty bots behave then

    async def prepare(self, platform: Platform) -> None:
        """Register the faulty bots and start their services and the built-in bots'."""
        self.misbehaviours = platform.logs / "misbehaviours.log"
        self.calm_flag = platform.logs / "calm"
        for name, strategy in FAULTY_BOTS.items():
            await platform.register_bot(name, strategy)
        for name in FAULTY_BOTS:
            self._start_bot(platform, name)
        platform.start_bots()

    def _start_bot(self, platform: Platform, name: str) -> None:
        platform.start_bot(
            name,
            env={
                faulty_bots.LOG_VARIABLE: str(self.misbehaviours),
                faulty_bots.CALM_VARIABLE: str(self.calm_flag),
            },
        )

    async def strike(self, load: Load) -> None:
        self.load, platform = load, load.platform
        until = time.monotonic() + self.options.seconds - self.calm
        while (left := until - time.monotonic()) > 0 or self.forced:
            pause = self.rng.uniform(0.5, 1.5) * self.every
            if self.forced:  # leave room for every kind still owed
                pause = min(pause, max(left, 0.0) / (len(self.forced) + 1))
            elif pause >= left:
                break
            await asyncio.sleep(pause)
            self._revive(platform)
            kind = self.forced.pop() if self.forced else self.rng.choice(self.kinds)
            self.counts[kind] += 1  # struck, even if the run ends while it does
            await getattr(self, kind)(platform)
        self.calm_flag.touch()
        await self._restore(platform)
        self.restored = {table: seq for table, (seq, _) in load.progress.items()}

    def _revive(self, platform: Platform) -> None:
        """Restart the bots services that died on their own (a strategy's exception must not
        take its service down), and count them."""
        for name in FAULTY_BOTS:
            if not platform.running(f"bot-{name}"):
                self.exited[f"bot-{name}"] += 1
                self._start_bot(platform, name)
        if not platform.running("bots"):
            self.exited["bots"] += 1
            platform.start_bots()

    async def ledger_db_cut(self, platform: Platform) -> None:
        """Then the ledger must go on applying postings (its consumer must not die quietly
        while the process, and its health probe, live on). Checked before any other fault
        strikes: a restart would hide it."""
        await self._terminate(platform, "ledger")
        assert self.load is not None
        late = await behind(platform.settings, list(self.load.tables), within=self.patience)
        if late:
            self.problems.append(
                f"the ledger did not catch up with {len(late)} table(s) within"
                f" {self.patience:.0f} s of its database connections being terminated"
            )
            for ledger in platform.running("ledger"):  # so that the other faults still tell
                await asyncio.to_thread(platform.kill, ledger)
            await platform.start_ledger()

    async def workers_db_cut(self, platform: Platform) -> None:
        """Then every table of people must move on (the faulty bots' tables have faults of
        their own), before any other fault strikes."""
        await self._terminate(platform, "table")
        assert self.load is not None
        load, faulty = self.load, self._faulty_tables()
        before = {t: seq for t, (seq, _) in load.progress.items() if t not in faulty}
        deadline, still = time.monotonic() + self.patience, list(before)
        while still and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            still = [t for t, seq in before.items() if load.progress[t][0] == seq]
        if not still:
            return
        self.problems.append(
            f"{len(still)} table(s) did not move within {self.patience:.0f} s of the workers'"
            " database connections being terminated"
        )
        for worker in platform.running("table"):  # so that the other faults still tell
            await asyncio.to_thread(platform.kill, worker)
        for _ in range(self.options.workers):
            platform.start_worker()

    def _faulty_tables(self) -> set[str]:
        assert self.load is not None
        return {t for t, bots in self.load.bots.items() if set(bots.values()) & set(FAULTY_BOTS)}

    async def _terminate(self, platform: Platform, service: str) -> None:
        """End every database connection of ``service`` (as an operator, a failover or an idle
        timeout may), again and again for ``CUT_FOR`` seconds, and on until one was caught in
        the middle of a query or transaction (a pool replaces an idle one unnoticed), for at
        most ``CUT_AT_MOST``; the service must notice and carry on with new ones."""
        conn = await asyncpg.connect(platform.settings.database_url)
        busy = self.terminated_in_use[service]
        try:
            start = time.monotonic()
            while (now := time.monotonic()) < start + CUT_FOR or (
                self.terminated_in_use[service] == busy and now < start + CUT_AT_MOST
            ):
                ended = await conn.fetch(  # chosen first, so that no other is ended
                    "WITH chosen AS MATERIALIZED (SELECT pid, state FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = $1"
                    " AND pid <> pg_backend_pid())"
                    " SELECT state FROM chosen WHERE pg_terminate_backend(pid)",
                    application_name(service),
                )
                self.terminated[service] += len(ended)
                self.terminated_in_use[service] += sum(1 for r in ended if r["state"] != "idle")
                await asyncio.sleep(CUT_EVERY)
        finally:
            await conn.close()

    async def poison_posting(self, platform: Platform) -> None:
        """A posting that breaks the ledger's rules (2**63 chips), from the tables' own broker
        user: the ledger must set it aside and go on with every other posting."""
        table = f"poison-{secrets.token_hex(4)}"
        poison = Posting(
            id=f"{table}:1",
            table_id=table,
            posting_no=1,
            hand_no=1,
            legs=(Leg(debit="wallet:nobody", credit=f"pot:{table}", amount=2**63, code="ante"),),
            stacks={},
            names={},
        )
        settings = platform.settings
        bus = await RabbitBus.connect(settings.amqp_url_for("table"), settings.topology)
        try:
            await bus.publish_posting(poison.model_dump_json().encode())
        finally:
            await bus.close()

    async def bots_killed(self, platform: Platform) -> None:
        services = [f"bot-{name}" for name in FAULTY_BOTS] + ["bots"]
        service = self.rng.choice(services)
        for process in platform.running(service):
            platform.kill(process)
        await asyncio.sleep(self.rng.uniform(0.5, 2.0))
        if service == "bots":
            platform.start_bots()
        else:
            self._start_bot(platform, service.removeprefix("bot-"))

    def misbehaved(self) -> dict[str, int]:
        noted = faulty_bots.count(str(self.misbehaviours))
        return {kind: noted[fault] for kind, fault in MISBEHAVED.items()}

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

    async def broker_restarted(self, platform: Platform) -> None:
        """Every connection drops; durable queues and persistent messages stay, transient ones
        (people's requests, views) are gone: the gateway sends its unanswered requests again.
        The table workers stop with their connection (crash-only) and are started again."""
        workers = platform.running("table")
        await _rabbitmqctl("stop_app")
        await asyncio.sleep(self.rng.uniform(*BROKER_DOWN_FOR))
        await _rabbitmqctl("start_app")
        await _rabbitmqctl("await_startup")
        deadline = time.monotonic() + CARRY_ON_WITHIN
        for worker in workers:  # they stop once they find their connection gone
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(worker.wait, max(0.0, deadline - time.monotonic()))
        await platform.restore(workers=self.options.workers, bots=1)

    async def _restore(self, platform: Platform) -> None:
        if not platform.running("gateway"):
            self.problems.append("the gateway exited")
            await platform.start_gateway(self.proxy.url(self.options.amqp_url))
        self._revive(platform)
        await platform.restore(workers=self.options.workers, bots=1)
        try:  # ready: connected to the broker again
            await answering(platform.base, "/readyz", within=READY_WITHIN)
        except TimeoutError:
            self.problems.append(f"the gateway was not ready {READY_WITHIN:.0f} s after the faults")


async def _rabbitmqctl(command: str) -> None:
    process = await asyncio.create_subprocess_exec(
        "rabbitmqctl", command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    _, error = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"rabbitmqctl {command} failed: {error.decode(errors='replace')}")


async def run(
    options: LoadOptions,
    *,
    every: float = 6.0,
    calm: float | None = None,
    each_kind: bool = True,
    broker_restart: bool = False,
    stall_after: float = STALL_AFTER,
    progress: Progress = SILENT,
) -> ChaosReport:
    """``options.seconds`` of play: faults every ``every`` s or so (randomly, by
    ``options.seed``), then ``calm`` s without any, in which every table must move on.
    ``each_kind``: strike each kind of fault at least once. ``broker_restart``: restart the
    broker among the faults (the machine's own: anything else using it is cut off too)."""
    options = replace(options, stall_after=stall_after, bots=bot_seats(options))
    calm = max(10.0, options.seconds / 6) if calm is None else calm
    async with Proxy.to(options.amqp_url) as proxy:
        faults = Faults(
            proxy,
            options,
            every=every,
            calm=calm,
            each_kind=each_kind,
            broker_restart=broker_restart,
        )
        figures = await loadtest.run(
            options,
            faults.strike,
            label="chaos",
            gateway_amqp_url=proxy.url(options.amqp_url),
            prepare=faults.prepare,
            progress=progress,
        )
    return _report(options, figures, faults)


def bot_seats(options: LoadOptions) -> dict[int, dict[int, str]]:
    """A bot in seat 1 of each of the first tables: the faulty ones, then a built-in one."""
    if options.seats < 2:
        return {}
    names = [*FAULTY_BOTS, BUILT_IN_BOT]
    return {number: {1: name} for number, name in enumerate(names[: options.tables])}


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
        game=options.game,
        people=options.people(),
        workers=options.workers,
        seconds=figures.seconds,
        seed=options.seed,
        faults={kind: faults.counts[kind] for kind in faults.kinds} | faults.misbehaved(),
        connections_cut=faults.proxy.cuts,
        database_connections_terminated=dict(faults.terminated),
        database_connections_terminated_in_use=dict(faults.terminated_in_use),
        bot_seats=dict(Counter(n for seats in options.bots.values() for n in seats.values())),
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
        poison_postings=faults.counts["poison_posting"],
        set_aside=checked["set_aside"],
        conflicts=checked["conflicts"],
        exited=dict(faults.exited),
        errors=errors,
        unexpected_errors={k: n for k, n in errors.items() if k not in EXPECTED_ERRORS},
        problems=problems,
        games={name: _game_share(load, name, g, stalled) for name, g in figures.games.items()},
    )
    report.ok = bool(
        checked["ok"]
        and not stalled
        and not problems
        and not report.unexpected_errors
        and report.tables_reconciled == options.tables
        and report.wallets == report.people
        and all(g["ok"] for g in report.games.values())
        and report.set_aside == report.poison_postings
        and not report.conflicts
        and not report.exited
    )
    return report


def _game_share(
    load: Load, name: str, g: loadtest.GameFigures, stalled: list[str]
) -> dict[str, Any]:
    """A game's figures, with the tables stalled under the faults (or not moving after them)
    among its own, and its verdict: its audit held, none stalled, no unexpected error."""
    share = asdict(g) | {"stalled": [t for t in stalled if load.games[t] == name]}
    unexpected = {k: n for k, n in g.errors.items() if k not in EXPECTED_ERRORS}
    share["ok"] = bool(g.audit.get("ok") and not share["stalled"] and not unexpected)
    return share


def describe(r: ChaosReport) -> str:
    faults = ", ".join(f"{kind.replace('_', ' ')} {n}" for kind, n in r.faults.items())
    expected = {k: n for k, n in r.errors.items() if k in EXPECTED_ERRORS}
    lines = [
        f"{r.tables} tables ({_games(r)}), {r.workers} table worker(s), {r.seconds} s,"
        f" seed {r.seed}",
        f"faults: {faults}",
        f"  {r.connections_cut} broker connection(s) of the gateway cut; database connections"
        f" terminated: {_counts(r.database_connections_terminated)} (in a query or"
        f" transaction: {_counts(r.database_connections_terminated_in_use)});"
        f" bot seats: {_counts(r.bot_seats)}",
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
        f"/{r.people}{_some(r.wallets_differing)}",
        f"postings set aside by the ledger: {r.set_aside} (poison postings sent:"
        f" {r.poison_postings}), conflicts: {r.conflicts}",
        f"services that died on their own: {_counts(r.exited)}",
        f"errors seen by people: expected {expected or 'none'},"
        f" unexpected {r.unexpected_errors or 'none'}",
    ]
    if expected:
        lines += [f"  {code}: {EXPECTED_ERRORS[code]}" for code in expected]
    lines += [f"problem: {problem}" for problem in r.problems]
    lines += [_describe_game(name, g) for name, g in r.games.items()]
    lines.append("chaos: ok" if r.ok else "chaos: FAILED")
    return "\n".join(lines)


def _games(r: ChaosReport) -> str:
    games = r.games.items()
    return ", ".join(f"{g['tables']} of {name} at {g['seats']} seats" for name, g in games)


def _describe_game(name: str, g: dict[str, Any]) -> str:
    audit, lat = g["audit"], g["latency_ms"]
    return (
        f"  {name}: {'ok' if g['ok'] else 'FAILED'}: {g['tables']} tables"
        f" ({g['for_money']} for money), commands {g['commands']}, hands {g['hands']},"
        f" p50 {lat['p50']} ms, p99 {lat['p99']} ms, lost {audit['actions_lost']},"
        f" applied twice {audit['actions_applied_twice']}, stalled {len(g['stalled'])},"
        f" reconciled {audit['tables_reconciled']}/{g['tables']} ({audit['postings']} postings),"
        f" wallets matching {audit['wallets_checked'] - len(audit['wallets_differing'])}"
        f"/{g['people']}"
    )


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in counts.items()) or "none"


def _some(items: list[str], shown: int = 5) -> str:
    if not items:
        return ""
    more = f", +{len(items) - shown} more" if len(items) > shown else ""
    return f" ({', '.join(items[:shown])}{more})"
