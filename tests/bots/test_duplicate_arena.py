"""The duplicate arena plays every deal once at every seating, with the same cards each time,
and is reproducible for a seed; the ordinary arena's rotation lets every strategy deal, and sit
at every seat, equally often at every table size."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from services.benchmarks.engine import seated_table
from services.bots import arena
from services.bots.levels import Medium
from shared.games.swick import actions as ac
from shared.games.swick.state import Phase
from shared.games.swick.views import SwickView

WORLDS = 4


class Recording(Medium):
    """Medium, noting the seat and the cards of every view it is given."""

    def __init__(self, rng: random.Random, index: int, log: list[tuple[int, int, int]]) -> None:
        super().__init__(rng)
        self.index = index
        self.log = log

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        assert view.seat is not None
        self.log.append((view.phase is Phase.ANTE, view.seat, self.index))
        return super().choose(view, legal)


def test_every_deal_is_played_at_every_seating_with_the_same_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    n, deals = 4, 3
    played: list[tuple[int, tuple[int, ...]]] = []
    dealt: dict[int, set[tuple[tuple[int, ...], ...]]] = {}
    original = arena.play_one_hand

    def spy(strategies: Sequence[object], seating: Sequence[int], seed: int) -> tuple[int, ...]:
        played.append((seed, tuple(seating)))
        table = seated_table(n, seed=seed)
        dealt.setdefault(seed, set()).add(tuple(table.hands))
        return original(strategies, seating, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(arena, "play_one_hand", spy)
    log: list[tuple[int, int, int]] = []
    strategies = [Recording(random.Random(i), i, log) for i in range(n)]
    names = ["a", "b", "c", "d"]
    result = arena.play_duplicate(names, strategies, deals, seed=7)
    assert result.duplicate and result.hands == deals * n
    seeds = list(dict.fromkeys(seed for seed, _ in played))
    assert len(seeds) == deals
    for seed in seeds:
        seatings = [seating for s, seating in played if s == seed]
        assert len(seatings) == n
        # Every strategy held every seat once for this deal.
        for seat in range(n):
            assert sorted(seating[seat] for seating in seatings) == list(range(n))
        assert len(dealt[seed]) == 1  # the same table, so the same cards, every time
    # Each strategy was asked only for the seat the seating gave it.
    assert {(seat, index) for _, seat, index in log} <= {
        (seat, seating[seat]) for _, seating in played for seat in range(n)
    }


def run(seed: int) -> dict[str, object]:
    names = ("hard", "medium", "medium")
    strategies = arena.lineup(names, seed, hard_worlds=WORLDS)
    report = arena.report(arena.play_duplicate(names, strategies, 4, seed))
    for speed in ("seconds", "cpu_seconds", "hands_per_second"):
        del report[speed]
    return report


def test_the_duplicate_arena_is_reproducible_for_a_seed() -> None:
    first = run(3)
    assert first == run(3)
    assert first["duplicate"] is True and first["deals"] == 4 and first["hands"] == 12
    search = first["hard_search"]
    assert isinstance(search, dict)
    assert search["worlds"] == WORLDS * search["decisions"] > 0
    assert search["capped"] == 0


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_strategy_deals_and_sits_everywhere_equally_often(n: int) -> None:
    # The dealer moves one seat a hand (from wherever the first hand's deal falls).
    for first_dealer in range(n):
        deals: Counter[int] = Counter()
        seats: Counter[tuple[int, int]] = Counter()
        for hand_no in range(1, n * n + 1):
            dealer = (first_dealer + hand_no - 1) % n
            deals[arena.sitter(dealer, hand_no, n)] += 1
            for seat in range(n):
                seats[seat, arena.sitter(seat, hand_no, n)] += 1
            assert sorted(arena.sitter(s, hand_no, n) for s in range(n)) == list(range(n))
        assert deals == dict.fromkeys(range(n), n)
        assert set(seats.values()) == {n} and len(seats) == n * n


def test_the_arena_deals_to_every_strategy_at_four_seats() -> None:
    names = ["a", "b", "c", "d"]
    log: list[tuple[int, int, int]] = []
    strategies = [Recording(random.Random(i), i, log) for i in range(4)]
    arena.play(names, strategies, 16, seed=2)
    # The dealer sets the ante: whoever was asked for it dealt that hand.
    dealers = Counter(index for ante, _, index in log if ante)
    assert set(dealers) == set(range(4)), dealers
