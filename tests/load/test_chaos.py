"""A short chaos run through the real services, forcing every kind of fault at least once:
a table worker killed, the ledger restarted, the gateway's broker connection cut, the ledger's
and the workers' database connections terminated, a poison posting sent, a bots service killed,
and bots whose strategy raises or answers illegally at some tables. Only what must hold under
any fault is asserted (nothing lost or applied twice, no table stalled, no service died on its
own, exactly the poison postings set aside, the books agree), never timings."""

from __future__ import annotations

from pathlib import Path

from services.load import chaos
from services.load.loadtest import LoadOptions

TABLES = 6
SEATS = 4


async def test_faults_lose_nothing(service_urls: tuple[str, str], tmp_path: Path) -> None:
    amqp, database = service_urls
    options = LoadOptions(
        tables=TABLES,
        seats=SEATS,
        seconds=45,
        warmup=2,
        seed=7,
        amqp_url=amqp,
        database_url=database,
        logs=tmp_path,
    )
    report = await chaos.run(options, every=1.0, calm=10.0, each_kind=True)
    summary = chaos.describe(report)
    assert all(report.faults[kind] >= 1 for kind in chaos.FAULTS), summary
    assert report.connections_cut >= 1, summary
    assert report.database_connections_terminated.get("ledger", 0) >= 1, summary
    assert report.database_connections_terminated.get("table", 0) >= 1, summary
    assert report.commands > 0 and report.hands > 0, summary
    assert report.actions_lost == 0 and report.actions_applied_twice == 0, summary
    assert not report.seq_gaps and not report.tables_stalled, summary
    assert report.ledger_ok, summary
    assert report.tables_reconciled == TABLES and not report.tables_not_reconciled, summary
    people = TABLES * SEATS - sum(report.bot_seats.values())
    assert report.wallets == people and not report.wallets_differing, summary
    assert report.poison_postings >= 1 and report.set_aside == report.poison_postings, summary
    assert report.conflicts == 0, summary
    assert not report.exited, summary
    assert not report.problems, summary
    assert report.ok, summary
