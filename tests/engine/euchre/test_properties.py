"""Property tests: random legal play through whole games, checked at every step.

* the 24 cards are each in exactly one place in every state;
* no view shows a card its seat may not see, and views survive the JSON codec;
* a hand scores only by the table of points, and a game ends exactly when a team reaches the
  target (never before, never after);
* states and events survive the JSON codec, and the events rebuild the state;
* every deal is the documented re-deal from the seed, and the game's record verifies;
* chips are conserved: with a stake, the transfers move exactly what the stacks and the pot
  show, the pot ends empty, and the winning partnership takes it all.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.games.euchre.dealing import deal
from shared.games.euchre.game import EUCHRE
from shared.games.euchre.play import play_reason, play_reasons
from shared.games.euchre.record import game_record, verify
from shared.games.euchre.state import Phase, TableConfig
from tests.engine.checked_table import CheckedTable
from tests.engine.euchre.checks import check_event, check_state

MAX_MOVES = 600


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    choices=st.integers(0, 2**32 - 1),
    target=st.sampled_from((1, 2, 3, 5, 10)),
    stake=st.sampled_from((0, 1, 7, 50, 300)),
)
def test_random_games(seed: bytes, choices: int, target: int, stake: int) -> None:
    rng = random.Random(choices)
    config = TableConfig(target=target, timer_ms=None, private=True, stake=stake)
    t = CheckedTable(EUCHRE, config, check_state, check_event)
    stacks = [stake + rng.randrange(0, 1000) for _ in range(4)]
    t.start(stacks, seed)
    t.play(rng, MAX_MOVES)
    state = t.state
    assert state.phase is Phase.ENDED, "a game to at most 10 points ends within 600 moves"
    assert state.end_reason == "target" and state.winner is not None
    assert state.scores[state.winner] >= target > state.scores[1 - state.winner]
    assert state.pot == 0 and t.books.accounts["pot"] == 0
    won = [t.books.wallet(f"p{seat}") - stacks[seat] for seat in range(4)]
    assert won == [stake if seat % 2 == state.winner else -stake for seat in range(4)]
    verdict = verify(game_record(t.events))
    assert verdict.ok and verdict.hands == state.hand_no


@settings(max_examples=20, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), hand_no=st.integers(1, 2**32 - 1))
def test_redeal_is_deterministic(seed: bytes, hand_no: int) -> None:
    first = deal(seed, hand_no, hand_no % 4)
    assert first == deal(seed, hand_no, hand_no % 4)
    hands, turn_up, kitty = first
    assert sorted([*(c for h in hands for c in h), turn_up, *kitty]) == list(range(24))
    # Another dealer deals the same deck from another seat: each seat's cards rotate.
    rotated, turn_up2, kitty2 = deal(seed, hand_no, (hand_no + 1) % 4)
    assert (turn_up2, kitty2) == (turn_up, kitty)
    assert rotated == (hands[3], hands[0], hands[1], hands[2])


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 23), min_size=2, max_size=9, unique=True),
    led=st.integers(1, 3),
    trump=st.integers(0, 3),
)
def test_one_cards_reason_is_its_reason_among_the_hands(
    cards: list[int], led: int, trump: int
) -> None:
    """The check of a card played (``play_reason``) says what the options say of it."""
    trick = [(seat, card) for seat, card in enumerate(cards[:led])][: len(cards) - 1]
    hand = cards[len(trick) :]
    reasons = dict(play_reasons(hand, trick, trump))
    assert {card: play_reason(hand, trick, trump, card) for card in hand} == reasons
    assert {card: play_reason(hand, [], trump, card) for card in hand} == dict.fromkeys(hand, "")
