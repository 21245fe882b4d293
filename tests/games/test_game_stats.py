"""Each game's statistics (``GameModule.stats``) over whole games of random legal play: they
add up with the game's own results, and the records' results carry them; and what a player's
statistics page derives from their sums."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.gateway.routes_history import stats_out
from shared.games import lifecycle as lc
from shared.games.conformance import OVER, Table
from shared.games.interface import TABLE
from shared.games.records import build_record
from shared.games.registry import game
from shared.tables_read import PlayerResult, PlayerStats

MOST_DECISIONS = 4_000
SWICK_HANDS = 3  # then the host ends the game at the next hand boundary


def played(
    name: str, config: dict[str, object], seed: bytes, picks: list[int]
) -> list[PlayerResult]:
    """Everyone's results of one whole game of ``name``, played by random legal decisions."""
    table = Table(game(name), config, seed)
    table.seat_everyone()
    for step in range(MOST_DECISIONS):
        if table.phase in OVER:
            break
        if name == "swick" and step > SWICK_HANDS * 12:
            table.attempt(table.command(table.host(), lc.EndGame()))
        if not table.decide(picks[step % len(picks)] + step) and not table.wake():
            # Nobody to wait for (a Swick table whose players ran short of chips waits): it
            # closes, sharing any carry, and so ends its game.
            table.attempt(table.command(TABLE, lc.CloseTable(0)))
            if table.phase not in OVER:
                break
    assert table.phase in OVER, table.phase
    events = [data for _, batch in table.batches for data in batch]
    record = build_record("t", events, table.seats, table.games, name, table.config)
    assert record is not None
    assert all(r.stats for r in record.results)  # everyone sat throughout
    return list(record.results)


some = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.binary(min_size=4, max_size=4)
picks = st.lists(st.integers(0, 2**16), min_size=1, max_size=30)


@some
@given(seeds, picks)
def test_euchre_counts_the_hands_each_seat_made_trump_in(seed: bytes, choices: list[int]) -> None:
    results = played("euchre", {"target": 3}, seed, choices)
    hands = {r.stats["hands"] for r in results}
    assert len(hands) == 1 and hands.pop() >= 1
    called = sum(r.stats["made"] + r.stats["euchred"] for r in results)
    assert called == results[0].stats["hands"], "every hand's maker counts it once"
    for r in results:
        s = r.stats
        assert s["loners"] <= s["made"] + s["euchred"] and s["marches"] <= s["made"], s


@some
@given(seeds, picks, st.integers(2, 5))
def test_contract_whist_counts_exact_bids_and_the_points(
    seed: bytes, choices: list[int], seats: int
) -> None:
    results = played("contract-whist", {"seats": seats, "rounds": 3}, seed, choices)
    for r in results:
        assert r.stats["rounds"] == 3 and 0 <= r.stats["exact"] <= 3, r.stats
        assert r.stats["points"] == r.points, "the rounds' points are the final total"


@some
@given(seeds, picks)
def test_swick_counts_knocks_sets_and_the_net_of_each_hand(seed: bytes, choices: list[int]) -> None:
    results = played("swick", {"seats": 3}, seed, choices)
    for r in results:
        s = r.stats
        assert 0 <= s["sets"] <= s["knocks"] <= s["hands"], s
        assert s["net_squares"] >= s["net"] ** 2 / max(s["hands"], 1) - 1e-9, s


@given(st.lists(st.integers(-5_000, 5_000), min_size=2, max_size=40))
def test_swicks_mean_net_a_hand_comes_with_its_interval(nets: list[int]) -> None:
    counts = {"hands": len(nets), "net": sum(nets), "net_squares": sum(n * n for n in nets)}
    out = stats_out(PlayerStats("swick", 3, 1, 0, counts))
    assert out.net_per_hand == pytest.approx(statistics.mean(nets))
    assert out.net_per_hand_interval is not None
    low, high = out.net_per_hand_interval
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets))
    assert low == pytest.approx(statistics.mean(nets) - half, abs=1e-6)
    assert high == pytest.approx(statistics.mean(nets) + half, abs=1e-6)


def test_contract_whist_points_a_round_and_nothing_for_no_games() -> None:
    out = stats_out(PlayerStats("contract-whist", 2, 1, 0, {"rounds": 4, "points": 30}))
    assert out.points_per_round == 7.5 and out.net_per_hand is None
    empty = stats_out(PlayerStats("swick", 0, 0, 0, {}))
    assert empty.net_per_hand is None and empty.net_per_hand_interval is None
