"""The hard bot's sampled worlds agree with everything its seat knows for certain.

Over random games at 3 to 6 seats: what the rules let a seat infer is true of the real table
(a player who did not follow holds none of the led suit, one who followed low holds nothing
higher, trick 1's leader who did not lead the Ace of trump lacks it; the seat's discards are in
no other hand unless a later draw recycled the pile), and no sampled world ever gives a player
a card the seat knows it cannot hold, or one the seat has seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from services.bots import heuristics
from services.bots.knowledge import from_view
from services.bots.search import _plausible, discards_recycled, forbidden, sample_world
from shared.games.swick import actions as ac
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase, State
from shared.games.swick.views import SwickView, view_for
from tests.bots.turns import started_swick
from tests.engine.support import Table

SEARCHED = (Phase.KNOCK, Phase.DRAW, Phase.DEALER_KNOCK, Phase.DEALER_DRAW, Phase.TRICKS)


def audit(state: State, seat: int, rng: random.Random, worlds: int = 4) -> None:
    view = view_for(state, seat)
    banned = forbidden(view)
    recycled = discards_recycled(view)
    mine = set(view.discarded)
    played = {card for trick in (*view.played, view.trick) for _, card in trick}
    seen = {c for c in view.hand if c is not None} | played
    if view.trump_card is not None:
        seen.add(view.trump_card)
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        # What the seat infers is true of the real table.
        assert not banned[other].intersection(hand), (other, hand, banned[other])
        if not recycled:
            assert not mine.intersection(hand)
    for _ in range(worlds):
        world = sample_world(view, rng)
        for other, hand in enumerate(world.hands):
            if other == seat:
                continue
            assert not banned[other].intersection(hand)
            assert not (seen - {view.trump_card}).intersection(hand)
            if not recycled:
                assert not mine.intersection(hand)
        assert world.discarded[seat] == view.discarded
        assert view_for(world, seat).hand == view.hand


@settings(max_examples=60, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2**32), decisions=st.integers(20, 200))
def test_sampled_worlds_never_hold_a_card_the_seat_knows_is_not_there(
    seats: int, seed: int, decisions: int
) -> None:
    rng = random.Random(seed)
    t = started_swick(seats)
    for _ in range(decisions):
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        if t.state.phase in SEARCHED:
            audit(t.state, seat, rng)
        # Mostly sound play (so hands reach the tricks, knocked in and drawn), some random.
        if rng.random() < 0.7:
            action = heuristics.choose(from_view(view_for(t.state, seat)), legal)
        else:
            action = rng.choice(legal)
        t.act(seat, action)


def test_the_inferences_hold_when_the_discards_are_recycled() -> None:
    # Many hands at 6 seats, where the stock runs out and the discards are recycled.
    rng = random.Random(11)
    t = Table(6, stack=10**9)
    t.start()
    recycled = 0
    while t.state.hand_no < 40 and to_act(t.state):
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        if t.state.phase in SEARCHED:
            audit(t.state, seat, rng, worlds=1)
            recycled += discards_recycled(view_for(t.state, seat))
        draws = [a for a in legal if isinstance(a, ac.Draw)]
        if ac.Knock(knock=True) in legal:  # everyone in, drawing all they may: the stock runs out
            action: ac.Action = ac.Knock(knock=True)
        elif draws:
            action = max(draws, key=lambda a: len(a.discards))
        else:
            action = heuristics.choose(from_view(view_for(t.state, seat)), legal)
        t.act(seat, action)
    assert recycled > 0


def test_the_stock_is_dealt_at_random_too() -> None:
    t = Table(3, stack=10**6)
    t.start()
    while t.state.phase is not Phase.KNOCK:
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        t.act(seat, heuristics.choose(from_view(view_for(t.state, seat)), legal))
    view = view_for(t.state, to_act(t.state)[0])
    rng = random.Random(3)
    stocks = [sample_world(view, rng).stock for _ in range(40)]
    assert len({stock[0] for stock in stocks}) > 5  # not the lowest unseen cards every time
    assert len(set(stocks)) == len(stocks)


def medium_positions(seats: int, hands: int) -> Iterator[tuple[State, int, SwickView]]:
    """Each position of a table where everyone plays the medium rules, for ``hands`` hands:
    the state, the seat to act and its view (the seat then acts by the rules)."""
    t = Table(seats, stack=10**9)
    t.start()
    while t.state.hand_no < hands and to_act(t.state):
        seat = to_act(t.state)[0]
        view = view_for(t.state, seat)
        yield t.state, seat, view
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        t.act(seat, heuristics.choose(from_view(view), legal))


def fitting_at_trick_one(
    seats: int, hands: int, seed: int, counted: Callable[[SwickView, int], bool]
) -> tuple[int, int]:
    """Over 5 worlds at the start of each hand's tricks: how many hands of ``counted`` players
    were checked, and how many fit what they did."""
    rng = random.Random(seed)
    checked = fitting = 0
    for _, seat, view in medium_positions(seats, hands):
        if view.phase is Phase.TRICKS and not view.played and not view.trick:
            likely = _plausible(view)
            others = [p for p in range(seats) if p != seat and counted(view, p)]
            for _ in range(5):
                world = sample_world(view, rng)
                for p in others:
                    checked += 1
                    fitting += likely(p, world.hands[p])
    return checked, fitting


def test_a_player_who_knocked_in_is_dealt_a_hand_worth_knocking_with() -> None:
    """Not a certainty (the sampler gives it up when no deal it tries fits), but the rule:
    in most worlds a knocked-in player holds what they kept worth a knock."""
    checked, fitting = fitting_at_trick_one(
        3, 60, 5, lambda view, p: p != view.dealer and view.seats[p].status == "in"
    )
    assert checked > 20 and fitting >= 0.9 * checked


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_the_model_of_play_never_rules_out_the_true_hand_of_a_player_playing_by_it(
    seats: int, seed: int
) -> None:
    """The likelihood assumes players play by the medium rules: when they do, the hand each
    really holds always fits what they did."""
    checked = 0
    for state, seat, view in medium_positions(seats, 12):
        if view.phase in SEARCHED:
            likely = _plausible(view)
            for other, hand in enumerate(state.hands):
                if other != seat and view.seats[other].status in ("in", "passed"):
                    checked += 1
                    assert likely(other, hand), (other, hand, view.seats[other])
    assert checked > 0


def test_at_five_seats_the_hands_of_players_who_knocked_or_passed_fit_in_most_worlds() -> None:
    """Hands are fitted one player at a time, so several players' likelihoods rarely add up
    to deals that never fit (and are then given up)."""
    checked, fitting = fitting_at_trick_one(
        5, 40, 8, lambda view, p: view.seats[p].status in ("in", "passed")
    )
    assert checked > 50 and fitting >= 0.9 * checked
