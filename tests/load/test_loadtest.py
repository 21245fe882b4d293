"""A short load run through the real services: the figures are printed by ``swick loadtest``;
here only what must hold at any speed is asserted (no errors, no stall, nothing lost)."""

from __future__ import annotations

from services.load.loadtest import LoadOptions, run


async def test_a_short_load_run_loses_nothing(service_urls: tuple[str, str]) -> None:
    amqp, database = service_urls
    options = LoadOptions(
        tables=4, seconds=6, warmup=2, seats=3, max_pace=True, amqp_url=amqp, database_url=database
    )
    figures = await run(options)
    assert figures.commands > 0 and figures.hands > 0, figures
    assert not figures.errors, figures.errors
    assert not figures.stalled, figures.stalled
    audit = figures.audit
    assert audit["actions_lost"] == 0 and audit["actions_applied_twice"] == 0, audit
    assert not audit["gaps"] and audit["ledger_ok"], audit
    assert audit["tables_reconciled"] == 4 and not audit["wallets_differing"], audit
    assert audit["ok"], audit
