"""``swick bench bots`` reports the searched decisions apart, with the worlds they sampled."""

from __future__ import annotations

from services.benchmarks import bots


def test_the_searched_decisions_are_reported_apart_with_their_worlds() -> None:
    figures = bots.run(hands=3, seed=2, worlds=3, cap_ms=None)
    assert 0 < figures.searched <= figures.decisions
    assert figures.capped == 0
    assert figures.worlds_per_search == 3  # no cap: every search had its full budget
    assert figures.searched_p50_ms <= figures.searched_p95_ms
    report = bots.report(figures)
    assert report["worlds_per_search"] == 3
    assert "searched decisions alone" in bots.describe(figures)


def test_the_bench_seats_the_hard_bot_among_medium_bots_at_any_table_size() -> None:
    figures = bots.run(hands=2, seed=3, seats=5, worlds=2, cap_ms=None)
    assert figures.seats == 5 and figures.searched > 0
    assert "at 5 seats" in bots.describe(figures)
