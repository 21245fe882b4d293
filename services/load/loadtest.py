"""``swick loadtest``: tables of simulated people, of every game or one, through the real
gateway, broker, workers and ledger, started here in a namespace and database of their own,
with figures at the end (for the run and for each game)."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from services.load.audit import Audit, audit
from services.load.games import MIX, TablePlan, plan, played
from services.load.people import Person, Tally
from services.load.platform import Platform, cpu_seconds, isolated, processes_named
from services.progress import SILENT, Progress, wait
from shared.bus import DEFAULT_URL
from shared.settings import DEFAULT_DATABASE

HUMAN_PACE = (0.5, 1.5)  # seconds between a person's turn coming and their action
SETUP_CONCURRENCY = 25
TRY_AGAIN = ("cashier", "unavailable", "rate_limited")  # refusals that say to try again
BROKER, DATABASE = ("beam.smp",), ("postgres",)  # RabbitMQ's and PostgreSQL's processes


@dataclass
class LoadOptions:
    tables: int = 200
    seconds: float = 60.0
    seats: int = 4  # asked of every game; one that cannot have as many has its own number
    game: str = MIX  # one game of the registry, or all of them, the tables spread over them
    workers: int = 2
    max_pace: bool = False
    stall_after: float = 10.0  # seconds without progress that make a table stalled
    warmup: float = 5.0  # seconds of play before the figures start (games being dealt)
    seed: int = 1
    amqp_url: str = DEFAULT_URL
    database_url: str = DEFAULT_DATABASE
    shards: int = 32
    logs: Path | None = None
    # Table number -> {seat: bot name}: bots seated at the first tables (the rest are people).
    bots: dict[int, dict[int, str]] = field(default_factory=dict)

    def plans(self) -> list[TablePlan]:
        return plan(self.game, self.tables, self.seats, self.bots)

    def people(self) -> int:
        """Seats taken by people."""
        return sum(table.seats - len(table.bots) for table in self.plans())


@dataclass
class Played:
    """What a run, or one game's share of it, played: its tables (at how many seats), what they
    played in the measured window and how fast (see ``_pace``), and which of them stalled."""

    tables: int
    seats: int
    commands: int
    commands_per_second: float
    hands: int
    hands_per_second: float
    latency_ms: dict[str, float]
    errors: dict[str, int]
    resent: int
    applied_already: int  # answered "duplicate": delivered twice, applied once
    stalled: list[str]


@dataclass
class GameFigures(Played):
    """One game's share of a run."""

    for_money: int  # tables played for chips or a stake (the rest for points)
    people: int
    audit: dict[str, Any] = field(default_factory=dict)


@dataclass
class Figures(Played):
    game: str  # as asked: one game, or the mix
    workers: int
    seconds: float
    service_cpu_ms_per_hand: float
    broker_cpu_ms_per_hand: float
    database_cpu_ms_per_hand: float
    load_generator_cpu_ms_per_hand: float  # the simulated people themselves
    service_cpu_share: dict[str, float]  # CPU seconds per service kind over the run
    # Services + broker + database, per command (the load generator apart).
    platform_cpu_ms_per_command: float
    load_generator_cpu_ms_per_command: float
    rss_mb_per_table: float
    rss_mb_total: float
    audit: dict[str, Any] = field(default_factory=dict)
    games: dict[str, GameFigures] = field(default_factory=dict)  # each game's share

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {
        "p50": round(cuts[49] * 1000, 2),
        "p95": round(cuts[94] * 1000, 2),
        "p99": round(cuts[98] * 1000, 2),
        "max": round(max(samples) * 1000, 2),
    }


