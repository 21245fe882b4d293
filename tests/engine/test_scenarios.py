"""The 32 acceptance scenarios of the Swick rules (§10), one test each.

Seats: D (seat 0) deals the first hand, L is the dealer's left, then M, N, O, P clockwise. Ante 3
and no kept trump unless stated. Deals are rigged where a scenario needs particular cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.games.lifecycle import EndGame, Timeout
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import DECK, Card, code, label, parse
from shared.games.swick.codec import CODEC
from shared.games.swick.legal import default_action, legal_actions, to_act
from shared.games.swick.state import HandResult, Phase, State
from shared.games.swick.views import view_for
from tests.engine.named_cards import card_finder
from tests.engine.support import Table, cards

D, L, M, N, O, P = range(6)  # noqa: E741 (the rules' seat names)
STACK = 10_000


def started(seats: int = 3, stack: int = STACK, **options: Any) -> Table:
    t = Table(seats, stack, **options)
    t.start()
    assert t.state.dealer == D
    return t


def in_tricks(hands: dict[int, str], trump: str, seats: int = 3) -> Table:
    """A table of ``seats`` whose hand is dealt as rigged and has come to the tricks."""
    t = started(seats)
    t.rig(hands, trump=trump)
    t.to_tricks()
    return t


def settled(t: Table) -> HandResult:
    """The result of the hand that just ended."""
    result = t.state.result
    assert result is not None, "the hand has not ended"
    return result


def events_of(t: Table, kind: type[Any]) -> list[Any]:
    return [event for event in t.events if isinstance(event, kind)]


def assert_conserved(result: HandResult) -> None:
    assert sum(result.delta) + result.carry_out - result.carry_in == 0


# 1-2: antes, pots, tricks, stock.


def test_scenario_01_three_players_ante_3() -> None:
    t = started(3)
    t.ready_all(ante=3)
    s = t.state
    assert s.phase is Phase.TRUMP
    assert s.antes == (6, 3, 3)
    assert s.stacks == (STACK - 6, STACK - 3, STACK - 3)
    assert s.pot == 12
    assert len(s.stock) == 22
    assert all(len(hand) == 3 for hand in s.hands)
    assert s.trump_card is not None
    assert sorted([*(c for hand in s.hands for c in hand), s.trump_card, *s.stock]) == list(DECK)

    # A trick is worth 4: one trick each pays 4 to each.
    t = in_tricks({D: "10H 10C AD", L: "AH 8C 8D", M: "9H AC 9D"}, "7S")
    t.play((L, "AH"), (M, "9H"), (D, "10H"))
    t.play((L, "8C"), (M, "AC"), (D, "10C"))
    t.play((M, "9D"), (D, "AD"), (L, "8D"))
    result = settled(t)
    assert result.pot == 12
    assert result.tricks == (1, 1, 1)
    assert result.payouts == (4, 4, 4)
    assert result.antes == (6, 3, 3)
    assert result.delta == (-2, 1, 1)


def test_scenario_02_pot_trick_and_stock_sizes() -> None:
    # 4 players, ante 15: pot 63, a trick is worth 21.
    t = started(4)
    t.rig({L: "AH 7C 7D", M: "8H AC 8D", N: "9H 9C AD", D: "10H 10C 10D"}, trump="7S", ante=15)
    assert t.state.antes == (18, 15, 15, 15)
    assert t.state.pot == 63
    t.to_tricks()
    t.play((L, "AH"), (M, "8H"), (N, "9H"), (D, "10H"))
    t.play((L, "7C"), (M, "AC"), (N, "9C"), (D, "10C"))
    t.play((M, "8D"), (N, "AD"), (D, "10D"), (L, "7D"))
    result = settled(t)
    assert result.pot == 63
    assert result.payouts == (0, 21, 21, 21)

    # 6 players, ante 3: pot 21, a trick is worth 7, stock 13.
    t = started(6)
    t.ready_all(ante=3)
    assert t.state.pot == 21
    assert len(t.state.stock) == 13
    t = started(6)
    hands = {
        L: "AH AC 7D",
        M: "8H 8C AD",
        N: "9H 9C 9D",
        O: "10H 10C 10D",
        P: "JH JC JD",
        D: "QH QC QD",
    }
    t.rig(hands, trump="7S")
    assert t.state.pot == 21
    assert len(t.state.stock) == 13
    t.to_tricks(passes={N, O, P}, dealer_knocks=False)
    t.play((L, "AH"), (M, "8H"), (L, "AC"), (M, "8C"), (L, "7D"), (M, "AD"))
    result = settled(t)
    assert result.pot == 21
    assert result.payouts == (0, 14, 7, 0, 0, 0)
    assert result.delta == (-6, 11, 4, -3, -3, -3)


# 3-4: everyone passes.


def test_scenario_03_non_dealers_pass_dealer_wins_at_once() -> None:
    t = started(3)
    t.ready_all(ante=3)
    t.to_tricks(passes={L, M})
    result = settled(t)
    assert result.ending == "all_passed"
    assert result.payouts == (12, 0, 0)
    assert result.delta == (6, -3, -3)
    assert result.carry_out == 0
    assert t.state.carry == 0
    assert not events_of(t, ev.Drew)
    assert not events_of(t, ev.CardPlayed)


def test_scenario_04_all_pass_with_kept_king_of_trump_is_no_set() -> None:
    t = started(3)
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D 9D"}, trump="KS")
    t.to_tricks(keep=True, passes={L, M})
    result = settled(t)
    assert result.ending == "all_passed"
    assert result.payouts == (12, 0, 0)
    assert result.delta == (6, -3, -3)
    assert result.sets == ("", "", "")
    assert result.carry_out == 0
    assert t.state.carry == 0


# 5-7: going set and the free ride after it.


def play_scenario_5(t: Table) -> HandResult:
    t.rig({D: "9H 9C AD", L: "AH AC 7D", M: "8H 8C 8D"}, trump="7S")
    t.to_tricks()
    t.play((L, "AH"), (M, "8H"), (D, "9H"))
    t.play((L, "AC"), (M, "8C"), (D, "9C"))
    t.play((L, "7D"), (M, "8D"), (D, "AD"))
    return settled(t)


def test_scenario_05_player_without_a_trick_is_set() -> None:
    t = started(3)
    result = play_scenario_5(t)
    assert result.ending == "tricks"
    assert result.tricks == (1, 2, 0)
    assert result.sets == ("", "", "single")
    assert result.penalties == (0, 0, 12)
    assert result.delta == (-2, 5, -15)
    assert result.carry_out == 12
    assert t.state.carry == 12
    assert t.state.stacks == (STACK - 2, STACK + 5, STACK - 15)


def test_scenario_06_free_ride_after_a_set() -> None:
    t = started(3)
    play_scenario_5(t)
    assert t.state.dealer == L
    assert t.state.free_ride
    assert t.state.phase is Phase.READY  # no ante choice
    t.refuse(L, ac.ChooseAnte(3), "wrong_phase")
    t.rig({M: "AH 8C 8D", D: "9H AC 9D", L: "10H 10C AD"}, trump="7S")
    assert t.state.antes == (0, 3, 0)
    assert t.state.pot == 15
    t.to_tricks()
    t.play((M, "AH"), (D, "9H"), (L, "10H"))
    t.play((M, "8C"), (D, "AC"), (L, "10C"))
    t.play((D, "9D"), (L, "AD"), (M, "8D"))
    result = settled(t)
    assert result.pot == 15
    assert result.carry_in == 12
    assert result.payouts == (5, 5, 5)
    assert result.delta == (5, 2, 5)
    assert result.carry_out == 0


def test_scenario_07_two_players_set_carry_adds_up() -> None:
    t = started(4)
    t.rig({L: "AH KH QH", M: "7H 8C 9C", N: "8H 10C JC", D: "9D 10D JD"}, trump="7S")
    assert t.state.pot == 15
    t.to_tricks(keep=False, dealer_knocks=False)
    assert t.state.in_hand() == [L, M, N]
    t.play((L, "AH"), (M, "7H"), (N, "8H"))
    t.play((L, "KH"), (M, "8C"), (N, "10C"))
    t.play((L, "QH"), (M, "9C"), (N, "JC"))
    result = settled(t)
    assert result.tricks == (0, 3, 0, 0)
    assert result.sets == ("", "", "single", "single")
    assert result.penalties == (0, 0, 15, 15)
    assert result.delta == (-6, 12, -18, -18)
    assert result.carry_out == 30
    t.ready_all(ante=None)
    assert t.state.dealer == L
    assert t.state.antes == (0, 3, 0, 0)
    assert t.state.pot == 33


# 8-10: a kept trump commits the dealer.


def test_scenario_08_kept_queen_one_trick_is_set_double() -> None:
    t = started(3)
    t.rig({D: "9H 9C 10C", L: "AH AC 7D", M: "8H 8C 8D"}, trump="QS")
    t.to_tricks(keep=True, fourth="10C", face_play=True)
    assert t.state.face_play
    assert t.state.hands[D] == cards("9H 9C QS")
    t.play((L, "AH"), (M, "8H"), (D, "9H"))
    t.play((L, "AC"), (M, "8C"), (D, "9C"))
    t.play((L, "7D"), (M, "8D"), (D, "QS"))
    result = settled(t)
    assert result.tricks == (1, 2, 0)
    assert result.sets == ("double", "", "single")
    assert result.penalties == (24, 0, 12)
    assert result.payouts == (4, 8, 0)  # the dealer keeps the money of the trick won
    assert result.delta == (-26, 5, -15)
    assert result.carry_out == 36
    assert t.state.carry == 36


def test_scenario_09_kept_queen_two_tricks_not_set() -> None:
    t = started(3)
    t.rig({D: "9H 9C AC", L: "AH 10C JC", M: "8H 8D 9D"}, trump="QS")
    t.to_tricks(keep=True, fourth="9H", face_play=True)
    t.play((L, "AH"), (M, "8H"), (D, "QS"))
    t.play((D, "AC"), (L, "10C"), (M, "8D"))
    t.play((D, "9C"), (L, "JC"), (M, "9D"))
    result = settled(t)
    assert result.tricks == (2, 1, 0)
    assert result.sets == ("", "", "single")
    assert result.penalties == (0, 0, 12)
    assert result.delta == (2, 1, -15)
    assert result.carry_out == 12


def test_scenario_10_kept_low_trump_no_trick_is_set_single() -> None:
    t = started(3)
    t.rig({D: "7H 7C JD", L: "10S AH AC", M: "8H 8C 8D"}, trump="9S")
    t.to_tricks(keep=True, fourth="JD", face_play=None)
    assert t.state.phase is Phase.TRICKS  # no face-trump decision for a low trump
    assert not t.state.face_play
    t.play((L, "10S"), (M, "8D"), (D, "9S"))
    t.play((L, "AH"), (M, "8H"), (D, "7H"))
    t.play((L, "AC"), (M, "8C"), (D, "7C"))
    result = settled(t)
    assert result.tricks == (0, 3, 0)
    assert result.sets[D] == "single"
    assert result.penalties[D] == 12
    assert result.delta[D] == -18


# 11-14: the dealer passes or drops out.


def dealer_set_before_any_trick(t: Table) -> HandResult:
    """At three seats, ante 3: the dealer, committed by a kept trump, is out before a card is
    played and set single; L, the last one standing, takes the pot."""
    result = settled(t)
    assert result.ending == "last_standing"
    assert result.sets == ("single", "", "")
    assert result.penalties == (12, 0, 0)
    assert result.payouts == (0, 12, 0)
    assert result.delta == (-18, 9, -3)
    assert not events_of(t, ev.CardPlayed)
    return result


def test_scenario_11_kept_ten_dealer_passes_is_set_at_once() -> None:
    t = started(3)
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="10S")
    t.to_tricks(keep=True, passes={M}, dealer_knocks=False)
    assert dealer_set_before_any_trick(t).carry_out == 12


def test_scenario_12_left_trump_dealer_passes_loses_only_the_ante() -> None:
    t = started(3)
    t.ready_all(ante=3)
    t.to_tricks(keep=False, passes={M}, dealer_knocks=False)
    result = settled(t)
    assert result.ending == "last_standing"
    assert result.payouts == (0, 12, 0)
    assert result.sets == ("", "", "")
    assert result.delta == (-6, 9, -3)
    assert result.carry_out == 0
    assert t.state.carry == 0


def test_scenario_13_dealer_and_player_sets_are_added() -> None:
    t = started(3)
    t.rig({D: "7D 8D 9D", L: "AH KH QH", M: "7H 8C 9C"}, trump="JS")
    t.to_tricks(keep=True, dealer_knocks=False)
    assert t.state.in_hand() == [L, M]
    t.play((L, "AH"), (M, "7H"), (L, "KH"), (M, "8C"), (L, "QH"), (M, "9C"))
    result = settled(t)
    assert result.tricks == (0, 3, 0)
    assert result.sets == ("single", "", "single")
    assert result.penalties == (12, 0, 12)
    assert result.carry_out == 24
    assert result.delta == (-18, 9, -15)


def test_scenario_14_kept_ace_set_single_leaves_one_player() -> None:
    t = started(3)
    t.rig({D: "7H 8C 9D", L: "7C 8H 9H", M: "7D 8D 10C"}, trump="AS", stock="10H")
    t.to_tricks(keep=True, passes={M}, discards={D: "7H"}, fourth="8C", face_play=False)
    drew = events_of(t, ev.Drew)
    assert [(e.seat, e.discards, e.drawn) for e in drew if e.seat == D] == [
        (D, cards("7H"), cards("10H"))
    ]
    assert ev.PhaseStarted(Phase.FACE_TRUMP, D) in t.events
    dealer_set_before_any_trick(t)


# 15-17: the kept trump card and discards.


def test_scenario_15_low_kept_trump_has_no_face_trump_decision() -> None:
    t = started(3)
    t.rig({D: "7H 8H 9H", L: "AH 8C 9C", M: "7D 8D 9D"}, trump="8S")
    t.to_tricks(keep=True, fourth="7H", face_play=None)
    assert t.state.phase is Phase.TRICKS
    assert all(e.phase is not Phase.FACE_TRUMP for e in events_of(t, ev.PhaseStarted))
    for seat in (D, L, M):
        assert not any(
            isinstance(option.action, ac.FaceTrump) for option in legal_actions(t.state, seat)
        )
    t.refuse(D, ac.FaceTrump(play=False), "no_face_trump")
    t.refuse(D, ac.FaceTrump(play=True), "no_face_trump")


def test_scenario_16_kept_trump_cannot_be_discarded() -> None:
    t = started(3)
    t.rig({D: "8C JD 9H", L: "7C 8H 9C", M: "7D 8D 9D"}, trump="KS", stock="7H 10C")
    t.act(D, ac.DecideTrump(keep=True))
    t.act(L, ac.Knock(True))
    t.act(M, ac.Knock(True))
    t.act(L, ac.Draw(()))
    t.act(M, ac.Draw(()))
    t.act(D, ac.Knock(True))
    assert t.state.phase is Phase.DEALER_DRAW
    t.refuse(D, ac.Draw(cards("KS")), "kept_trump")
    t.refuse(D, ac.Draw(cards("8C KS")), "kept_trump")
    t.act(D, ac.Draw(cards("8C 9H")))
    assert t.phase() is Phase.DEALER_DISCARD
    assert sorted(t.state.hands[D]) == sorted(cards("JD KS 7H 10C"))
    t.refuse(D, ac.DiscardFourth(parse("KS")), "kept_trump")
    t.refuse(D, ac.FaceTrump(play=True), "wrong_phase")
    t.refuse(D, ac.DiscardFourth(parse("9H")), "bad_cards")  # already discarded
    t.act(D, ac.DiscardFourth(parse("7H")))
    assert sorted(t.state.hands[D]) == sorted(cards("JD KS 10C"))
    assert t.phase() is Phase.FACE_TRUMP
    t.refuse(D, ac.DiscardFourth(parse("10C")), "wrong_phase")  # exactly one card


def test_scenario_17_non_dealer_may_discard_a_trump() -> None:
    t = started(3)
    t.rig({D: "8C JD 9H", L: "7S 8H 9C", M: "7D 8D 9D"}, trump="KS", stock="10H")
    t.act(D, ac.DecideTrump(keep=True))
    t.act(L, ac.Knock(True))
    t.act(M, ac.Knock(True))
    t.act(L, ac.Draw(cards("7S")))
    assert sorted(t.state.hands[L]) == sorted(cards("8H 9C 10H"))
    assert t.state.discarded[L] == cards("7S")
    assert t.state.turn == M


# 18-21: special hands.


def test_scenario_18_three_aces_after_the_draw_win_at_once() -> None:
    t = started(3)
    t.rig({D: "7H 8S 9C", L: "AS AH 8C", M: "7C 9H 10S"}, trump="QD", stock="AC")
    t.to_tricks(keep=True, discards={L: "8C"}, fourth="7H", face_play=True)
    result = settled(t)
    assert result.ending == "special"
    assert result.special is not None
    assert result.special.seat == L
    assert result.special.kind == "three_aces"
    assert sorted(result.special.cards) == sorted(cards("AS AH AC"))
    assert result.payouts == (0, 12, 0)
    assert result.sets == ("double", "", "single")
    assert result.penalties == (24, 0, 12)
    assert result.carry_out == 36
    assert result.delta == (-30, 9, -15)
    assert not events_of(t, ev.CardPlayed)


def test_scenario_19_three_aces_beat_three_sevens() -> None:
    t = in_tricks({D: "KH QH 9H", L: "7S 7H 7C", M: "AS AH AC"}, "8D")
    result = settled(t)
    assert result.ending == "special"
    assert result.special is not None
    assert (result.special.seat, result.special.kind) == (M, "three_aces")
    assert result.payouts == (0, 0, 12)
    assert result.sets == ("single", "single", "")
    assert result.delta == (-18, -15, 9)
    assert result.carry_out == 24


def test_scenario_20_dealer_ace_king_queen_of_trump_wins_at_once() -> None:
    t = started(3)
    t.rig({D: "AH QH 7C", L: "8S 9S 10C", M: "7S JS 8C"}, trump="KH")
    t.to_tricks(keep=True, fourth="7C", face_play=True)
    result = settled(t)
    assert result.ending == "special"
    assert result.special is not None
    assert (result.special.seat, result.special.kind) == (D, "ace_king_queen_of_trump")
    assert sorted(result.special.cards) == sorted(cards("AH KH QH"))
    assert result.payouts == (12, 0, 0)
    assert result.sets == ("", "single", "single")
    assert result.delta == (6, -15, -15)
    assert result.carry_out == 24


def test_scenario_21_only_the_final_hand_counts() -> None:
    t = started(3)
    t.rig({D: "KH QH 9H", L: "AS AH AC", M: "8S 9S 10C"}, trump="8D", stock="7D")
    t.to_tricks(discards={L: "AC"})
    assert t.state.phase is Phase.TRICKS
    assert sorted(t.state.hands[L]) == sorted(cards("AS AH 7D"))
    while t.state.phase is Phase.TRICKS:
        seat = to_act(t.state)[0]
        t.act(seat, default_action(t.state, seat))
    result = settled(t)
    assert result.ending == "tricks"
    assert result.special is None
    assert sum(result.tricks) == 3


# 22-26: playing to tricks.


def test_scenario_22_ace_of_trump_must_lead_trick_one() -> None:
    t = in_tricks({D: "KH QH 9H", L: "AD 9C 8H", M: "8S 9S 10C"}, "7D")
    assert to_act(t.state) == (L,)
    t.must_play(L, "AD", "9C", "8H")
    t.play((L, "AD"))
    assert t.state.trick == ((L, parse("AD")),)


@pytest.mark.parametrize(
    ("hands", "trump", "lead", "follows", "winner"),
    [
        pytest.param(
            {D: "10S QS 9H", L: "9S 7H 7C", M: "JS 8S 8H"},
            "7D",
            "9S",
            [(M, "JS", "JS", "8S"), (D, "QS", "QS", "10S")],
            D,
            id="23_must_play_higher_of_the_led_suit",
        ),
        pytest.param(
            {D: "10S 8S 10H", L: "9S 8H 8C", M: "7D 9H 9C"},
            "KD",
            "9S",
            [(M, "7D", "7D", "9H"), (D, "10S", "10S", "8S")],  # M is void in ♠: must trump
            M,
            id="24_must_beat_the_led_suit_even_when_trumped",
        ),
        pytest.param(
            {D: "7D KC 8H", L: "9S 7H 7C", M: "8D QD AC"},
            "KD",
            "9S",
            [(M, "QD", "8D QD", "AC"), (D, "7D", "7D", "KC 8H")],
            M,
            id="25_void_must_trump_but_need_not_overtrump",
        ),
    ],
)
def test_scenarios_23_to_25_who_must_play_what(
    hands: dict[int, str],
    trump: str,
    lead: str,
    follows: list[tuple[int, str, str, str]],
    winner: int,
) -> None:
    """L leads; each of ``follows`` is a seat, the card it plays, the cards it may play and
    some it may not. ``winner`` takes the trick and leads the next."""
    t = in_tricks(hands, trump)
    t.play((L, lead))
    for seat, card, legal, refused in follows:
        t.must_play(seat, legal, *refused.split())
        t.play((seat, card))
    assert t.state.tricks_won == tuple(int(seat == winner) for seat in range(3))
    assert to_act(t.state) == (winner,)


def played_in_turn(t: Table, *cards: str) -> list[int]:
    """Each seat to act plays the next of ``cards``: the seats, in the order they played."""
    order = []
    for card in cards:
        seat = to_act(t.state)[0]
        order.append(seat)
        t.play((seat, card))
    return order


def test_scenario_26_trick_order_skips_a_passed_player() -> None:
    t = started(4)
    t.rig({L: "8S 9H 9C", M: "8H 8C 8D", N: "AS 10H 10C", D: "9S JH JC"}, trump="7D")
    t.to_tricks(passes={M})
    assert t.state.in_hand() == [L, N, D]
    assert played_in_turn(t, "8S", "AS", "9S") == [L, N, D]
    assert t.state.tricks_won == (0, 0, 0, 1)
    assert played_in_turn(t, "10H", "JH", "9H") == [N, D, L]


# 27: the stock runs out.


def test_scenario_27_discards_are_recycled_when_the_stock_runs_short() -> None:
    t = started(6)
    t.ready_all(ante=3)
    dealt = t.state.hands
    assert len(t.state.stock) == 13
    t.act(D, ac.DecideTrump(keep=False))
    for seat in (L, M, N, O, P):
        t.act(seat, ac.Knock(True))
    for seat in (L, M, N, O):
        t.act(seat, ac.Draw(dealt[seat]))
    assert len(t.state.stock) == 1
    last_stock_card = t.state.stock[0]
    earlier = {c for seat in (L, M, N, O) for c in dealt[seat]}
    assert set(t.state.discards) == earlier
    t.act(P, ac.Draw(dealt[P]))
    drew = events_of(t, ev.Drew)
    assert [e.recycled for e in drew[:4]] == [(), (), (), ()]
    recycled = drew[4].recycled
    assert drew[4].seat == P
    assert sorted(recycled) == sorted(earlier)  # never P's own discards, nor the trump card
    assert drew[4].drawn[0] == last_stock_card  # the old stock is drawn first
    assert drew[4].drawn[1:] == recycled[:2]
    assert not set(drew[4].drawn) & set(dealt[P])
    assert t.state.phase is Phase.DEALER_KNOCK
    assert [len(hand) for hand in t.state.hands] == [3] * 6
    assert len(t.state.stock) == 10
    held = [c for hand in t.state.hands for c in hand]
    assert len(set(held)) == 18
    assert t.state.trump_card not in held


# 28: a game cannot end with a carry.


def test_scenario_28_end_game_refused_while_a_carry_is_outstanding() -> None:
    t = started(3)
    t.rig({D: "9H 9C 10C", L: "AH AC 7D", M: "8H 8C 8D"}, trump="QS")
    t.to_tricks(keep=True, fourth="10C")
    t.play((L, "AH"), (M, "8H"), (D, "9H"), (L, "AC"), (M, "8C"), (D, "9C"))
    t.play((L, "7D"), (M, "8D"), (D, "QS"))
    assert t.state.carry == 36
    assert t.state.host == D
    t.refuse(D, EndGame(), "carry_outstanding")
    t.ready_all(ante=None)
    t.refuse(D, EndGame(), "hand_in_progress")
    t.to_tricks(passes={M, D})  # L deals; everyone passes: no set
    result = settled(t)
    assert result.sets == ("", "", "")
    assert result.payouts == (0, 39, 0)
    assert t.state.carry == 0
    t.act(D, EndGame())
    assert t.state.phase is Phase.ENDED
    assert [standing.net for standing in t.state.standings] == sorted(
        (standing.net for standing in t.state.standings), reverse=True
    )
    assert view_for(t.state, None).seed == t.seed


# 29: no view leaks a card.

Policy = Callable[[State, int], ac.Action]


def random_policy(rng: random.Random) -> Policy:
    """Any legal choice, knocking in more often than not so that tricks get played."""

    def choose(s: State, seat: int) -> ac.Action:
        options = [option.action for option in legal_actions(s, seat) if option.legal]
        assert options, f"nothing legal for seat {seat} at {s.phase}"
        if s.phase in (Phase.KNOCK, Phase.DEALER_KNOCK):
            return ac.Knock(rng.random() < 0.8)
        return rng.choice(options)

    return choose


def play_hands(t: Table, hands: int, policy: Policy) -> Iterator[State]:
    """Play ``hands`` hands (or until the table waits), yielding every state on the way."""
    yield t.state
    start = t.state.hand_no
    done = 0
    while done < hands and to_act(t.state):
        seat = to_act(t.state)[0]
        events = t.act(seat, policy(t.state, seat))
        done += sum(isinstance(e, ev.HandSettled) for e in events)
        yield t.state
    assert t.state.hand_no > start


def public_cards(s: State) -> set[Card]:
    public = {card for trick in (*s.played, s.trick) for _, card in trick}
    if s.trump_card is not None:
        public.add(s.trump_card)
    if s.result is not None and s.result.special is not None:
        public.update(s.result.special.cards)
    return public


cards_in_json = card_finder(DECK, label, parse)


def check_views(s: State) -> None:
    public = public_cards(s)
    viewers: list[int | None] = [*range(len(s.players)), None]
    for seat in viewers:
        view = view_for(s, seat)
        seen = cards_in_json(CODEC.dump_view(view))
        if seat is None:
            assert view.hand == ()
            assert seen <= public
            continue
        own = set(s.hands[seat])
        blind = seat == s.dealer and s.phase in (Phase.TRUMP, Phase.KNOCK, Phase.DRAW)
        if blind:
            assert len(view.hand) == len(s.hands[seat])
            assert all(card is None or (s.kept and card == s.trump_card) for card in view.hand)
            own = set()
        else:
            assert view.hand == s.hands[seat]
        allowed = own | set(s.discarded[seat]) | public
        assert seen <= allowed, f"seat {seat} sees {sorted(map(code, seen - allowed))}"
        for other in range(len(s.players)):
            if other != seat:
                assert not (set(s.hands[other]) & seen) - public
        assert not (set(s.stock) & seen) - public - set(s.discarded[seat])


def test_scenario_29_no_view_holds_a_card_its_seat_may_not_see() -> None:
    for seats, seed in ((3, 1), (4, 2), (6, 3)):
        t = started(seats)
        states = 0
        blind_seen = False
        for state in play_hands(t, 6, random_policy(random.Random(seed))):
            check_views(state)
            states += 1
            blind_seen |= state.phase is Phase.KNOCK
        assert states > 30
        assert blind_seen


def test_scenario_29_dealer_blind_until_the_dealer_knock() -> None:
    t = started(3)
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="KS")
    assert view_for(t.state, D).hand == (None, None, None)
    t.act(D, ac.DecideTrump(keep=True))
    assert view_for(t.state, D).hand == (None, None, None, parse("KS"))
    t.act(L, ac.Knock(True))
    t.act(M, ac.Knock(True))
    t.act(L, ac.Draw(()))
    assert view_for(t.state, D).hand == (None, None, None, parse("KS"))
    t.act(M, ac.Draw(()))
    assert t.state.phase is Phase.DEALER_KNOCK
    assert view_for(t.state, D).hand == cards("7H 8H 9H KS")


# 30: duplicated and replayed commands.


def test_scenario_30_duplicate_or_replayed_action_takes_effect_once() -> None:
    t = started(3)
    t.ready_all(ante=3)
    t.act(D, ac.DecideTrump(keep=False))
    before_l = t.state.seq
    t.act(L, ac.Knock(False), action_id="L-pass")
    # M's decision opened after L's pass: a command sent from before it is stale.
    t.refuse(M, ac.Knock(False), "stale", seq=before_l, action_id="M-early")
    t.refuse(L, ac.Knock(False), "duplicate", seq=before_l, action_id="L-pass")
    seq_m = t.state.seq
    t.act(M, ac.Knock(False), action_id="M-pass")  # ends the hand: D takes the pot
    stacks = t.state.stacks
    assert stacks == (STACK + 6, STACK - 3, STACK - 3)
    t.refuse(M, ac.Knock(False), "duplicate", seq=seq_m, action_id="M-pass")
    t.refuse(M, ac.Knock(False), "duplicate", action_id="M-pass")
    assert t.state.stacks == stacks
    assert len(events_of(t, ev.HandSettled)) == 1


# 31: a silent player times out.


def test_scenario_31_knock_timeout_passes_and_the_hand_goes_on() -> None:
    t = started(3, timer_ms=10_000)
    t.ready_all(ante=3)
    t.act(D, ac.DecideTrump(keep=False))
    assert to_act(t.state) == (L,)
    deadline = t.state.deadline
    assert deadline == t.now + 10_000
    t.now = deadline - 1
    t.refuse(None, Timeout(), "not_due")
    t.refuse(L, Timeout(), "not_allowed")
    t.now = deadline + 1
    events = t.act(None, Timeout())
    assert ev.TimedOut(L) in events
    assert ev.Knocked(L, False) in events
    assert t.state.status[L] == "passed"
    assert t.state.phase is Phase.KNOCK
    assert to_act(t.state) == (M,)
    assert t.state.deadline == t.now + 10_000
    t.act(M, ac.Knock(True))
    assert t.phase() is Phase.DRAW


# 32: money is conserved.


def test_scenario_32_money_is_conserved_over_many_hands() -> None:
    for seats, seed in ((3, 11), (4, 12), (5, 13), (6, 14)):
        t = started(seats)
        for _ in play_hands(t, 12, random_policy(random.Random(seed))):
            pass
        results = [e.result for e in events_of(t, ev.HandSettled)]
        assert len(results) >= 10
        carry = 0
        for result in results:
            assert result.carry_in == carry
            assert_conserved(result)
            carry = result.carry_out
        s = t.state
        assert not s.order  # between hands
        assert sum(s.stacks) + s.carry == seats * STACK
        assert sum(s.nets) + s.carry == 0
    # Including the exact figures of scenarios 5 and 6.
    t = started(3)
    play_scenario_5(t)
    assert_conserved(settled(t))
