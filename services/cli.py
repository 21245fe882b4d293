"""The ``swick`` command: run services, benchmarks and the fairness verifier."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.load.loadtest import LoadOptions
    from services.progress import Progress


def _printed(args: argparse.Namespace, module: Any, result: Any) -> int:
    """Print what ``module`` says of ``result``: its ``report`` as JSON with ``--json``, else
    its ``describe``."""
    print(json.dumps(module.report(result)) if args.json else module.describe(result))
    return 0


def _shown(args: argparse.Namespace, module: Any, run: Callable[[Progress], Any]) -> int:
    """Run ``run`` with progress bars (none for ``--json``) and print what ``module`` says of
    its result (``_printed``)."""
    from services.progress import progress_bars, showing

    with progress_bars(showing(args.json)) as progress:
        result = run(progress)
    return _printed(args, module, result)


def _bench_engine(args: argparse.Namespace) -> int:
    from services.benchmarks import engine
    from services.progress import progress_bars, showing

    with progress_bars(showing(args.json)) as progress:
        if args.game == "swick":
            figures = [engine.run(seats, args.hands, args.seed, progress) for seats in (3, 6)]
        else:
            figures = [engine.run_game(args.game, args.hands, args.seed, progress)]
    if args.json:
        print(json.dumps(engine.report(figures)))
    else:
        for f in figures:
            print(engine.describe(f))
    return 0


def _bench_ledger(args: argparse.Namespace) -> int:
    import asyncio

    from services.benchmarks import ledger

    return _shown(
        args,
        ledger,
        lambda progress: asyncio.run(ledger.run(args.seconds, args.tables, progress=progress)),
    )


def _bench_replays(args: argparse.Namespace) -> int:
    import asyncio

    from services.benchmarks import replays

    figures = asyncio.run(replays.run(args.seconds, args.games, args.per_table, args.sockets))
    return _printed(args, replays, figures)


def _bench_bots(args: argparse.Namespace) -> int:
    from services.benchmarks import bots

    cap = args.cap_ms or None
    return _shown(
        args,
        bots,
        lambda progress: bots.run(args.hands, args.seed, args.seats, args.worlds, cap, progress),
    )


def _bench_floor(args: argparse.Namespace) -> int:
    import uvloop

    from services.benchmarks import floor

    amqp_url, database_url = floor.settings_urls()
    floors = uvloop.run(floor.run(args.samples, (0.04, 0.0), amqp_url, database_url))
    return _printed(args, floor, floors)


def _bench_flood(args: argparse.Namespace) -> int:
    import uvloop

    from services.benchmarks import flood
    from services.benchmarks.floor import settings_urls

    if min(args.actions, args.flood, args.workers) < 1:
        print(
            "swick bench flood: --actions, --flood and --workers must be at least 1",
            file=sys.stderr,
        )
        return 2
    amqp_url, database_url = settings_urls()
    return _shown(
        args,
        flood,
        lambda progress: uvloop.run(
            flood.run(
                amqp_url,
                database_url,
                actions=args.actions,
                flood=args.flood,
                workers=args.workers,
                progress=progress,
            )
        ),
    )


def _verify(args: argparse.Namespace) -> int:
    from shared.games.registry import GAMES, game

    try:
        data = json.loads(Path(args.record).read_text())
        # A record names its dealing algorithm, and so its game; one naming no game's is read
        # as Swick's, the first game's, whose check says what is wrong with it.
        algorithm = data.get("algorithm") if isinstance(data, dict) else None
        owner = (g for g in GAMES.values() if g.record_algorithm == algorithm)
        verdict = next(owner, game("swick")).verify_record(data)
    except (OSError, ValueError) as error:
        print(f"swick verify: cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    if verdict.ok:
        print(
            f"VERIFIED: all {verdict.checked} {verdict.deals} were dealt by the revealed seed "
            f"(fingerprint {verdict.fingerprint})."
        )
        return 0
    print(f"MISMATCH after {verdict.checked} good {verdict.deals}: {verdict.mismatch}")
    return 1


def _serve(args: argparse.Namespace) -> int:
    from services.serve import serve
    from shared.startup import exit_code

    return exit_code(
        f"swick serve {args.service}",
        lambda: serve(
            args.service,
            host=args.host,
            port=args.port,
            internal_host=args.internal_host,
            internal_port=args.internal_port,
            only=args.only,
        ),
    )


def _migrate(args: argparse.Namespace) -> int:
    from services.serve import migrate
    from shared.startup import exit_code

    definitions = Path(args.definitions) if args.definitions else None
    return exit_code("swick migrate", lambda: migrate(definitions))


def _broker_setup(args: argparse.Namespace) -> int:
    from services.serve import migrate
    from shared.startup import exit_code

    definitions = Path(args.definitions) if args.definitions else None
    return exit_code("swick broker setup", lambda: migrate(definitions))


def _broker_definitions(args: argparse.Namespace) -> int:
    from services.broker import BUILT_IN_BOTS
    from shared.broker import definitions, users_of
    from shared.bus import Topology

    topology = Topology(args.namespace, args.shards)
    document = definitions(
        topology,
        users=users_of(topology, BUILT_IN_BOTS),
        bot_queues=BUILT_IN_BOTS,
        vhost=args.vhost,
    )
    print(json.dumps(document, indent=2))
    return 0


def _bots_register(args: argparse.Namespace) -> int:
    from services.broker import register_bot
    from shared.broker import BrokerSetupError, administrator
    from shared.settings import Settings

    settings = Settings.from_env()
    try:
        url = asyncio.run(
            register_bot(settings, args.bot, args.owner, administrator(settings.rabbitmq_api))
        )
    except BrokerSetupError as error:
        print(f"swick bots register: {error}", file=sys.stderr)
        return 1
    print(
        f"Registered the bot {args.bot} (owner: {args.owner}). Its broker URL, shown only now:\n"
        f"\n  SWICK_AMQP_URL={url}\n\n"
        "Give it to the bot's developer over a private channel: it lets a bots service take"
        f" this bot's turns and act for its seats, nothing more."
    )
    return 0


def _bots_new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from services.bots.scaffold import OPPONENTS, scaffold

    try:
        root = scaffold(args.package, Path(args.dir), args.game)
    except (ValueError, FileExistsError) as error:
        print(f"swick bots new: {error}", file=sys.stderr)
        return 2
    strategy = f"{args.package}.bot:Bot"
    print(
        f"Wrote {root}. Next:\n  pip install -e {root}\n"
        f"  swick bots check --game {args.game} --strategy {strategy}\n"
        f"  swick arena --game {args.game} --seats {strategy},{OPPONENTS[args.game]} --duplicate\n"
        f"To deploy it: {root / 'deploy'} (a Dockerfile, Kubernetes, Compose; see its README)"
    )
    return 0


def _bots_check(args: argparse.Namespace) -> int:
    from services.bots.check import check
    from services.bots.strategy import load_strategy

    seats = None if args.players is None else [args.players]
    try:
        factory = load_strategy(args.strategy)
        report = check(
            factory, args.positions, args.seed, seats, slow_ms=args.slow_ms, game=args.game
        )
    except (ValueError, ImportError, AttributeError) as error:
        print(f"swick bots check: {error}", file=sys.stderr)
        return 2
    print(report.describe(args.slow_ms))
    return 0 if report.ok else 1


def _bots(args: argparse.Namespace) -> int:
    from services.bots.strategy import load_strategy
    from services.serve import run_bots, until_stopped
    from shared.observability import configure_logging
    from shared.settings import Settings
    from shared.startup import exit_code

    if args.strategy is None or args.name is None:
        print("swick bots: --strategy and --name are needed to run a bots service", file=sys.stderr)
        return 2
    configure_logging()
    factory = load_strategy(args.strategy)
    settings = replace(Settings.from_env(), bot_think_ms=args.think_ms)
    coroutine = run_bots(settings, {args.name: factory}, host=args.host, port=args.port)
    return exit_code("swick bots", lambda: asyncio.run(until_stopped(coroutine)) or 0)


# Each game's lineup by default: Swick's three seats, Euchre's two partnerships, Contract
# Whist's levels round its four seats.
ARENA_SEATS = {
    "swick": "hard,medium,medium",
    "euchre": "hard,medium",
    "contract-whist": "hard,medium",
}
ARENA_DEALS = {"swick": 20_000, "euchre": 200, "contract-whist": 200}


def _arena(args: argparse.Namespace) -> int:
    from services.bots import arena, duplicate
    from services.bots.budget import HARD_WORLDS
    from services.bots.tables import IllegalAnswer, seat_lineup
    from shared.games.interface import IllegalCommand

    names = [name.strip() for name in (args.seats or ARENA_SEATS[args.game]).split(",")]
    try:  # every name and setting checked before a game is played
        seats = seat_lineup(args.game, names, args.players)
        if args.hands is not None and args.game != "swick":
            raise ValueError("--hands counts Swick hands; --deals counts games of the others")
        if args.game == "euchre" and not args.duplicate and seats[:2] != seats[2:]:
            raise ValueError(
                "Euchre without --duplicate plays one partnership against the other: name 2"
                " strategies (or 4 seats as a,b,a,b)"
            )
        if args.game == "swick":
            worlds = HARD_WORLDS if args.worlds is None else args.worlds
            hard_cap_ms = args.hard_cap_ms or None
            strategies = arena.lineup(seats, args.seed, hard_worlds=worlds, hard_cap_ms=hard_cap_ms)
        else:
            strategies = duplicate.lineup(args.game, seats, args.seed, args.worlds)
    except (ValueError, ImportError, AttributeError) as error:
        print(f"swick arena: {error}", file=sys.stderr)
        return 2
    try:
        if args.game == "swick":
            return _swick_arena(args, seats, strategies)
        if args.duplicate:
            return _duplicate_arena(args, seats, strategies)
        if args.game == "euchre":
            return _euchre_arena(args, seats)
        return _whist_arena(args, seats)
    except (IllegalAnswer, IllegalCommand) as error:  # a strategy answered illegally
        print(f"swick arena: {error}", file=sys.stderr)
        return 1


def _swick_arena(args: argparse.Namespace, names: tuple[str, ...], strategies: list[Any]) -> int:
    from services.bots import arena

    # --hands (the first flag) counts hands in all; --deals counts deals.
    hands = args.hands if args.deals is None else None

    def play(progress: Progress) -> Any:
        if args.duplicate:
            deals = args.deals or max(1, (hands or ARENA_DEALS["swick"]) // len(names))
            return arena.play_duplicate(names, strategies, deals, args.seed, progress)
        played = args.deals or hands or ARENA_DEALS["swick"]
        return arena.play(names, strategies, played, args.seed, progress)

    return _shown(args, arena, play)


def _duplicate_arena(
    args: argparse.Namespace, names: tuple[str, ...], strategies: list[Any]
) -> int:
    from services.bots import duplicate

    return _shown(
        args,
        duplicate,
        lambda progress: duplicate.play(
            args.game,
            names,
            strategies,
            args.deals or ARENA_DEALS[args.game],
            args.seed,
            target=args.target if args.game == "euchre" else None,
            rounds=args.rounds if args.game == "contract-whist" else None,
            progress=progress,
        ),
    )


def _whist_arena(args: argparse.Namespace, seats: tuple[str, ...]) -> int:
    from services.bots.contract_whist import arena
    from services.bots.contract_whist.search import WORLDS

    return _shown(
        args,
        arena,
        lambda progress: arena.play(
            seats,
            len(seats),
            args.deals or ARENA_DEALS["contract-whist"],
            args.seed,
            rounds=args.rounds,
            hard_worlds=WORLDS if args.worlds is None else args.worlds,
            progress=progress,
        ),
    )


def _euchre_arena(args: argparse.Namespace, seats: tuple[str, ...]) -> int:
    from services.bots.budget import EUCHRE_WORLDS
    from services.bots.euchre import arena

    return _shown(
        args,
        arena,
        lambda progress: arena.play(
            (seats[0], seats[1]),
            args.deals or ARENA_DEALS["euchre"],
            args.seed,
            target=args.target,
            hard_worlds=EUCHRE_WORLDS if args.worlds is None else args.worlds,
            progress=progress,
        ),
    )


def _load_options(args: argparse.Namespace) -> LoadOptions:
    from services.load.loadtest import LoadOptions
    from shared.settings import Settings

    settings = Settings.from_env()
    return LoadOptions(
        tables=args.tables,
        seconds=args.seconds,
        seats=args.seats,
        game=args.game,
        workers=args.workers,
        max_pace=getattr(args, "max_pace", False),
        seed=args.seed,
        amqp_url=settings.amqp_url,
        database_url=settings.database_url,
        logs=Path(args.logs) if args.logs else None,
    )


def _loadtest(args: argparse.Namespace) -> int:
    import uvloop

    from services.load import loadtest
    from services.progress import progress_bars, showing

    with progress_bars(showing(args.json)) as progress:
        figures = uvloop.run(loadtest.run(_load_options(args), progress=progress))
    print(json.dumps(figures.as_dict()) if args.json else loadtest.describe(figures))
    return 0 if figures.audit["ok"] and not figures.errors and not figures.stalled else 1


def _chaos(args: argparse.Namespace) -> int:
    import uvloop

    from services.load import chaos
    from services.progress import progress_bars, showing

    with progress_bars(showing(args.json)) as progress:
        report = uvloop.run(
            chaos.run(
                _load_options(args),
                every=args.every,
                broker_restart=args.broker_restart,
                progress=progress,
            )
        )
    print(json.dumps(report.as_dict()) if args.json else chaos.describe(report))
    return 0 if report.ok else 1


def _up(args: argparse.Namespace) -> int:
    from shared.startup import exit_code

    return exit_code("swick up", lambda: _run_up(args))


def _run_up(args: argparse.Namespace) -> int:
    from services.serve import refuse_public_defaults, until_stopped
    from services.up import services_reachable, up
    from shared.observability import configure_logging
    from shared.settings import Settings

    settings = Settings.from_env()
    refuse_public_defaults("gateway", settings, args.host)
    if args.embedded or not services_reachable(settings):
        from services.embedded import check_port, run_embedded

        check_port(args.host, args.port)
        configure_logging()
        print(
            "Running EMBEDDED: no RabbitMQ or PostgreSQL was reachable (or --embedded was given),\n"
            "so every service runs in this one process over an in-process bus, keeping tables\n"
            f"and chips in {args.data}/. One machine only: no horizontal scaling, and no\n"
            "failover. Start RabbitMQ and PostgreSQL (or name them with SWICK_AMQP_URL and\n"
            "SWICK_DATABASE_URL) to run the services as separate processes.\n"
            f"Open http://localhost:{args.port}/",
            flush=True,
        )
        embedded = run_embedded(
            settings,
            host=args.host,
            port=args.port,
            data=Path(args.data),
            internal_port=args.internal_port,
        )
        asyncio.run(until_stopped(embedded))
        return 0
    running = up(
        settings,
        tables=args.tables,
        host=args.host,
        port=args.port,
        internal_port=args.internal_port,
    )
    asyncio.run(until_stopped(running))
    return 0


class _Parser(argparse.ArgumentParser):
    """Every command's and subcommand's ``--help`` shows the defaults (subcommands are made
    with their parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.ArgumentDefaultsHelpFormatter)
        super().__init__(*args, **kwargs)


