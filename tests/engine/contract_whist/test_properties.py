"""Property tests: random legal play through whole games at 2 to 5 seats, checked at every step.

* the 52 cards are each in exactly one place (a hand, a trick, the undealt rest) in every state;
* the bids of a round never total its cards, and the highest (earliest) bidder chooses trump;
* every round scores by the formula, written out again independently in ``checks.py``;
* no view shows a card its seat may not see, and views survive the JSON codec;
* states and events survive the JSON codec, and the events rebuild the state;
* every deal is the documented re-deal from the seed, and the game's record verifies;
* chips are conserved: the transfers of a game net to zero across the wallets and the pot.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist.dealing import deal
from shared.games.contract_whist.legal import default_action
from shared.games.contract_whist.money import split
from shared.games.contract_whist.play import play_reason, play_reasons
from shared.games.contract_whist.record import game_record, verify
from shared.games.contract_whist.state import SCHEDULE, Phase, TableConfig
from tests.engine.checked_table import CheckedTable
from tests.engine.contract_whist.checks import check_event, check_state

MAX_MOVES = 400


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    choices=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 5),
    rounds=st.integers(1, 3),
    stake=st.sampled_from((0, 1, 7, 100)),
)
def test_random_games(seed: bytes, choices: int, seats: int, rounds: int, stake: int) -> None:
    rng = random.Random(choices)
    config = TableConfig(seats=seats, rounds=rounds, stake=stake, timer_ms=None)
    t = CheckedTable(CONTRACT_WHIST, config, check_state, check_event)
    t.start([500] * seats, seed)
    t.play(rng, MAX_MOVES, default_action, defaults=0.2)
    state = t.state
    assert state.phase is Phase.ENDED and state.end_reason == "rounds"
    assert [r.cards for r in state.sheet] == list(SCHEDULE[:rounds])
    top = max(state.scores)
    assert state.winners == tuple(s for s in range(seats) if state.scores[s] == top)
    verdict = verify(game_record(t.events))
    assert verdict.ok and verdict.rounds == rounds
    # Chips: what went into the pot came out of it, and the stacks hold the rest.
    assert t.books.accounts["pot"] == 0
    assert sum(state.stacks) == 500 * seats
    assert sum(state.payouts) == stake * seats


@settings(max_examples=30, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    round_no=st.integers(1, 17),
    seats=st.integers(2, 5),
    bidder=st.integers(0, 4),
)
def test_redeal_is_deterministic(seed: bytes, round_no: int, seats: int, bidder: int) -> None:
    bidder %= seats
    cards = SCHEDULE[round_no - 1]
    first = deal(seed, round_no, bidder, seats, cards)
    assert first == deal(seed, round_no, bidder, seats, cards)
    hands, undealt = first
    assert all(len(hand) == cards for hand in hands) and len(undealt) == 52 - seats * cards
    assert sorted([*(c for h in hands for c in h), *undealt]) == list(range(52))
    # Another first bidder deals the same deck from another seat: each seat's cards rotate.
    rotated, undealt2 = deal(seed, round_no, (bidder + 1) % seats, seats, cards)
    assert undealt2 == undealt
    assert rotated == (hands[-1], *hands[:-1])


@given(
    pot=st.integers(0, 1500),
    seats=st.integers(2, 5),
    first=st.integers(0, 4),
    data=st.data(),
)
def test_the_pot_splits_exactly(pot: int, seats: int, first: int, data: st.DataObject) -> None:
    first %= seats
    winners = data.draw(st.sets(st.integers(0, seats - 1), min_size=1).map(sorted))
    payouts = split(pot, winners, first, seats)
    assert sum(payouts) == pot
    shares = [payouts[seat] for seat in winners]
    assert max(shares) - min(shares) <= 1
    assert all(payouts[seat] == 0 for seat in range(seats) if seat not in winners)
    ordered = sorted(winners, key=lambda seat: (seat - first) % seats)
    assert [payouts[seat] for seat in ordered] == sorted(shares, reverse=True)


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), min_size=2, max_size=14, unique=True), led=st.integers(1, 4)
)
def test_one_cards_reason_is_its_reason_among_the_hands(cards: list[int], led: int) -> None:
    """The check of a card played (``play_reason``) says what the options say of it."""
    trick = [(seat, card) for seat, card in enumerate(cards[:led])][: len(cards) - 1]
    hand = cards[len(trick) :]
    reasons = dict(play_reasons(hand, trick))
    assert {card: play_reason(hand, trick, card) for card in hand} == reasons
    assert {card: play_reason(hand, [], card) for card in hand} == dict.fromkeys(hand, "")
