"""How the hard bot's search weighs its worlds: it leaves the rules of thumb only when its
worlds say surely, gives up on clearly worse actions early, and sets the ante."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from services.benchmarks.engine import seated_table
from services.bots import heuristics
from services.bots.knowledge import from_view
from services.bots.levels import Hard
from services.bots.search import _extremes, _pruned, _surely_better
from shared.games.swick import actions as ac
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase
from shared.games.swick.views import view_for
from tests.bots.turns import started_swick


def test_an_action_is_surely_better_only_when_its_gain_stands_out_of_the_noise() -> None:
    assert _surely_better([3.0, 4.0, 5.0, 4.0], [1.0, 2.0, 3.0, 2.0])  # 2 more in every world
    assert not _surely_better([1.0, 2.0], [1.0, 2.0])  # no gain
    assert not _surely_better([30.0, -20.0, 25.0, -28.0], [0.0, 0.0, 0.0, 0.0])  # a coin toss
    assert not _surely_better([9.0], [0.0])  # one world says nothing of the noise
    assert not _surely_better([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])


def test_the_search_stops_playing_out_what_is_clearly_worse_but_keeps_the_usual_choice() -> None:
    paid = [
        [10.0, 11.0, 9.0, 10.0],  # the leader
        [-5.0, -6.0, -4.0, -5.0],  # clearly worse: dropped
        [9.0, 12.0, 8.0, 11.0],  # too close to tell: kept
        [-9.0, -9.0, -8.0, -9.0],  # clearly worse, but the rules of thumb's own choice
    ]
    assert _pruned([0, 1, 2, 3], paid, keep=3) == [0, 2, 3]


def test_only_the_lowest_and_the_highest_ante_are_weighed() -> None:
    antes = [ac.ChooseAnte(amount) for amount in (3, 6, 9, 12, 15)]
    assert _extremes(antes) == [ac.ChooseAnte(3), ac.ChooseAnte(15)]
    assert _extremes([ac.ChooseAnte(6)]) == [ac.ChooseAnte(6)]


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_with_one_world_the_hard_bot_plays_by_the_rules_of_thumb(seats: int, seed: int) -> None:
    """One world tells nothing of the noise, so the search never overrules the rules (the ante
    aside: its mean alone decides)."""
    t = started_swick(seats)
    hard = Hard(random.Random(seed), worlds=1, cap_ms=None)
    for _ in range(60):
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        view = view_for(t.state, seat)
        usual = heuristics.choose(from_view(view), legal)
        if view.phase is not Phase.ANTE:
            assert hard.choose(view, legal) == usual
        t.act(seat, usual)


def test_a_hard_dealer_sets_a_legal_ante_the_same_for_a_seed_and_raises_it_at_three_seats() -> None:
    chosen = []
    for seed in range(6):
        state = seated_table(3, seed=seed)
        assert state.phase is Phase.ANTE
        seat = to_act(state)[0]
        legal = [o.action for o in legal_actions(state, seat) if o.legal]
        view = view_for(state, seat)
        first = Hard(random.Random(seed), worlds=24, cap_ms=None).choose(view, legal)
        again = Hard(random.Random(seed), worlds=24, cap_ms=None).choose(view, legal)
        assert first == again and first in legal
        assert isinstance(first, ac.ChooseAnte)
        chosen.append(first.amount)
    # Three seats favour the dealer, the more so the higher the stakes (swick arena shows it).
    assert max(chosen) == 15