def _version() -> str:
    try:
        return version("swick-online")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    from services.bots.budget import EUCHRE_WORLDS, HARD_CAP_MS, HARD_WORLDS

    root = _Parser(prog="swick", description=__doc__)
    root.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = root.add_subparsers(dest="command", required=True)

    up = commands.add_parser("up", help="start the whole system")
    up.add_argument("--tables", type=int, default=2, help="table worker processes")
    up.add_argument("--host", default="127.0.0.1", help="the gateway's address")
    up.add_argument("--port", type=int, default=8000, help="the gateway's port")
    up.add_argument(
        "--internal-port",
        type=int,
        default=9102,
        help="metrics and API docs, on 127.0.0.1 (the gateway's; the ledger's is the next one)",
    )
    up.add_argument(
        "--embedded",
        action="store_true",
        help="one process, in-process bus and an SQLite file, even if services run",
    )
    up.add_argument("--data", default=".swick", help="embedded mode: where the database file goes")
    up.set_defaults(run=_up)

    serve = commands.add_parser("serve", help="run one service in this process")
    serve.add_argument("service", choices=["gateway", "table", "ledger", "bots"])
    serve.add_argument("--host", default="127.0.0.1", help="HTTP services: address to listen on")
    serve.add_argument(
        "--port",
        type=int,
        help="HTTP port: the API (gateway 8000, ledger 8001) or the probes (table 9100, bots 9101)",
    )
    serve.add_argument(
        "--internal-port",
        type=int,
        help="gateway, ledger: the operators' port, /metrics and /docs (9102, 9103)",
    )
    serve.add_argument(
        "--internal-host", help="gateway, ledger: its address (default: the --host one)"
    )
    serve.add_argument(
        "--only",
        metavar="NAME[,NAME]",
        help="bots: serve only these built-in bots (easy, medium, hard); all by default",
    )
    serve.set_defaults(run=_serve)

    bench = commands.add_parser("bench", help="benchmarks that print figures")
    targets = bench.add_subparsers(dest="target", required=True)
    engine = targets.add_parser("engine", help="random legal hands through the pure engine")
    engine.add_argument("--hands", type=int, default=20_000, help="hands per seat count")
    engine.add_argument("--seed", type=int, default=1, help="seed of the random choices")
    engine.add_argument(
        "--game",
        choices=("swick", "euchre", "contract-whist"),  # services.benchmarks.engine.HAND_ENDS
        default="swick",
        help="the game: Swick at 3 and 6 seats (the default), or another at its default seats",
    )
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(run=_bench_engine)
    ledger = targets.add_parser(
        "ledger", help="concurrent tables posting hands through the ledger (PostgreSQL)"
    )
    ledger.add_argument("--seconds", type=float, default=10, help="how long to keep posting")
    ledger.add_argument("--tables", type=int, default=32, help="concurrent table loops")
    ledger.add_argument("--json", action="store_true", help="print one JSON object")
    ledger.set_defaults(run=_bench_ledger)
    bench_replays = targets.add_parser(
        "replays",
        help="other sockets' ping on a gateway while one client loops over replays (PostgreSQL)",
    )
    bench_replays.add_argument("--seconds", type=float, default=8, help="how long each mode runs")
    bench_replays.add_argument("--games", type=int, default=80, help="tables whose replay is asked")
    bench_replays.add_argument("--per-table", type=int, default=2, help="games logged per table")
    bench_replays.add_argument("--sockets", type=int, default=20, help="sockets that ping")
    bench_replays.add_argument("--json", action="store_true", help="print one JSON object")
    bench_replays.set_defaults(run=_bench_replays)

    definitions_help = "load this definitions file (deploy/rabbitmq/definitions.json)"
    migrate = commands.add_parser(
        "migrate", help="migrate the databases, set up the broker's users and topology"
    )
    migrate.add_argument("--definitions", help=definitions_help)
    migrate.set_defaults(run=_migrate)

    broker = commands.add_parser("broker", help="the broker's users, permissions and topology")
    broker_commands = broker.add_subparsers(dest="action", required=True)
    setup = broker_commands.add_parser(
        "setup",
        help="create the service users (passwords from SWICK_AMQP_URL_<ROLE>), their"
        " permissions and the topology; register the built-in bots",
    )
    setup.add_argument("--definitions", help=definitions_help)
    setup.set_defaults(run=_broker_setup)
    printed = broker_commands.add_parser(
        "definitions", help="print the broker definitions of a namespace, without passwords"
    )
    printed.add_argument("--namespace", default="swick", help="prefix of every queue and exchange")
    printed.add_argument("--shards", type=int, default=32, help="how many shard queues")
    printed.add_argument("--vhost", default="/", help="the broker's virtual host")
    printed.set_defaults(run=_broker_definitions)

    bots = commands.add_parser(
        "bots", help="run a bots service for a strategy of your own; register a bot account"
    )
    bots.add_argument("--strategy", help="package.module:Class")
    bots.add_argument("--name", help="the bot name tables seat it by (a registered one)")
    bots.add_argument("--think-ms", type=int, default=900, help="pause at tables with people")
    bots.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address the port listens on (0.0.0.0 in a container, for its probes)",
    )
    bots.add_argument(
        "--port",
        type=int,
        default=9110,  # swick_sdk.DEFAULT_PORT: not the built-in bots' 9101
        help="the port answering /healthz, /readyz and /metrics (9110; 0 for any free one)",
    )
    bots.set_defaults(run=_bots)
    bot_accounts = bots.add_subparsers(dest="action")
    register = bot_accounts.add_parser(
        "register", help="create a bot account: its name, owner and broker credentials"
    )
    register.add_argument("bot", help="the bot name: 1 to 24 of a-z, 0-9, - and _")
    register.add_argument("--owner", required=True, help="who runs it (a person or a team)")
    register.set_defaults(run=_bots_register)
    check = bot_accounts.add_parser(
        "check",
        help="a strategy answers random positions of a game at each of its table sizes:"
        " reports illegal, failing and slow answers (exit 1 if any)",
    )
    check.add_argument("--strategy", required=True, help="package.module:Class")
    check.add_argument(
        "--game", choices=("swick", "euchre", "contract-whist"), default="swick", help="the game"
    )
    check.add_argument(
        "--players", type=int, help="check at this table size only (by default each the game has)"
    )
    check.add_argument("--positions", type=int, default=2000, help="positions to answer")
    check.add_argument("--seed", type=int, default=1, help="seed of the games and the strategy")
    check.add_argument(
        "--slow-ms", type=float, default=1000.0, help="an answer slower than this is reported"
    )
    check.set_defaults(run=_bots_check)
    new = bot_accounts.add_parser(
        "new", help="write a bot package of your own (NAME/) to build on, outside this repository"
    )
    new.add_argument("package", help="its name: 1 to 24 of a-z, 0-9 and _")
    new.add_argument(
        "--game",
        choices=("swick", "euchre", "contract-whist"),
        default="swick",
        help="the game the bot plays",
    )
    new.add_argument("--dir", default=".", help="where to write it")
    new.set_defaults(run=_bots_new)

    arena = commands.add_parser("arena", help="strategies play each other in-process")
    arena.add_argument(
        "--game", choices=("swick", "euchre", "contract-whist"), default="swick", help="the game"
    )
    arena.add_argument(
        "--seats",
        help="the strategy at each seat, comma-separated: easy, medium, hard or"
        " package.module:Class, repeated round the table to fill it (Swick: 3 to 6 seats,"
        f" {ARENA_SEATS['swick']} by default; Euchre: 4, {ARENA_SEATS['euchre']} the two"
        " partnerships by default; Contract Whist: 2 to 5, 4 unless more are named,"
        f" {ARENA_SEATS['contract-whist']} by default)",
    )
    arena.add_argument(
        "--players", type=int, help="the table's seats, the --seats repeated round it to fill them"
    )
    arena.add_argument(
        "--deals",
        "--games",
        type=int,
        dest="deals",
        help="deals to play: a Swick hand, a Euchre or Contract Whist game (every hand of it"
        f" dealt from one seed); with --duplicate each at every seating (Swick"
        f" {ARENA_DEALS['swick']:,} hands by default, the others {ARENA_DEALS['euchre']})",
    )
    arena.add_argument(
        "--hands",
        type=int,
        help="Swick: hands to play in all (with --duplicate, --hands / seats deals)",
    )
    arena.add_argument(
        "--worlds",
        "--hard-worlds",
        "--euchre-worlds",
        "--whist-worlds",
        type=int,
        dest="worlds",
        help="worlds a hard bot samples per decision (the live bots' budget by default:"
        f" Swick {HARD_WORLDS}, Euchre {EUCHRE_WORLDS})",
    )
    arena.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once at every seating (the strategies moved round the seats), so"
        " the luck of the cards cancels out; the intervals are over deals",
    )
    arena.add_argument("--target", type=int, default=10, help="points a game is played to (Euchre)")
    arena.add_argument(
        "--rounds", type=int, default=17, help="rounds a game plays, 1 to 17 (Contract Whist)"
    )
    arena.add_argument(
        "--seed", type=int, default=1, help="seed of the deals and of every strategy's choices"
    )
    arena.add_argument(
        "--hard-cap-ms",
        type=float,
        default=0,
        help="Swick: a wall-clock cap on a hard bot's decision, 0 for none; a capped run is"
        " reported and is not reproducible",
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.set_defaults(run=_arena)

    bench_bots = targets.add_parser("bots", help="the hard bot's time per decision")
    bench_bots.add_argument("--hands", type=int, default=40, help="hands to play")
    bench_bots.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    bench_bots.add_argument(
        "--seats", type=int, choices=range(3, 7), default=3, help="seats (the others medium)"
    )
    bench_bots.add_argument(
        "--worlds", type=int, default=HARD_WORLDS, help="worlds sampled per decision"
    )
    bench_bots.add_argument(
        "--cap-ms",
        type=float,
        default=HARD_CAP_MS,
        help="the wall-clock cap on a decision, as at live tables; 0 for none",
    )
    bench_bots.add_argument("--json", action="store_true", help="print one JSON object")
    bench_bots.set_defaults(run=_bench_bots)
    bench_floor = targets.add_parser(
        "floor", help="the command path's hops with no work in them (socket, broker, commit)"
    )
    bench_floor.add_argument("--samples", type=int, default=300, help="samples of each hop")
    bench_floor.add_argument("--json", action="store_true", help="print one JSON object")
    bench_floor.set_defaults(run=_bench_floor)
    bench_flood = targets.add_parser(
        "flood",
        help="a person's action -> own view latency while a registered bot floods"
        " (RabbitMQ, PostgreSQL)",
    )
    bench_flood.add_argument("--actions", type=int, default=200, help="the person's actions")
    bench_flood.add_argument("--flood", type=int, default=50_000, help="forged acts the bot sends")
    bench_flood.add_argument("--workers", type=int, default=2, help="table workers")
    bench_flood.add_argument("--json", action="store_true", help="print one JSON object")
    bench_flood.set_defaults(run=_bench_flood)

    loadtest = commands.add_parser(
        "loadtest", help="simulated people at real tables through the whole system, with figures"
    )
    loadtest.add_argument(
        "--max-pace",
        action="store_true",
        help="act the moment a turn comes (default: 0.5-1.5 s later, like people)",
    )
    _load_arguments(loadtest, tables=200, seconds=60)
    loadtest.set_defaults(run=_loadtest)

    chaos = commands.add_parser(
        "chaos",
        help="the load test while workers and bots services are killed, the ledger restarted,"
        " the gateway's broker connection and the services' database connections cut, a poison"
        " posting sent and faulty bots play; then checks that nothing was lost",
    )
    _load_arguments(chaos, tables=60, seconds=120)
    chaos.add_argument(
        "--every", type=float, default=6.0, help="seconds between faults, on average"
    )
    chaos.add_argument(
        "--broker-restart",
        action="store_true",
        help="restart the machine's RabbitMQ too (rabbitmqctl stop_app/start_app): anything else"
        " using it is cut off as well",
    )
    chaos.set_defaults(run=_chaos)

    verify = commands.add_parser("verify", help="re-deal a finished game from its revealed seed")
    verify.add_argument("record", help="the game record (JSON)")
    verify.set_defaults(run=_verify)
    return root


def _load_arguments(command: argparse.ArgumentParser, *, tables: int, seconds: float) -> None:
    command.add_argument("--tables", type=int, default=tables, help="tables played at once")
    command.add_argument("--seconds", type=float, default=seconds, help="how long they play")
    command.add_argument(
        "--seats",
        type=int,
        default=4,
        help="seats per table: Swick 3-6, Contract Whist 2-5, Euchre 4 (else the game's default)",
    )
    command.add_argument(
        "--game",
        choices=("swick", "euchre", "contract-whist", "mix"),  # services.load.games.CHOICES
        default="mix",
        help="the game every table plays, or a mix: the tables spread over the three",
    )
    command.add_argument("--workers", type=int, default=2, help="table worker processes")
    command.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    command.add_argument("--logs", help="where the services' logs go (default: a temp folder)")
    command.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