class Load:
    """The simulated people, seated at their tables, and the watch kept over them."""

    def __init__(
        self, platform: Platform, options: LoadOptions, progress: Progress = SILENT
    ) -> None:
        self.platform = platform
        self.options = options
        self.display = progress
        self.tallies = {name: Tally() for name in played(options.game)}
        self.rng = random.Random(options.seed)
        self.pace = (0.0, 0.0) if options.max_pace else HUMAN_PACE
        self.tables: dict[str, list[Person]] = {}
        self.games: dict[str, str] = {}  # table -> its game
        self.bots: dict[str, dict[int, str]] = {}  # table -> {seat: bot name}, where bots sit
        self.progress: dict[str, tuple[int, float]] = {}  # table -> (seq, when it last moved)
        self.stalled: set[str] = set()

    async def seat_everyone(self) -> None:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        async with httpx.AsyncClient(timeout=30) as http:

            async def one(table: TablePlan) -> None:
                async with gate:
                    await self._open_table(http, table)

            async with asyncio.TaskGroup() as tasks:
                for table in self.options.plans():
                    tasks.create_task(one(table))

    @property
    def tally(self) -> Tally:
        """Every game's tallies together."""
        return Tally.added(self.tallies.values())

    def new_window(self) -> None:
        for tally in self.tallies.values():
            tally.new_window()

    def tables_of(self, name: str) -> dict[str, list[Person]]:
        return {t: people for t, people in self.tables.items() if self.games[t] == name}

    async def _open_table(self, http: httpx.AsyncClient, planned: TablePlan) -> None:
        base, bots, number = self.platform.base, planned.bots, planned.number
        tally = self.tallies[planned.game]
        people = [
            Person(
                base,
                f"T{number}s{seat}",
                tally,
                random.Random(self.rng.random()),
                self.pace,
                planned.hand_number,
            )
            for seat in range(planned.seats)
            if seat not in bots
        ]
        for person in people:
            await person.sign_up(http)
            await person.connect()
        host = people[0]
        reply = await http.post(
            f"{base}/api/tables",
            json=planned.request(),
            headers={"authorization": f"Bearer {host.token}"},
        )
        reply.raise_for_status()
        table = reply.json()["id"]
        for person in people:
            person.table = table
            await _watch_when_created(person, table)
        for person in people[1:]:
            await _join(person, table)
        await host.until(lambda v: all(s["player"] is not None for s in v["seats"]), within=120)
        self.tables[table] = people
        self.games[table] = planned.game
        if bots:
            self.bots[table] = dict(bots)
        self.progress[table] = (0, time.monotonic())
        self.display.advance()

    async def play(
        self, seconds: float, during: Callable[[], Coroutine[Any, Any, None]] | None = None
    ) -> None:
        """Everyone plays for ``seconds``; ``during`` runs alongside."""
        async with asyncio.TaskGroup() as tasks:
            watch = tasks.create_task(self._watch())
            extra = tasks.create_task(during()) if during is not None else None
            await wait(self.display, seconds)
            watch.cancel()
            if extra is not None:
                extra.cancel()

    async def start_games(self) -> None:
        """Every host deals, at a moment of their own within the first seconds (a crowd of
        tables that all start in the same millisecond is not what a platform sees)."""
        spread = max(self.pace[1], 0.5) * 2

        async def deal(host: Person, delay: float) -> None:
            await asyncio.sleep(delay)
            await host.start_game()

        async with asyncio.TaskGroup() as tasks:
            for people in self.tables.values():
                tasks.create_task(deal(people[0], self.rng.uniform(0, spread)))

    async def _watch(self) -> None:
        """Resend what went unanswered, and note tables that stop moving."""
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            clock = time.perf_counter()
            for table, people in self.tables.items():
                for person in people:
                    await person.resend_overdue(clock)
                seq = max((p.view or {}).get("seq", 0) for p in people)
                last, since = self.progress[table]
                if seq != last:
                    self.progress[table] = (seq, now)
                elif now - since > self.options.stall_after:
                    self.stalled.add(table)

    async def settle(self) -> None:
        await asyncio.gather(*(p.settle(30.0) for people in self.tables.values() for p in people))
        for people in self.tables.values():
            for person in people:
                if person.pending:
                    person.tally.errors["unanswered"] += len(person.pending)

    async def audit(self) -> dict[str, Audit]:
        """Each game's audit: its tables, the actions its people had applied, their wallets."""
        audits = {}
        for name, tally in self.tallies.items():
            tables = self.tables_of(name)
            people = [person for seated in tables.values() for person in seated]
            shown = {}
            for person in people:
                view = person.view
                if view is not None and view["seat"] is not None:
                    stack = view["seats"][view["seat"]].get("stack")
                    if stack is not None:  # a game whose views show a seat's chips
                        shown[person.id] = stack
            applied = tally.acked | tally.duplicates
            ids = [person.id for person in people]
            audits[name] = await audit(self.platform.settings, list(tables), applied, ids, shown)
        return audits

    async def close(self) -> None:
        await asyncio.gather(
            *(p.close() for people in self.tables.values() for p in people), return_exceptions=True
        )


