"""The ``swick`` command: run services, benchmarks and the fairness verifier."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def _bench_engine(args: argparse.Namespace) -> int:
    from services.benchmarks import engine

    figures = [engine.run(seats, args.hands, args.seed) for seats in (3, 6)]
    if args.json:
        print(json.dumps(engine.report(figures)))
    else:
        for f in figures:
            print(engine.describe(f))
    return 0


def _bench_ledger(args: argparse.Namespace) -> int:
    import asyncio

    from services.benchmarks import ledger

    figures = asyncio.run(ledger.run(args.seconds, args.tables))
    if args.json:
        print(json.dumps(ledger.report(figures)))
    else:
        print(ledger.describe(figures))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from shared.games.swick.record import load_record, verify

    try:
        record = load_record(json.loads(Path(args.record).read_text()))
    except (OSError, ValueError) as error:
        print(f"swick verify: cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    verdict = verify(record)
    if verdict.ok:
        print(
            f"VERIFIED: all {verdict.hands} hands were dealt by the revealed seed "
            f"(fingerprint {record.fingerprint})."
        )
        return 0
    print(f"MISMATCH after {verdict.hands} good hands: {verdict.mismatch}")
    return 1


def _serve(args: argparse.Namespace) -> int:
    from services.serve import serve

    port = args.port or (8001 if args.service == "ledger" else 8000)
    return serve(args.service, host=args.host, port=port)


def _up(args: argparse.Namespace) -> int:
    print(
        "Swick Online: the engine is built (try `swick bench engine`); the services "
        "(gateway, tables, bots, ledger) are not there yet."
    )
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="swick", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)

    up = commands.add_parser("up", help="start the whole system")
    up.set_defaults(run=_up)

    serve = commands.add_parser("serve", help="run one service in this process")
    serve.add_argument("service", choices=["gateway", "table", "ledger"])
    serve.add_argument("--host", default="127.0.0.1", help="HTTP services: address to listen on")
    serve.add_argument("--port", type=int, help="HTTP services: port (gateway 8000, ledger 8001)")
    serve.set_defaults(run=_serve)

    bench = commands.add_parser("bench", help="benchmarks that print figures")
    targets = bench.add_subparsers(dest="target", required=True)
    engine = targets.add_parser("engine", help="random legal hands through the pure engine")
    engine.add_argument("--hands", type=int, default=20_000, help="hands per seat count")
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(run=_bench_engine)
    ledger = targets.add_parser(
        "ledger", help="concurrent tables posting hands through the ledger (PostgreSQL)"
    )
    ledger.add_argument("--seconds", type=float, default=10, help="how long to keep posting")
    ledger.add_argument("--tables", type=int, default=32, help="concurrent table loops")
    ledger.add_argument("--json", action="store_true", help="print one JSON object")
    ledger.set_defaults(run=_bench_ledger)

    verify = commands.add_parser("verify", help="re-deal a finished game from its revealed seed")
    verify.add_argument("record", help="the game record (JSON)")
    verify.set_defaults(run=_verify)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
