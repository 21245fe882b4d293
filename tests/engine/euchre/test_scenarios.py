"""The acceptance scenarios of the Euchre rules (docs/rules/euchre.md §11; 41-50 and 52: the
stakes of §12), one test each.

Seats: D (seat 0) deals the first hand, L (seat 1) is the dealer's left, P (seat 2) the
dealer's partner, R (seat 3) the dealer's right. D and P are team 0, L and R team 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from shared import fairness
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK, parse
from shared.games.euchre.codec import CODEC
from shared.games.euchre.game import EUCHRE
from shared.games.euchre.legal import default_action, legal_actions
from shared.games.euchre.money import split
from shared.games.euchre.record import dump_record, game_record, load_record, verify
from shared.games.euchre.state import HandResult, Phase, State
from shared.games.euchre.views import view_for
from shared.games.interface import IllegalCommand
from shared.games.lifecycle import (
    AddBot,
    CloseTable,
    EndGame,
    HandOverHost,
    Leave,
    Player,
    SetConnected,
    SitOut,
    StartGame,
    TakeSeat,
)
from tests.engine.euchre.support import Table, cards_in_json

D, L, P, R = range(4)
C, DI, H, S = range(4)  # suits ♣ ♦ ♥ ♠

# A deal with the 9♥ turned up: L holds the right and left bowers and the A♥.
BASIC = {
    D: "KH QH AC AS KC",
    L: "JH JD AH 9C 9S",
    P: "KS QS QC KD AD",
    R: "10C 10S 9D 10D QD",
}
BASIC_TURN_UP = "9H"  # the kitty: 10H JC JS


def dealt(**options: Any) -> Table:
    t = Table(**options)
    t.start()
    assert t.state.dealer == D
    return t


def rigged(hands: dict[int, str], turn_up: str, **options: Any) -> Table:
    """A table just dealt, with these hands and turn-up."""
    t = dealt(**options)
    t.rig(hands, turn_up)
    return t


def basic(**options: Any) -> Table:
    t = dealt(**options)
    t.rig(BASIC, BASIC_TURN_UP)
    return t


def result(t: Table) -> HandResult:
    assert t.state.result is not None, "the hand has not been scored"
    return t.state.result


def winners(t: Table) -> tuple[int, ...]:
    """Who took each finished trick (a call, so that type checkers don't narrow it)."""
    return t.state.winners


def order(t: Table, seat: int, *, alone: bool = False, discard: str = "") -> None:
    """Everyone before ``seat`` passes, then ``seat`` orders up; the dealer then discards
    ``discard``, if given."""
    while t.turn() != seat:
        t.act(t.turn(), ac.Pass())
    t.act(seat, ac.OrderUp(alone))
    if discard:
        t.act(D, ac.Discard(parse(discard)))


def to_second_round(t: Table) -> None:
    for seat in (L, P, R, D):
        t.act(seat, ac.Pass())
    assert t.phase() is Phase.NAME


def play_by_default(t: Table) -> None:
    """Every remaining card of the hand, as the table's timer would play it."""
    hand_no = t.state.hand_no
    while t.state.phase is Phase.TRICKS and t.state.hand_no == hand_no:
        seat = t.turn()
        t.act(seat, default_action(t.state, seat))


# 1-3: the deal.


def test_scenario_01_the_deal() -> None:
    t = dealt()
    s = t.state
    assert s.phase is Phase.ORDER and s.hand_no == 1
    assert all(len(hand) == 5 for hand in s.hands)
    assert s.turn_up is not None and s.turn_up_at == "up" and len(s.kitty) == 3
    every = [*(c for hand in s.hands for c in hand), s.turn_up, *s.kitty]
    assert sorted(every) == list(DECK)
    assert t.turn() == L


def test_scenario_02_dealing_order_from_the_seed() -> None:
    t = dealt()
    seed = bytes.fromhex(t.seed)
    assert fairness.choose_first_dealer(seed, [0, 1, 2, 3]) == D
    deck = fairness.shuffle(DECK, fairness.Stream(seed, "deal", 1, bytes(32), 0))
    s = t.state
    for k in range(20):
        seat = (D + 1 + k) % 4
        assert s.hands[seat][k // 4] == deck[k]
    assert s.turn_up == deck[20]
    assert s.kitty == tuple(deck[21:])
    started = next(e for e in t.events if isinstance(e, ev.GameStarted))
    assert started.fingerprint == fairness.fingerprint(seed)


def test_scenario_03_the_deal_moves_left() -> None:
    t = dealt()
    dealers: list[int] = []
    while t.state.hand_no < 5:
        if t.state.hand_no > len(dealers):
            dealer = t.state.dealer
            assert dealer is not None and t.turn() == (dealer + 1) % 4
            dealers.append(dealer)
        seat = t.turn()
        t.act(seat, default_action(t.state, seat))
    assert dealers == [D, L, P, R]
    assert t.state.dealer == D


# 4-11: making trump.


def test_scenario_04_left_orders_up() -> None:
    t = basic()
    t.act(L, ac.OrderUp())
    s = t.state
    assert (s.trump, s.maker, s.alone, s.resting) == (H, L, False, None)
    assert s.phase is Phase.DISCARD and t.turn() == D
    assert len(s.hands[D]) == 6 and parse("9H") in s.hands[D]
    assert s.turn_up_at == "taken"
    t.refuse(P, ac.Pass(), "wrong_phase")


def test_scenario_05_partner_orders_up() -> None:
    t = basic()
    order(t, P)
    s = t.state
    assert (s.trump, s.maker) == (H, P)
    assert s.phase is Phase.DISCARD and len(s.hands[D]) == 6


def test_scenario_06_right_orders_up() -> None:
    t = basic()
    order(t, R)
    s = t.state
    assert (s.trump, s.maker) == (H, R)
    assert [c.call for c in s.calls] == ["pass", "pass", "order_up"]
    assert s.phase is Phase.DISCARD


def test_scenario_07_dealer_picks_it_up_and_discards() -> None:
    t = basic()
    order(t, D)
    assert t.state.maker == D and t.turn() == D
    t.act(D, ac.Discard(parse("KC")))
    s = t.state
    assert s.phase is Phase.TRICKS and t.turn() == L
    assert len(s.hands[D]) == 5 and parse("KC") not in s.hands[D]
    assert view_for(s, D).discarded == (parse("KC"),)
    for seat in (L, P, R, None):
        view = view_for(s, seat)
        assert view.discarded == ()
        assert "KC" not in str(CODEC.dump_view(view))


def test_scenario_08_all_pass_turns_it_down() -> None:
    t = basic()
    to_second_round(t)
    s = t.state
    assert s.turn_up_at == "down" and s.turn_up == parse("9H")
    assert t.turn() == L
    assert all(len(hand) == 5 for hand in s.hands)
    assert view_for(s, None).turn_up == parse("9H")


def test_scenario_09_naming_in_the_second_round() -> None:
    t = basic()
    to_second_round(t)
    t.act(L, ac.Pass())
    t.act(P, ac.NameTrump(S))
    s = t.state
    assert (s.trump, s.maker, s.alone) == (S, P, False)
    assert s.phase is Phase.TRICKS and t.turn() == L
    assert s.discard is None and len(s.hands[D]) == 5


def test_scenario_10_turned_down_suit_cannot_be_named() -> None:
    t = basic()
    to_second_round(t)
    hearts = [o for o in legal_actions(t.state, L) if o.action == ac.NameTrump(H, False)]
    assert len(hearts) == 1 and not hearts[0].legal
    assert "turned down" in hearts[0].reason
    error = t.refuse(L, ac.NameTrump(H), "turned_down")
    assert "hearts" in error.message
    t.refuse(L, ac.NameTrump(H, alone=True), "turned_down")


def test_scenario_11_stick_the_dealer() -> None:
    t = basic()
    to_second_round(t)
    for seat in (L, P, R):
        t.act(seat, ac.Pass())
    assert t.turn() == D
    passing = [o for o in legal_actions(t.state, D) if o.action == ac.Pass()]
    assert not passing[0].legal and "Stick the dealer" in passing[0].reason
    t.refuse(D, ac.Pass(), "stick_the_dealer")
    t.act(D, ac.NameTrump(C))
    assert (t.state.trump, t.state.maker) == (C, D)
    assert t.phase() is Phase.TRICKS


# 12-16: going alone.


def test_scenario_12_alone_by_the_maker() -> None:
    t = basic()
    t.act(L, ac.OrderUp(alone=True))
    assert t.state.resting == R and t.state.alone
    t.act(D, ac.Discard(parse("KC")))
    assert t.turn() == L
    t.play((L, "JH"), (P, "KD"))
    assert t.turn() == D  # R is skipped
    t.play((D, "9H"))
    assert winners(t) == (L,) and t.turn() == L
    assert [seat for seat, _ in t.state.played[0]] == [L, P, D]


def test_scenario_13_alone_with_the_dealer_sitting_out() -> None:
    t = basic()
    t.act(L, ac.Pass())
    t.act(P, ac.OrderUp(alone=True))
    s = t.state
    assert s.resting == D and s.trump == H
    assert s.turn_up_at == "kitty" and len(s.hands[D]) == 5
    assert s.phase is Phase.TRICKS and t.turn() == L
    assert not any(isinstance(e, ev.TurnUpTaken | ev.DealerDiscarded) for e in t.events)
    assert view_for(s, R).turn_up == parse("9H")
    t.play((L, "9C"), (P, "QC"))
    assert t.turn() == R


def test_scenario_14_leader_sits_out() -> None:
    t = basic()
    t.act(L, ac.Pass())
    t.act(P, ac.Pass())
    t.act(R, ac.OrderUp(alone=True))
    assert t.state.resting == L
    t.act(D, ac.Discard(parse("KC")))
    assert t.turn() == P
    t.refuse(L, ac.PlayCard(parse("9C")), "not_your_turn")


def test_scenario_15_dealer_goes_alone() -> None:
    t = basic()
    order(t, D, alone=True)
    assert t.state.resting == P and t.phase() is Phase.DISCARD
    t.act(D, ac.Discard(parse("KC")))
    t.play((L, "9C"), (R, "10C"), (D, "AC"))
    assert winners(t) == (D,)


def test_scenario_16_alone_in_the_second_round() -> None:
    t = basic()
    to_second_round(t)
    t.act(L, ac.NameTrump(DI, alone=True))
    s = t.state
    assert (s.trump, s.maker, s.alone, s.resting) == (DI, L, True, R)
    assert s.turn_up_at == "down" and s.phase is Phase.TRICKS and t.turn() == L


# 17-22: following and taking tricks.


def test_scenario_17_left_bower_must_follow_trump() -> None:
    t = rigged(
        {
            D: "AH KH 9C 9S 10S",
            L: "JH 10H QC KC AC",
            P: "JD AD KD QS AS",
            R: "QH 10C 10D QD KS",
        },
        "9H",
    )
    order(t, L, discard="9C")
    t.play((L, "JH"))
    assert t.legal_cards(P) == {parse("JD")}
    reason = t.reason(P, "AD")
    assert "You must follow hearts" in reason and "left bower J♦ counts as a heart" in reason
    t.refuse_card(P, "AD")
    t.play((P, "JD"))


def test_scenario_18_left_bower_is_not_its_printed_suit() -> None:
    t = rigged(
        {
            D: "AH KH 9C 9S 10S",
            L: "AD 10H QC KC AC",
            P: "JD QH 10C QS AS",
            R: "JH KD 10D QD KS",
        },
        "9H",
    )
    order(t, L, discard="9C")
    t.play((L, "AD"))
    assert t.legal_cards(P) == set(t.state.hands[P])  # void in diamonds: any card
    assert t.reason(P, "JD") == ""
    t.play((P, "10C"), (R, "10D"), (D, "9S"))
    assert winners(t) == (L,)


def test_scenario_19_left_bower_may_not_follow_its_printed_suit() -> None:
    t = rigged(
        {
            D: "AH KH 9C 9S 10S",
            L: "AD 10H QC KC AC",
            P: "JD QH KD QS AS",
            R: "JH 10C 10D QD KS",
        },
        "9H",
    )
    order(t, L, discard="9C")
    t.play((L, "AD"))
    reason = t.reason(P, "JD")
    assert reason.startswith("You must follow diamonds: you hold K♦")
    assert "counts as a heart this hand, not a diamond" in reason
    t.refuse_card(P, "JD")


def test_scenario_20_bower_ranking() -> None:
    t = rigged(
        {
            D: "AH KH 9C 9S 10S",
            L: "JD 10H QC KC AC",
            P: "JH QH KD QS AS",
            R: "AD 10C 10D QD KS",
        },
        "9H",
    )
    order(t, L, discard="9C")
    t.play((L, "JD"), (P, "JH"), (R, "AD"), (D, "AH"))
    assert winners(t) == (P,)  # right bower over left bower over the ace
    t.play((P, "QH"), (R, "QD"), (D, "KH"), (L, "10H"))
    assert winners(t) == (P, D)


def test_scenario_21_trump_beats_the_led_suit() -> None:
    t = rigged(
        {
            D: "AH KH 9C 9S 10S",
            L: "QD 10H QC KC AC",
            P: "JH QH KD QS AS",
            R: "AD 10C 10D JD KS",
        },
        "9H",
    )
    order(t, L, discard="9C")
    # Diamonds: the same colour as hearts, it has no jack this hand (J♦ is a trump).
    t.play((L, "QD"), (P, "KD"), (R, "AD"), (D, "9S"))
    assert winners(t) == (R,)  # the 9♠ is off-suit; the A♦ is highest of the led suit
    t.play((R, "10C"), (D, "10S"), (L, "QC"), (P, "AS"))
    assert winners(t) == (R, L)  # an off-suit ace does not take the trick
    t.play((L, "KC"), (P, "QH"), (R, "KS"), (D, "KH"))
    assert winners(t) == (R, L, D)  # trumps beat the led clubs


def test_scenario_22_the_taker_leads() -> None:
    t = basic()
    order(t, L, discard="KC")
    t.play((L, "9C"), (P, "QC"), (R, "10C"), (D, "AC"))
    assert winners(t) == (D,) and t.turn() == D
    t.refuse(L, ac.PlayCard(parse("JH")), "not_your_turn")


# 23-28: points.


def test_scenario_23_made_three_tricks() -> None:
    t = basic()
    order(t, L, discard="KC")
    t.play((L, "JH"), (P, "KD"), (R, "9D"), (D, "9H"))
    t.play((L, "JD"), (P, "QC"), (R, "10D"), (D, "QH"))
    t.play((L, "AH"), (P, "KS"), (R, "QD"), (D, "KH"))
    t.play((L, "9C"), (P, "AD"), (R, "10C"), (D, "AC"))
    t.play((D, "AS"), (L, "9S"), (P, "QS"), (R, "10S"))
    r = result(t)
    assert (r.maker, r.tricks, r.outcome, r.points, r.scores) == (L, (2, 3), "made", (0, 1), (0, 1))


def test_scenario_24_made_four_tricks() -> None:
    t = rigged(
        {D: "KH QH AC AS KC", L: "JH JD AH 10H 9S", P: "KS QS QC KD AD", R: "10C 10S 9D 10D QD"},
        "9H",
    )
    order(t, L, discard="KC")
    t.play((L, "JH"), (P, "KD"), (R, "9D"), (D, "9H"))
    t.play((L, "JD"), (P, "QC"), (R, "10D"), (D, "QH"))
    t.play((L, "AH"), (P, "KS"), (R, "QD"), (D, "KH"))
    t.play((L, "10H"), (P, "QS"), (R, "10C"), (D, "AC"))
    t.play((L, "9S"), (P, "AD"), (R, "10S"), (D, "AS"))
    r = result(t)
    assert (r.tricks, r.outcome, r.points) == ((1, 4), "made", (0, 1))


STRONG = {D: "10H AC KC QC 9D", L: "JH JD AH KH QH", P: "AS KS QS 10D QD", R: "10C 10S 9S KD AD"}


def test_scenario_25_march() -> None:
    t = rigged(STRONG, "9H")
    order(t, L, discard="9D")
    play_by_default(t)
    r = result(t)
    assert (r.tricks, r.outcome, r.points, r.alone) == ((0, 5), "march", (0, 2), False)


def test_scenario_26_alone_three_tricks() -> None:
    t = basic()
    t.act(L, ac.OrderUp(alone=True))
    t.act(D, ac.Discard(parse("KC")))
    t.play((L, "JH"), (P, "KD"), (D, "9H"))
    t.play((L, "JD"), (P, "QC"), (D, "QH"))
    t.play((L, "AH"), (P, "KS"), (D, "KH"))
    t.play((L, "9C"), (P, "AD"), (D, "AC"))
    t.play((D, "AS"), (L, "9S"), (P, "QS"))
    r = result(t)
    assert (r.tricks, r.outcome, r.points, r.alone) == ((2, 3), "alone_made", (0, 1), True)


def test_scenario_27_alone_march() -> None:
    t = rigged(STRONG, "9H")
    t.act(L, ac.OrderUp(alone=True))
    t.act(D, ac.Discard(parse("9D")))
    play_by_default(t)
    r = result(t)
    assert (r.tricks, r.outcome, r.points, r.scores) == ((0, 5), "alone_march", (0, 4), (0, 4))


def test_scenario_28_euchred() -> None:
    t = rigged(
        {D: "JH JD AH KH QH", L: "9C 9S 10S 9D 10D", P: "AC KC QC AS KS", R: "10C QS QD KD AD"},
        "9H",
    )
    order(t, L, discard="9H")  # the turn-up itself may be discarded
    t.play((L, "9C"), (P, "AC"), (R, "10C"), (D, "JH"))
    t.play((D, "JD"), (L, "9S"), (P, "KS"), (R, "QS"))
    t.play((D, "AH"), (L, "10S"), (P, "AS"), (R, "QD"))
    t.play((D, "KH"), (L, "9D"), (P, "KC"), (R, "KD"))
    t.play((D, "QH"), (L, "10D"), (P, "QC"), (R, "AD"))
    r = result(t)
    assert (r.maker, r.tricks, r.outcome, r.points) == (L, (5, 0), "euchred", (2, 0))


# 29-30: the end of the game.


def strong_for(seat: int) -> dict[int, str]:
    """``seat`` holds the five top hearts; the 9♥ will be turned up."""
    rest = ["10H AC KC QC 9D", "AS KS QS 10D QD", "10C 10S 9S KD AD"]
    hands = {seat: "JH JD AH KH QH"}
    others = [s for s in range(4) if s != seat]
    for other, text in zip(others, rest, strict=True):
        hands[other] = text
    return hands


def test_scenario_29_game_ends_at_ten() -> None:
    t = dealt()
    for hand, maker in enumerate((L, R, R), start=1):
        dealer = t.state.dealer
        assert dealer is not None and t.state.hand_no == hand
        t.rig(strong_for(maker), "9H")
        order(t, maker, alone=True)
        if t.phase() is Phase.DISCARD:
            t.act(dealer, default_action(t.state, dealer))
        play_by_default(t)
        if hand < 3:
            assert t.state.scores == (0, 4 * hand) and t.phase() is Phase.ORDER
    s = t.state
    assert s.phase is Phase.ENDED and s.scores == (0, 12) and s.winner == 1
    ended = [e for e in t.events if isinstance(e, ev.GameEnded)]
    assert ended == [ev.GameEnded(t.seed, (0, 12), 1, "target")]
    assert view_for(s, D).seed == t.seed
    assert s.hand_no == 3 and not any(s.hands)


def test_scenario_30_short_game() -> None:
    t = basic(target=1)
    order(t, L, discard="KC")
    play_by_default(t)
    s = t.state
    assert s.phase is Phase.ENDED and s.end_reason == "target"
    assert s.winner == result(t).points.index(max(result(t).points))
    assert s.scores == result(t).scores


# 31-35: timeouts.


def test_scenario_31_timeout_in_the_first_round_passes() -> None:
    t = basic(timer_ms=20_000)
    assert t.state.deadline == t.now + 20_000
    events = t.expire()
    assert ev.TimedOut(L) in events and ev.Passed(L) in events
    assert t.turn() == P and t.state.trump is None
    for _ in range(3):
        t.expire()
    assert t.phase() is Phase.NAME


def test_scenario_32_timeout_of_a_stuck_dealer() -> None:
    t = dealt(timer_ms=20_000)
    # Clubs would give 3 trumps (9♣ Q♣ and the J♠), diamonds 2.
    t.rig(
        {D: "9C QC JS AD KD", L: "9H 10H QH KH AH", P: "JH JD 10S QS KS", R: "10C KC AC 9S AS"},
        "9D",
    )
    to_second_round(t)
    for seat in (L, P, R):
        t.act(seat, ac.Pass())
    t.expire()
    assert (t.state.trump, t.state.maker, t.state.alone) == (C, D, False)
    # A tie (clubs 2, spades 2 with diamonds turned down): clubs comes first.
    t = dealt(timer_ms=20_000)
    t.rig(
        {D: "9C 10C 9S 10S AH", L: "JH 10H QH KH 9H", P: "JD QC KC AC JC", R: "QS KS AS JS 9D"},
        "AD",
    )
    to_second_round(t)
    for seat in (L, P, R):
        t.act(seat, ac.Pass())
    assert default_action(t.state, D) == ac.NameTrump(C, False)


def test_scenario_33_timeout_of_the_dealers_discard() -> None:
    t = basic(timer_ms=20_000)
    order(t, L)
    # D holds K♥ Q♥ 9♥ (trump) and A♣ A♠ K♣: the lowest non-trump is K♣ (before A♣, A♠).
    t.expire()
    assert t.state.discard == parse("KC")
    assert t.phase() is Phase.TRICKS


def test_scenario_34_timeout_in_the_tricks_plays_the_safest_card() -> None:
    t = basic(timer_ms=20_000)
    order(t, L, discard="KC")
    t.expire()  # L leads: 9♣ (a non-trump 9, clubs before spades)
    assert t.state.trick == ((L, parse("9C")),)
    t.play((P, "QC"), (R, "10C"), (D, "AC"), (D, "9H"))  # D leads a trump
    t.expire()  # L must follow trump: the lowest of A♥ J♦ J♥ is the ace
    assert t.state.trick[-1] == (L, parse("AH"))


def test_scenario_35_away_seats_get_the_grace() -> None:
    t = basic(timer_ms=20_000)
    t.expire()  # L passes
    t.act(P, ac.Pass())
    t.act(R, ac.Pass())
    t.act(D, ac.Pass())
    t.expire()  # L passes again in the second round: two in a row
    assert t.state.timeouts[L] == 2
    t.act(P, ac.Pass())
    t.act(R, ac.Pass())
    t.act(D, ac.NameTrump(S))
    assert t.turn() == L and t.state.deadline == t.now + 3_000
    t.act(L, SitOut(False))  # "I'm back"
    assert t.state.timeouts[L] == 0 and t.state.deadline == t.now + 20_000


# 36-40: views, seats, the record.


def test_scenario_36_views_hide_what_they_must() -> None:
    t = basic()
    order(t, L, discard="KC")
    t.play((L, "9C"))
    s = t.state
    public = {parse("9H"), parse("9C")}  # the turn-up was shown; the 9♣ was played
    for seat in (D, L, P, R, None):
        view = view_for(s, seat)
        own = set(s.hands[seat]) if seat is not None else set()
        if seat == D:
            own.add(parse("KC"))
        assert cards_in_json(CODEC.dump_view(view)) <= own | public, seat
        if seat is None:
            assert view.hand == () and view.options == () and view.discarded == ()
        else:
            assert view.hand == s.hands[seat]
    assert view_for(s, D).discarded == (parse("KC"),)
    reasons = {o.reason for o in view_for(s, P).options if not o.legal}
    assert reasons == {"You must follow clubs: you hold Q♣"}


def test_scenario_37_leaving_during_a_hand() -> None:
    t = basic()
    t.act(P, Leave())
    assert t.state.leaving[P] and t.state.players[P] is not None
    order(t, L, discard="KC")
    play_by_default(t)
    s = t.state
    assert s.players[P] is None and s.phase is Phase.WAITING and s.hand_no == 1
    t.act(None, TakeSeat(P, Player("p9", "Newcomer"), 0))
    assert t.phase() is Phase.ORDER and t.state.dealer == L and t.state.hand_no == 2


def test_scenario_38_sitting_out() -> None:
    t = basic()
    t.act(R, SitOut(True))
    order(t, L, discard="KC")
    play_by_default(t)
    assert t.phase() is Phase.WAITING
    t.act(R, SitOut(False))
    assert t.phase() is Phase.ORDER and t.state.dealer == L


def test_scenario_39_the_record_verifies() -> None:
    t = dealt(target=2)
    while t.state.phase is not Phase.ENDED:
        seat = t.turn()
        t.act(seat, default_action(t.state, seat))
    record = load_record(dump_record(game_record(t.events)))
    verdict = verify(record)
    assert verdict.ok and verdict.hands == record.hands[-1].hand_no >= 2
    hand = record.hands[0]
    swapped = (hand.dealt[1], hand.dealt[0], *hand.dealt[2:])
    tampered = record.__class__(
        record.algorithm,
        record.seed,
        record.fingerprint,
        record.first_dealer,
        (hand.__class__(hand.hand_no, hand.dealer, swapped, hand.turn_up, hand.kitty),),
    )
    assert not verify(tampered).ok


def test_scenario_40_starting_needs_four() -> None:
    t = Table()
    t.act(0, Leave())  # the host leaves; seat 1 becomes host
    assert t.state.host == 1
    t.refuse(1, StartGame(t.seed), "not_enough_players")


# 41-50: stakes (rules §12).

STACKS = (1000, 1000, 1000, 1000)


def moved(before: State, events: Sequence[ev.Event]) -> list[tuple[str, str, int, str]]:
    """The chips ``events`` moved from ``before``, each as ``(debit, credit, amount, code)``."""
    return [(m.debit, m.credit, m.amount, m.code) for m in EUCHRE.transfers(before, events)]


def moves(t: Table, actor: int | None, action: Any) -> list[tuple[str, str, int, str]]:
    """Act, and the chip movements the command caused."""
    before = t.state
    return moved(before, t.act(actor, action))


def closed_by_defaults(t: Table) -> tuple[list[ev.Event], list[tuple[str, str, int, str]]]:
    """Play on by the defaults until the table closes: the events, and the chips they moved."""
    before = t.state
    events: list[ev.Event] = []
    while t.state.phase is not Phase.CLOSED:
        seat = t.turn()
        events += t.act(seat, default_action(t.state, seat))
    return events, moved(before, events)


def staked(stake: int = 50, **options: Any) -> tuple[Table, list[tuple[str, str, int, str]]]:
    """A table with ``stake`` whose game has started (seat 0 deals), and the start's moves."""
    t = Table(stake=stake, stacks=options.pop("stacks", STACKS), **options)
    started = moves(t, 0, StartGame(t.seed))
    return t, started


def chips(t: Table) -> int:
    """The chips at the table: the seats' stacks and the pot."""
    return sum(t.state.stacks) + t.state.pot


def finish_hand(t: Table) -> None:
    """Play the hand in play to its end by the defaults (any decision, not only cards)."""
    hand_no = t.state.hand_no
    while t.state.hand_no == hand_no and t.state.phase in (
        Phase.ORDER,
        Phase.NAME,
        Phase.DISCARD,
        Phase.TRICKS,
    ):
        seat = t.turn()
        t.act(seat, default_action(t.state, seat))


def test_scenario_41_the_stake_setting() -> None:
    assert EUCHRE.make_config({}).stake == 0
    assert EUCHRE.make_config({"stake": 300}).stake == 300
    for bad in (-1, 301, "5", True, 2.5, None):
        with pytest.raises(IllegalCommand) as refused:
            EUCHRE.make_config({"stake": bad})
        assert refused.value.code == "bad_config"
        assert "0 to 300" in refused.value.message
    t, started = staked(stake=0)
    assert started == [] and t.state.pot == 0 and t.state.stacks == STACKS
    assert next(e for e in t.events if isinstance(e, ev.GameStarted)).stakes == ()


def test_scenario_42_the_stakes_go_into_the_pot() -> None:
    t, started = staked(stake=50)
    assert started == [(f"wallet:p{seat}", "pot", 50, "stake") for seat in range(4)]
    assert t.state.stacks == (950,) * 4 and t.state.pot == 200
    view = CODEC.dump_view(view_for(t.state, L))
    assert view["pot"] == 200 and view["config"]["stake"] == 50 and view["payouts"] == []
    assert CODEC.dump_view(view_for(t.state, None))["pot"] == 200


def test_scenario_43_a_seat_short_of_chips_blocks_the_start() -> None:
    t = Table(stake=50, stacks=(1000, 49, 1000, 1000))
    refused = t.refuse(0, StartGame(t.seed), "short_stack")
    assert "50¢" in refused.message and "West" in refused.message
    assert t.state.phase is Phase.LOBBY and t.state.pot == 0


def test_scenario_44_the_winning_partnership_splits_the_pot() -> None:
    t, _ = staked(stake=50, target=1)
    t.rig(BASIC, BASIC_TURN_UP)
    order(t, L)
    t.act(D, ac.Discard(parse("KC")))
    paid: list[tuple[str, str, int, str]] = []
    while t.state.phase is Phase.TRICKS:
        seat = t.turn()
        paid += moves(t, seat, default_action(t.state, seat))
    s = t.state
    assert s.phase is Phase.ENDED and s.winner is not None
    team = (s.winner, s.winner + 2)
    assert paid == [("pot", f"wallet:p{seat}", 100, "euchre_win") for seat in sorted(team)]
    assert s.pot == 0 and chips(t) == 4000
    assert s.stacks == tuple(1050 if seat in team else 950 for seat in range(4))
    assert s.payouts == tuple(100 if seat in team else 0 for seat in range(4))
    assert CODEC.dump_view(view_for(s, D))["payouts"] == list(s.payouts)


def test_scenario_45_the_host_ends_the_game_the_hosts_partnership_forfeits() -> None:
    # After one hand exactly one team leads: ended by a host of either team, the host's side
    # forfeits, so ending is never worth more than losing, ahead or behind.
    for host in (D, L):
        t, _ = staked(stake=50, target=10, interlude_ms=5_000)
        finish_hand(t)
        assert t.phase() is Phase.INTERLUDE and 0 in t.state.scores
        if host != D:
            t.act(D, HandOverHost(host))
        paid = moves(t, host, EndGame())
        others = [seat for seat in range(4) if seat % 2 != host % 2]
        assert paid == [("pot", f"wallet:p{seat}", 100, "euchre_win") for seat in others]
        s = t.state
        assert s.end_reason == "host" and s.winner == 1 - host % 2 and s.pot == 0
        assert s.forfeited == (host % 2, host % 2 + 2)
        assert s.stacks == tuple(1050 if seat in others else 950 for seat in range(4))
        assert CODEC.dump_view(view_for(s, None))["forfeited"] == list(s.forfeited)


def abandon(t: Table, *people: int) -> list[tuple[str, str, int, str]]:
    """The people at ``people`` go away and the services close the table as abandoned: the
    chip movements of that close."""
    for seat in people:
        t.act(None, SetConnected(seat, False))
    t.now += ABANDON_MS
    return moves(t, None, CloseTable(ABANDON_MS))


ABANDON_MS = 300_000


def test_scenario_46_the_odd_cents() -> None:
    # Seat 3 (R) leaves between hands, forfeiting its stake: the game waits with three seats
    # and a pot of 200; then the people of both partnerships abandon it: nobody forfeits.
    t, _ = staked(stake=50, interlude_ms=5_000)
    finish_hand(t)
    assert moves(t, R, Leave()) == []
    assert t.state.pot == 200 and t.phase() in (Phase.INTERLUDE, Phase.WAITING)
    returned = abandon(t, D, L, P)
    # From the first dealer's left (seat 1) round the table: seats 1, 2, 0 share 200.
    assert returned == [
        ("pot", "wallet:p0", 66, "stake_return"),
        ("pot", "wallet:p1", 67, "stake_return"),
        ("pot", "wallet:p2", 67, "stake_return"),
    ]
    assert t.state.payouts == (66, 67, 67, 0) and t.state.pot == 0
    assert t.state.forfeited == () and t.state.winner is None
    assert split(7, (0, 2), 3) == (4, 0, 3, 0)  # from seat 3: seat 0 first
    assert split(7, (0, 2), 1) == (3, 0, 4, 0)  # from seat 1: seat 2 first


def play_to_end(t: Table) -> None:
    """Play hands by the defaults (the result's pause let run out) until the game ends."""
    while t.phase() is not Phase.ENDED:
        if t.phase() is Phase.INTERLUDE:
            t.expire()
        else:
            finish_hand(t)


def test_scenario_47_leaving_forfeits_the_stake_the_newcomer_plays_for_the_seat() -> None:
    # P leaves during the hand that ends the game: the pot is paid before P is vacated.
    t, _ = staked(stake=50, target=1)
    t.rig(BASIC, BASIC_TURN_UP)
    t.act(P, Leave())
    order(t, L, discard="KC")
    play_by_default(t)
    s = t.state
    assert s.phase is Phase.ENDED and s.winner is not None and s.players[P] is None
    assert s.payouts == tuple(100 if seat % 2 == s.winner else 0 for seat in range(4))
    ended = next(i for i, e in enumerate(t.events) if isinstance(e, ev.GameEnded))
    assert any(isinstance(e, ev.SeatLeft) and e.seat == P for e in t.events[ended:])

    # R leaves between hands: R's stake stays in the pot; a newcomer pays nothing and plays
    # for the seat, sharing the pot if R's team wins.
    t, _ = staked(stake=50, target=3, interlude_ms=5_000)
    finish_hand(t)
    assert t.phase() is Phase.INTERLUDE
    assert moves(t, R, Leave()) == []
    t.expire()  # the result's pause ends: the game waits for a fourth player
    assert t.state.players[R] is None and t.state.pot == 200 and t.phase() is Phase.WAITING
    assert moves(t, None, TakeSeat(R, Player("p9", "Newcomer"), 500)) == []
    assert t.state.stacks[R] == 500 and t.phase() is Phase.ORDER
    play_to_end(t)
    s = t.state
    assert s.winner is not None and s.pot == 0
    assert s.payouts == tuple(100 if seat % 2 == s.winner else 0 for seat in range(4))
    assert chips(t) == 4000 - 950 + 500  # the leaver took 950 away; the newcomer brought 500


def test_scenario_48_a_table_closed_by_no_player_gives_the_stakes_back() -> None:
    t, _ = staked(stake=50)
    t.act(None, CloseTable(0))
    assert t.state.closing and t.phase() is Phase.ORDER  # it closes at the hand's end
    _, returned = closed_by_defaults(t)
    assert returned == [("pot", f"wallet:p{seat}", 50, "stake_return") for seat in range(4)]
    assert t.state.end_reason == "closed" and t.state.pot == 0 and t.state.forfeited == ()


# The pot a forfeit by D's partnership (D a person, P a bot) pays: 100 to each bot of team 1.
BOTS_WIN = [("pot", f"wallet:b{seat}", 100, "euchre_win") for seat in (L, R)]


def test_scenario_49_the_last_person_leaving_mid_hand_forfeits() -> None:
    t, _ = staked(stake=50, bots=(1, 2, 3))
    t.act(D, Leave())
    assert t.state.leaving[D] and t.state.players[D] is not None
    events, returned = closed_by_defaults(t)
    ended = next(e for e in events if isinstance(e, ev.GameEnded))
    assert returned == BOTS_WIN
    assert ended.forfeited == (D, P) and ended.winner == 1 and ended.reason == "closed"
    assert all(p is None for p in t.state.players) and t.state.pot == 0


def test_scenario_50_the_last_person_leaving_between_hands_forfeits() -> None:
    t, _ = staked(stake=50, bots=(1, 2, 3), interlude_ms=5_000)
    finish_hand(t)
    assert t.phase() is Phase.INTERLUDE
    assert moves(t, D, Leave()) == BOTS_WIN
    assert t.state.phase is Phase.CLOSED and t.state.pot == 0
    assert t.state.forfeited == (D, P) and t.state.payouts == (0, 100, 0, 100)


def test_scenario_51_the_table_fills_a_seat_left_during_a_game() -> None:
    lobby = Table()
    lobby.act(P, Leave())
    lobby.refuse(None, AddBot(P, Player("b9", "Robot", "medium"), 0), "not_host")
    t = basic()
    t.act(P, Leave())
    order(t, L, discard="KC")
    play_by_default(t)
    assert t.state.players[P] is None and t.state.phase is Phase.WAITING
    t.act(None, AddBot(P, Player("b9", "Robot", "medium"), 0))
    seated = t.state.players[P]
    assert seated is not None and seated.bot == "medium"
    assert t.phase() is Phase.ORDER and t.state.hand_no == 2


def test_scenario_52_an_abandoned_table_is_forfeited_by_its_people() -> None:
    # One person with three bots goes away between hands; the services close the table.
    t, _ = staked(stake=50, bots=(1, 2, 3), interlude_ms=5_000)
    finish_hand(t)
    assert abandon(t, D) == BOTS_WIN
    s = t.state
    assert s.phase is Phase.CLOSED and s.end_reason == "closed" and s.forfeited == (D, P)
    # Gone during a hand, the table closes when that hand ends, with the same forfeit.
    t, _ = staked(stake=50, bots=(1, 2, 3))
    assert abandon(t, D) == [] and t.state.closing and t.phase() is Phase.ORDER
    _, paid = closed_by_defaults(t)
    assert paid == BOTS_WIN and t.state.forfeited == (D, P)