async def _join(person: Person, table: str) -> None:
    """Take a seat, trying again like a patient person when told to ("try again shortly":
    the ledger is busy opening hundreds of wallets at once)."""
    for _ in range(60):
        answer = await person.request({"type": "join", "table": table})
        if answer["type"] == "ack":
            return
        if answer["code"] not in TRY_AGAIN:
            break
        await asyncio.sleep(0.5)
    raise RuntimeError(f"could not join {table}: {answer}")


async def _watch_when_created(person: Person, table: str) -> None:
    """A new table reaches its worker a moment after the lobby answers: watch once it has."""
    for _ in range(100):
        answer = await person.request({"type": "watch", "table": table})
        if answer["type"] == "ack":
            await person.until(lambda view: True)
            return
        await asyncio.sleep(0.1)
    raise RuntimeError(f"{table} never reached its worker")


@asynccontextmanager
async def platform_for(
    options: LoadOptions, label: str, gateway_amqp_url: str | None = None
) -> AsyncIterator[Platform]:
    async with isolated(
        options.amqp_url,
        options.database_url,
        shards=options.shards,
        label=label,
        database_pool=10,  # as deployed: the load is measured on the production settings
    ) as settings:
        logs = options.logs or Path(tempfile.mkdtemp(prefix=f"swick-{label}-"))
        platform = Platform(settings, logs)
        try:
            await platform.start(workers=options.workers, bots=0, gateway_amqp_url=gateway_amqp_url)
            yield platform
        finally:
            platform.stop()


def _cpu_of(names: tuple[str, ...]) -> float:
    """CPU seconds of the live processes called ``names`` (a database backend that exits
    during the run takes its share with it: the pools keep theirs open)."""
    return sum(cpu_seconds(pid) for pid in processes_named(*names))


async def run(
    options: LoadOptions,
    during: Callable[[Load], Coroutine[Any, Any, None]] | None = None,
    *,
    label: str = "load",
    gateway_amqp_url: str | None = None,
    prepare: Callable[[Platform], Coroutine[Any, Any, None]] | None = None,
    progress: Progress = SILENT,
) -> Figures:
    """``gateway_amqp_url``: where the gateway finds the broker (the chaos run's cuttable proxy);
    ``prepare``: run once the platform is up, before anyone sits down (the bots' services)."""
    progress.stage(f"starting {options.workers} table worker(s), the ledger and the gateway")
    async with platform_for(options, label, gateway_amqp_url) as platform:
        if prepare is not None:
            await prepare(platform)
        load = Load(platform, options, progress)
        idle_rss = platform.resident_bytes()
        try:
            progress.stage(f"seating {options.seats} people at each table", options.tables)
            await load.seat_everyone()
            open_rss = platform.resident_bytes()
            await load.start_games()
            progress.stage("warming up (s)", options.warmup)
            await load.play(options.warmup)
            load.new_window()
            services_before, generator_before = platform.cpu_by_service(), time.process_time()
            broker_before, database_before = _cpu_of(BROKER), _cpu_of(DATABASE)
            started = time.monotonic()
            progress.stage(f"{label}: playing (s)", options.seconds)
            await load.play(options.seconds, (lambda: during(load)) if during else None)
            elapsed = time.monotonic() - started
            generator = time.process_time() - generator_before
            broker = _cpu_of(BROKER) - broker_before
            database = _cpu_of(DATABASE) - database_before
            services = {
                service: spent - services_before.get(service, 0.0)
                for service, spent in platform.cpu_by_service().items()
            }
            cpu = sum(services.values())
            counted = {name: (t.sent, t.hands) for name, t in load.tallies.items()}
            commands, hands = load.tally.sent, load.tally.hands
            progress.stage("settling and auditing every action and chip")
            await load.settle()
            audits = await load.audit()
        finally:
            await load.close()
        checked, total = Audit.combined(audits.values()), load.tally
        per_hand = max(hands, 1)
        games = {
            name: _game_figures(load, name, *counted[name], elapsed, audits[name])
            for name in load.tallies
        }
        return Figures(
            tables=options.tables,
            seats=options.seats,
            game=options.game,
            workers=options.workers,
            seconds=round(elapsed, 1),
            **_pace(commands, hands, elapsed, total),
            stalled=sorted(load.stalled),
            service_cpu_ms_per_hand=round(cpu * 1000 / per_hand, 2),
            broker_cpu_ms_per_hand=round(broker * 1000 / per_hand, 2),
            load_generator_cpu_ms_per_hand=round(generator * 1000 / per_hand, 2),
            database_cpu_ms_per_hand=round(database * 1000 / per_hand, 2),
            service_cpu_share={service: round(spent, 2) for service, spent in services.items()},
            platform_cpu_ms_per_command=round(
                (cpu + broker + database) * 1000 / max(commands, 1), 3
            ),
            load_generator_cpu_ms_per_command=round(generator * 1000 / max(commands, 1), 3),
            rss_mb_per_table=round((open_rss - idle_rss) / options.tables / 2**20, 3),
            rss_mb_total=round(open_rss / 2**20, 1),
            audit=asdict(checked) | {"ok": checked.ok},
            games=games,
        )


