"""A short load run through the real services, its tables spread over every game: the figures
are printed by ``swick loadtest``; here only what must hold at any speed is asserted, for the
run and for each game (no errors, no stall, nothing lost or applied twice, every table
reconciled with the ledger, every wallet equal to its player's stack at the table)."""

from __future__ import annotations

from services.load.loadtest import LoadOptions, describe, run
from shared.games.registry import GAMES

TABLES = 6  # two of each game: one of each game with a stake played for it
SEATS = 3  # Euchre's tables have four all the same


async def test_a_short_load_run_of_every_game_loses_nothing(
    service_urls: tuple[str, str],
) -> None:
    amqp, database = service_urls
    options = LoadOptions(
        tables=TABLES,
        seconds=6,
        warmup=2,
        seats=SEATS,
        game="mix",
        max_pace=True,
        amqp_url=amqp,
        database_url=database,
    )
    figures = await run(options)
    summary = describe(figures)
    assert figures.commands > 0 and figures.hands > 0, summary
    assert not figures.errors, summary
    assert not figures.stalled, summary
    audit = figures.audit
    assert audit["actions_lost"] == 0 and audit["actions_applied_twice"] == 0, summary
    assert not audit["gaps"] and audit["ledger_ok"], summary
    assert audit["tables_reconciled"] == TABLES and not audit["wallets_differing"], summary
    assert audit["wallets_checked"] == options.people(), summary
    assert audit["ok"], summary

    assert set(figures.games) == set(GAMES), summary
    for name, share in figures.games.items():
        checked = share.audit
        assert share.tables == TABLES // len(GAMES), (name, summary)
        assert share.seats == (4 if name == "euchre" else SEATS), (name, summary)
        assert share.for_money >= 1, (name, summary)
        assert share.commands > 0, (name, summary)
        assert not share.errors and not share.stalled, (name, summary)
        assert checked["actions_lost"] == 0 and checked["actions_applied_twice"] == 0, name
        assert not checked["gaps"] and checked["ledger_ok"], (name, summary)
        assert checked["tables_reconciled"] == share.tables, (name, summary)
        assert checked["postings"] > 0, (name, summary)  # money moved, and was reconciled
        assert checked["wallets_checked"] == share.people > 0, (name, summary)
        assert not checked["wallets_differing"], (name, summary)
        assert checked["ok"], (name, summary)
    assert sum(share.commands for share in figures.games.values()) == figures.commands
    assert sum(share.hands for share in figures.games.values()) == figures.hands
