"""A small ``swick bench flood`` through the real services: the latencies are printed by the
command; here only what holds at any speed is asserted (the report's shape, the flood bounded
by the broker and every message of it accounted for)."""

from __future__ import annotations

import json

from services.benchmarks import flood


async def test_a_small_flood_is_bounded_and_every_message_counted(
    service_urls: tuple[str, str],
) -> None:
    amqp, database = service_urls
    figures = await flood.run(amqp, database, actions=5, flood=1_500, workers=1, shards=8)

    for turn in (figures.quiet, figures.flooded):
        assert turn.actions == 5
        assert 0 < turn.p50_ms <= turn.p95_ms <= turn.max_ms
    # Every forged act was either refused by the broker or taken into the bot's bounded queue,
    # and every one taken was relayed (well formed, from the bot's own user), then dropped by
    # the table worker as forbidden (the bot holds no seat), never applied.
    assert figures.taken_by_broker + figures.refused_by_broker == figures.flood == 1_500
    assert figures.relay == {
        "relayed": figures.taken_by_broker,
        "forbidden": 0,
        "malformed": 0,
        "shard_full": 0,
    }
    assert figures.forbidden_at_tables <= figures.relay["relayed"]
    assert figures.bot_queue_depth <= figures.bot_queue_limit
    assert figures.max_shard_depth <= figures.shard_limit
    assert 0 <= figures.actions_during_publishing <= figures.flooded.actions

    report = json.loads(json.dumps(flood.report(figures)))
    assert report["benchmark"] == "flood"
    assert set(report["quiet"]) == {"actions", "p50_ms", "p95_ms", "max_ms", "seconds"}
    assert "flooded" in flood.describe(figures)