def _pace(commands: int, hands: int, elapsed: float, tally: Tally) -> dict[str, Any]:
    """The figures the whole run and each game share: what was played in the measured window
    and how fast, and ``tally``'s answers."""
    return {
        "commands": commands,
        "commands_per_second": round(commands / elapsed, 1),
        "hands": hands,
        "hands_per_second": round(hands / elapsed, 1),
        "latency_ms": percentiles(tally.latencies),
        "errors": dict(tally.errors),
        "resent": tally.resent,
        "applied_already": len(tally.duplicates),
    }


def _game_figures(
    load: Load, name: str, commands: int, hands: int, elapsed: float, checked: Audit
) -> GameFigures:
    """``commands`` and ``hands``: the game's, counted in the measured window (the tally's
    other figures are the whole run's: every request must be audited)."""
    tally, tables = load.tallies[name], load.tables_of(name)
    plans = [p for p in load.options.plans() if p.game == name]
    return GameFigures(
        tables=len(tables),
        seats=plans[0].seats if plans else 0,
        for_money=sum(1 for p in plans if p.staked),
        people=sum(len(people) for people in tables.values()),
        **_pace(commands, hands, elapsed, tally),
        stalled=sorted(set(tables) & load.stalled),
        audit=asdict(checked) | {"ok": checked.ok},
    )


def describe(f: Figures) -> str:
    lat = f.latency_ms
    lines = [
        f"{f.tables} tables ({_games(f)}), {f.workers} table worker(s), {f.seconds} s",
        f"commands: {f.commands} ({f.commands_per_second}/s), hands: {f.hands}"
        f" ({f.hands_per_second}/s)",
        f"command -> own view: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms,"
        f" max {lat['max']} ms",
        f"errors: {sum(f.errors.values())} {f.errors or ''}, resent: {f.resent},"
        f" answered applied-already: {f.applied_already},"
        f" stalled tables: {len(f.stalled)}",
        f"CPU per hand: services {f.service_cpu_ms_per_hand} ms"
        f" ({', '.join(f'{k} {v} s' for k, v in sorted(f.service_cpu_share.items()))}),"
        f" broker {f.broker_cpu_ms_per_hand} ms, database {f.database_cpu_ms_per_hand} ms,"
        f" load generator {f.load_generator_cpu_ms_per_hand} ms",
        f"CPU per command: services + broker + database {f.platform_cpu_ms_per_command} ms,"
        f" load generator {f.load_generator_cpu_ms_per_command} ms",
        f"memory: {f.rss_mb_per_table} MB per open table, {f.rss_mb_total} MB in all",
        f"audit: {'ok' if f.audit.get('ok') else 'FAILED'}: lost {f.audit['actions_lost']},"
        f" applied twice {f.audit['actions_applied_twice']},"
        f" tables reconciled {f.audit['tables_reconciled']}/{f.tables}",
    ]
    lines += [describe_game(name, g) for name, g in f.games.items()]
    return "\n".join(lines)


def _games(f: Figures) -> str:
    return ", ".join(f"{g.tables} of {name} at {g.seats} seats" for name, g in f.games.items())


def describe_game(name: str, g: GameFigures) -> str:
    lat = g.latency_ms
    return (
        f"  {name}: {g.tables} tables ({g.for_money} for money), commands {g.commands}"
        f" ({g.commands_per_second}/s), hands {g.hands} ({g.hands_per_second}/s),"
        f" p50 {lat['p50']} ms, p99 {lat['p99']} ms, errors {sum(g.errors.values())},"
        f" stalled {len(g.stalled)}, audit {'ok' if g.audit.get('ok') else 'FAILED'}"
        f" (lost {g.audit['actions_lost']}, applied twice {g.audit['actions_applied_twice']},"
        f" reconciled {g.audit['tables_reconciled']}/{g.tables} ({g.audit['postings']} postings),"
        f" wallets matching {g.audit['wallets_checked'] - len(g.audit['wallets_differing'])}"
        f"/{g.people})"
    )
