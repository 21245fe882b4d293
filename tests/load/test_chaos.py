"""A short chaos run through the real services, forcing every kind of fault at least once:
a table worker killed, the ledger restarted, the gateway's broker connection cut, the ledger's
and the workers' database connections terminated, a poison posting sent, a bots service killed,
and bots whose strategy raises or answers illegally at some tables; the tables spread over
every game, staked ones among them. Only what must hold under any fault is asserted, for the
run and for each game (nothing lost or applied twice, no table stalled, no service died on its
own, exactly the poison postings set aside, the books agree), never timings."""

from __future__ import annotations

from pathlib import Path

from services.load import chaos
from services.load.loadtest import LoadOptions
from shared.games.registry import GAMES

TABLES = 6  # two of each game: one of each game with a stake played for it
SEATS = 4


async def test_faults_lose_nothing(service_urls: tuple[str, str], tmp_path: Path) -> None:
    amqp, database = service_urls
    options = LoadOptions(
        tables=TABLES,
        seats=SEATS,
        seconds=45,
        warmup=2,
        seed=7,
        game="mix",
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
    assert report.people == people, summary
    assert report.wallets == people and not report.wallets_differing, summary
    assert report.poison_postings >= 1 and report.set_aside == report.poison_postings, summary
    assert report.conflicts == 0, summary
    assert not report.exited, summary
    assert not report.problems, summary
    assert set(report.games) == set(GAMES), summary
    for name, share in report.games.items():
        checked = share["audit"]
        assert share["tables"] == TABLES // len(GAMES), (name, summary)
        assert share["for_money"] >= 1 and share["commands"] > 0, (name, summary)
        assert checked["actions_lost"] == 0 and checked["actions_applied_twice"] == 0, name
        assert not checked["gaps"] and not share["stalled"], (name, summary)
        assert checked["tables_reconciled"] == share["tables"], (name, summary)
        assert checked["postings"] > 0, (name, summary)  # money moved, and was reconciled
        assert checked["wallets_checked"] == share["people"] > 0, (name, summary)
        assert not checked["wallets_differing"], (name, summary)
        assert share["ok"], (name, summary)
    assert report.ok, summary
