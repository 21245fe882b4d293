"""Engine behaviour beyond the acceptance scenarios: reasons, blindness, timeouts, lifecycle, JSON.

Seats: D (seat 0) deals the first hand, L is the dealer's left, then M, N clockwise.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.games import lifecycle as lc
from shared.games.interface import IllegalCommand
from shared.games.registry import game
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import parse
from shared.games.swick.codec import CODEC
from shared.games.swick.legal import default_action, legal_actions, to_act
from shared.games.swick.state import Phase
from shared.games.swick.views import view_for
from tests.engine.support import Table, cards
from tests.engine.test_scenarios import in_tricks, play_hands, random_policy, settled, started

D, L, M, N = range(4)
STACK = 10_000
TIMER = 10_000
GRACE = 3_000


def reasons(t: Table, seat: int) -> dict[str, str]:
    """Each card option of ``seat`` by code, with its reason ("" when legal)."""
    out: dict[str, str] = {}
    for option in legal_actions(t.state, seat):
        assert isinstance(option.action, ac.PlayCard)
        assert option.legal == (option.reason == "")
        out[CODEC.dump_action(option.action)["card"]] = option.reason
    return out


def finish_hand(t: Table) -> None:
    """Play the hand in progress to its end by the table's defaults."""
    hand = t.state.hand_no
    while t.state.hand_no == hand and t.state.order:
        seat = to_act(t.state)[0]
        t.act(seat, default_action(t.state, seat))


def others_knock_and_keep_their_cards(t: Table) -> None:
    """L and M knock and draw nothing, which brings a three-seat hand to the dealer's knock."""
    for seat in (L, M):
        t.act(seat, ac.Knock(True))
    for seat in (L, M):
        t.act(seat, ac.Draw(()))


# Reasons given for illegal options.


HIGHER_DEAL = {D: "10S QS 9H", L: "9S 7H 7C", M: "JS 8S 8H"}
FOLLOW_DEAL = {D: "10S 8S 9H", L: "JS 7H 7C", M: "QS 8H 8C"}


@pytest.mark.parametrize(
    ("hands", "plays", "seat", "legal", "why"),
    [
        (HIGHER_DEAL, [(L, "9S")], M, "JS", "You must play a higher ♠: you hold J♠"),
        (HIGHER_DEAL, [(L, "9S"), (M, "JS")], D, "QS", "You must play a higher ♠: you hold Q♠"),
        (FOLLOW_DEAL, [(L, "JS"), (M, "QS")], D, "10S 8S", "You must follow ♠: you hold 10♠ 8♠"),
    ],
    ids=["must-play-higher", "higher-than-the-best-so-far", "must-follow-when-unable-to-beat"],
)
def test_reason_of_each_card(
    hands: dict[int, str], plays: list[tuple[int, str]], seat: int, legal: str, why: str
) -> None:
    """Trump ♦ (the 7♦ turned): after ``plays``, ``seat`` may play the ``legal`` cards, and every
    other card it holds gives the reason ``why``."""
    t = in_tricks(hands, "7D")
    t.play(*plays)
    held = hands[seat].split()
    assert reasons(t, seat) == {card: "" if card in legal.split() else why for card in held}


def test_reason_void_must_trump_and_first_lead_ace() -> None:
    t = in_tricks({D: "7D KC 8H", L: "AD 9S 7C", M: "8D QD AC"}, "KD")
    why = "You must lead the A♦: the first trick opens with the Ace of trump"
    assert reasons(t, L) == {"AD": "", "9S": why, "7C": why}
    t.play((L, "AD"), (M, "8D"), (D, "7D"))  # trump led: M cannot beat it, any ♦ will do
    assert settled_trick_winner(t) == L
    assert reasons(t, L) == {"9S": "", "7C": ""}  # only trick 1 must open with the Ace
    t.play((L, "9S"))
    why = "You have no ♠, so you must play a trump (♦)"
    assert reasons(t, M) == {"QD": "", "AC": why}


def settled_trick_winner(t: Table) -> int:
    assert not t.state.trick
    winner = t.state.turn
    assert winner is not None
    return winner


def test_reason_kept_trump_and_ante_cover() -> None:
    t = started(stack=10)
    dealer_options = legal_actions(t.state, D)
    assert [(o.action, o.legal, o.reason) for o in dealer_options] == [
        (ac.ChooseAnte(3), True, ""),
        (ac.ChooseAnte(6), True, ""),
        (ac.ChooseAnte(9), False, "You would pay 12¢ and you have 10¢"),
        (ac.ChooseAnte(12), False, "You would pay 15¢ and you have 10¢"),
        (ac.ChooseAnte(15), False, "You would pay 18¢ and you have 10¢"),
    ]
    t.refuse(D, ac.ChooseAnte(9), "cannot_cover")
    t.refuse(D, ac.ChooseAnte(4), "bad_ante")
    t.rig({D: "8C JD 9H", L: "7C 8H 9C", M: "7D 8D 9D"}, trump="KS")
    t.to_tricks(keep=True, fourth=None, face_play=None)
    assert t.state.phase is Phase.DEALER_DISCARD
    options = {o.action: o for o in legal_actions(t.state, D)}
    kept = options[ac.DiscardFourth(parse("KS"))]
    assert not kept.legal
    assert kept.reason == "The kept trump card K♠ can never be discarded"
    assert all(o.legal for a, o in options.items() if a != ac.DiscardFourth(parse("KS")))


def seat_with_stacks(stacks: dict[int, int], seats: int = 3, stack: int = STACK) -> Table:
    """A table in the lobby whose seats hold these stacks (the others ``stack``)."""
    t = Table(seats, stack)
    for seat, amount in stacks.items():
        player = t.state.players[seat]
        assert player is not None
        t.act(seat, lc.Leave())
        t.act(None, lc.TakeSeat(seat, player, amount))
    return t


def test_dealer_is_offered_only_antes_three_players_can_cover() -> None:
    t = seat_with_stacks({M: 8}, seats=4)
    t.act(N, lc.SitOut(True))
    t.start()
    assert t.state.dealer == D
    options = [(o.action, o.legal, o.reason) for o in legal_actions(t.state, D)]
    assert options == [
        (ac.ChooseAnte(3), True, ""),
        (ac.ChooseAnte(6), True, ""),
        (ac.ChooseAnte(9), False, "Only 2 players can cover 9¢: a hand needs 3"),
        (ac.ChooseAnte(12), False, "Only 2 players can cover 12¢: a hand needs 3"),
        (ac.ChooseAnte(15), False, "Only 2 players can cover 15¢: a hand needs 3"),
    ]
    refused = t.refuse(D, ac.ChooseAnte(15), "too_few_cover")
    assert refused.message == "Only 2 players can cover 15¢: a hand needs 3"
    t.ready_all(ante=6)
    assert t.state.order == (L, M, D)


def test_a_player_sitting_out_during_the_ante_can_stop_the_hand() -> None:
    t = started()
    assert legal_actions(t.state, D)
    t.act(M, lc.SitOut(True))  # only D and L could be dealt in: no ante can start a hand
    assert t.state.phase is Phase.WAITING
    assert not legal_actions(t.state, D)
    t.act(M, lc.SitOut(False))
    assert t.phase() is Phase.ANTE
    assert t.state.dealer == D


def test_a_player_leaving_during_the_ante_can_stop_the_hand() -> None:
    t = started()
    t.act(L, lc.Leave())
    assert t.state.phase is Phase.WAITING


def test_the_game_ends_when_nobody_can_deal() -> None:
    """Three players cover the smallest ante, but none the 3¢ more a dealer pays."""
    t = seat_with_stacks({L: 3, M: 3}, stack=6)
    t.start()
    assert t.state.dealer == D  # the only seat that can deal
    t.rig({D: "AH 8C 8D", L: "9H AC 9D", M: "10H 9C AD"}, trump="7S")
    t.to_tricks()
    t.play((L, "9H"), (M, "10H"), (D, "AH"), (D, "8C"), (L, "AC"), (M, "9C"))
    t.play((L, "9D"), (M, "AD"), (D, "8D"))
    assert settled(t).tricks == (1, 1, 1)
    assert t.state.stacks == (4, 4, 4)
    assert t.state.phase is Phase.ENDED
    assert t.state.end_reason == "no_dealer"
    assert [s.net for s in t.state.standings] == [1, 1, -2]
    view = view_for(t.state, L)
    assert (view.end_reason, view.seed) == ("no_dealer", t.seed)
    ended = [e for e in t.events if isinstance(e, ev.GameEnded)]
    assert [e.reason for e in ended] == ["no_dealer"]


def test_dealer_draw_options_never_discard_the_kept_trump() -> None:
    t = started()
    t.rig({D: "8C JD 9H", L: "7C 8H 9C", M: "7D 8D 9D"}, trump="KS")
    t.act(D, ac.DecideTrump(keep=True))
    others_knock_and_keep_their_cards(t)
    t.act(D, ac.Knock(True))
    options = legal_actions(t.state, D)
    assert len(options) == 1 + 4 + 6 + 4  # every way to discard 0 to 3 of 4 cards
    for option in options:
        assert isinstance(option.action, ac.Draw)
        assert option.legal == (parse("KS") not in option.action.discards)


def test_nobody_else_has_options() -> None:
    t = started()
    t.ready_all()
    assert legal_actions(t.state, L) == []
    assert view_for(t.state, L).options == ()
    assert [o.action for o in legal_actions(t.state, D)] == [
        ac.DecideTrump(keep=True),
        ac.DecideTrump(keep=False),
    ]


# Tricks.


def test_trump_led_must_be_beaten_when_possible_and_highest_trump_wins() -> None:
    t = in_tricks({D: "AD 7S 8S", L: "9D 9S 9C", M: "JD 10D AS"}, "KD")
    t.play((L, "9D"))
    assert {code for code, why in reasons(t, M).items() if not why} == {"JD", "10D"}
    t.play((M, "10D"))
    assert {code for code, why in reasons(t, D).items() if not why} == {"AD"}
    t.play((D, "AD"))
    assert settled_trick_winner(t) == D
    t.play((D, "7S"), (L, "9S"), (M, "AS"))  # an off-suit high card never wins
    assert settled_trick_winner(t) == M


def test_special_hand_check_runs_after_the_dealer_passes() -> None:
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 8S 9S", M: "AS AH AC"}, trump="8D")
    t.to_tricks(dealer_knocks=False)
    result = settled(t)
    assert result.ending == "special"
    assert result.special is not None
    assert result.special.seat == M
    assert result.sets == ("", "single", "")
    assert result.delta == (-6, -15, 9)


def test_one_survivor_never_reaches_the_special_check() -> None:
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 7H 7C", M: "AS AH AC"}, trump="8D")
    t.to_tricks(passes={M}, dealer_knocks=False)
    result = settled(t)
    assert result.ending == "last_standing"
    assert result.special is None
    assert result.payouts == (0, 12, 0)


def test_special_hand_sets_a_low_trump_dealer_single() -> None:
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 7H 7C", M: "8S 9S 10C"}, trump="9D")
    t.to_tricks(keep=True, fourth="9H")
    result = settled(t)
    assert result.special is not None
    assert result.special.kind == "three_sevens"
    assert result.sets == ("single", "", "single")
    assert result.penalties == (12, 0, 12)


def test_set_single_with_two_left_plays_the_tricks_without_the_dealer() -> None:
    t = started()
    t.rig({D: "7H 10C 9D", L: "AH KH 7C", M: "8H 8C 8D"}, trump="AS")
    t.to_tricks(keep=True, fourth="7H", face_play=False)
    assert t.state.status[D] == "dropped"
    assert t.state.in_hand() == [L, M]
    t.play((L, "AH"), (M, "8H"), (L, "KH"), (M, "8D"), (L, "7C"), (M, "8C"))
    result = settled(t)
    assert result.ending == "tricks"
    assert result.sets == ("single", "", "")
    assert result.penalties == (12, 0, 0)
    assert result.payouts == (0, 8, 4)
    assert result.delta == (-18, 5, 1)
    assert result.carry_out == 12


def test_kept_trump_card_counts_in_a_special_hand() -> None:
    t = started()
    t.rig({D: "AS AH 7C", L: "8H 9H 10H", M: "8S 9S 10S"}, trump="AD")
    t.to_tricks(keep=True, fourth="7C", face_play=True)
    result = settled(t)
    assert result.special is not None
    assert (result.special.seat, result.special.kind) == (D, "three_aces")
    assert result.sets == ("", "single", "single")
    assert result.delta == (6, -15, -15)


def test_no_deal_with_fewer_than_three_ready() -> None:
    t = started(4)
    t.act(D, ac.ChooseAnte(3))
    t.act(L, ac.Ready())
    t.act(M, lc.SitOut(True))
    t.act(N, lc.SitOut(True))
    assert t.state.phase is Phase.WAITING
    assert not any(isinstance(e, ev.HandDealt) for e in t.events)
    assert t.state.stacks == (STACK,) * 4  # nobody paid an ante
    t.act(N, lc.SitOut(False))
    assert t.phase() is Phase.ANTE
    assert t.state.dealer == D


def test_a_hand_too_few_ready_for_passes_the_deal() -> None:
    t = started(4)
    t.act(D, ac.ChooseAnte(3))
    t.act(L, ac.Ready())
    t.act(M, ac.SkipHand())
    t.act(N, ac.SkipHand())
    assert not any(isinstance(e, ev.HandDealt) for e in t.events)
    assert t.state.stacks == (STACK,) * 4
    assert (t.phase(), t.state.dealer, t.state.hand_no) == (Phase.ANTE, L, 0)
    assert t.state.candidates == (M, N, D)


def test_a_free_ride_nobody_readies_for_passes_the_deal_and_asks_its_dealer() -> None:
    """Opened again by the same dealer, a free ride whose others all skip would never ask that
    dealer anything, and a table left to its timers would loop for ever."""
    t = timed(3)
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="AS")
    t.to_tricks(passes={M})
    t.play((L, "7C"), (D, "7H"), (L, "8C"), (D, "8H"), (L, "9C"), (D, "9H"))
    settled(t)
    assert (t.state.free_ride, t.state.dealer, t.state.candidates) == (True, L, (M, D))
    events = t.expire()
    assert {ev.TimedOut(M), ev.TimedOut(D)} <= set(events)
    assert (t.state.free_ride, t.state.dealer, t.state.candidates) == (True, M, (D, L))


def test_set_player_in_debt_is_not_dealt_in() -> None:
    t = started(4, stack=12)
    hands = {L: "AH AC 7D", M: "8H 8C 8D", N: "9S 10S JS", D: "9H 9C AD"}
    t.rig(hands, trump="7S")
    t.to_tricks(passes={N})
    t.play((L, "AH"), (M, "8H"), (D, "9H"), (L, "AC"), (M, "8C"), (D, "9C"))
    t.play((L, "7D"), (M, "8D"), (D, "AD"))
    result = settled(t)
    assert result.penalties == (0, 0, 15, 0)  # charged in full...
    assert t.state.stacks[M] == -6  # ...even below zero
    assert t.state.free_ride
    assert t.state.dealer == L
    assert t.state.candidates == (N, D)  # M must clear the debt first
    t.ready_all(ante=None)
    assert t.state.order == (N, D, L)


# The dealer is blind.


def test_dealer_blind_in_view_until_the_dealer_knock() -> None:
    t = started()
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="KS")
    assert view_for(t.state, D).hand == (None, None, None)
    assert view_for(t.state, L).hand == cards("7C 8C 9C")
    t.act(D, ac.DecideTrump(keep=False))
    for seat in (L, M):
        t.act(seat, ac.Knock(True))
        assert view_for(t.state, D).hand == (None, None, None)
    for seat in (L, M):
        assert view_for(t.state, D).hand == (None, None, None)
        t.act(seat, ac.Draw(()))
    assert t.state.phase is Phase.DEALER_KNOCK
    assert view_for(t.state, D).hand == cards("7H 8H 9H")
    t.act(D, ac.Knock(True))
    assert view_for(t.state, D).hand == cards("7H 8H 9H")
    assert view_for(t.state, None).hand == ()


def test_blind_dealer_sees_only_the_kept_trump() -> None:
    t = started()
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="QS")
    t.act(D, ac.DecideTrump(keep=True))
    view = view_for(t.state, D)
    assert view.hand == (None, None, None, parse("QS"))
    assert view.seats[D].cards == 4
    dumped = json.dumps(CODEC.dump_view(view))
    assert all(code not in dumped for code in ('"7H"', '"8H"', '"9H"'))


# Timeouts (rules §3).


def timed(seats: int = 3, **options: Any) -> Table:
    return started(seats, timer_ms=TIMER, **options)


def test_timeout_ante_takes_the_minimum() -> None:
    t = timed(antes=(6, 12))
    assert t.state.deadline == TIMER
    events = t.expire()
    assert ev.TimedOut(D) in events
    assert t.state.ante == 6
    assert t.state.phase is Phase.READY


def test_timeout_ready_skips_the_hand() -> None:
    t = timed(4)
    t.act(D, ac.ChooseAnte(3))
    t.act(L, ac.Ready())
    t.act(M, ac.Ready())
    events = t.expire()
    assert ev.TimedOut(N) in events
    assert ev.HandSkipped(N) in events
    assert not t.state.sitting_out[N]
    assert t.state.phase is Phase.TRUMP
    assert t.state.order == (L, M, D)
    assert t.state.antes[N] == 0


def test_timeout_ready_sits_out_only_this_hand() -> None:
    t = timed(4)
    t.act(D, ac.ChooseAnte(3))
    t.act(L, ac.Ready())
    t.act(M, ac.Ready())
    t.expire()
    t.to_tricks(passes={L, M})  # the hand ends at once
    assert t.state.dealer == L
    assert N in t.state.candidates  # asked to ready up again for the next hand


def test_timeout_trump_leaves_it() -> None:
    t = timed()
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="AS")
    t.expire()
    assert not t.state.kept
    assert t.state.hands[D] == cards("7H 8H 9H")
    assert t.state.phase is Phase.KNOCK


def test_timeout_knock_passes() -> None:
    t = timed()
    t.ready_all()
    t.act(D, ac.DecideTrump(keep=False))
    t.act(L, ac.Knock(True))
    events = t.expire()
    assert ev.Knocked(M, False) in events
    assert t.state.status[M] == "passed"
    assert t.state.phase is Phase.DRAW


@pytest.mark.parametrize(("keep", "knocks"), [(True, True), (False, False)])
def test_timeout_dealer_knock_knocks_only_with_a_kept_trump(keep: bool, knocks: bool) -> None:
    t = timed()
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="10S")
    t.act(D, ac.DecideTrump(keep))
    others_knock_and_keep_their_cards(t)
    assert t.state.phase is Phase.DEALER_KNOCK
    events = t.expire()
    assert ev.Knocked(D, knocks) in events
    assert t.state.phase is (Phase.DEALER_DRAW if knocks else Phase.TRICKS)
    assert t.state.early_sets[D] == ""


def test_timeout_draw_keeps_all_cards() -> None:
    t = timed()
    t.rig({D: "7H 8H 9H", L: "7C 8C 9C", M: "7D 8D JD"}, trump="10S")
    t.act(D, ac.DecideTrump(keep=False))
    for seat in (L, M):
        t.act(seat, ac.Knock(True))
    stock = t.state.stock
    events = t.expire()
    assert ev.Drew(L, (), ()) in events
    assert t.state.hands[L] == cards("7C 8C 9C")
    assert t.state.stock == stock
    assert t.state.drawn[L] == 0
    assert t.state.turn == M


@pytest.mark.parametrize(
    ("dealt", "discarded"),
    [
        ("7H 8S 8C", "7H"),  # the kept K♥ is never taken; the rank first: 7♥ before 8♣
        ("9C 8S 8H", "8S"),  # among equal ranks a non-trump before a trump (♥)
        ("8S 9D 8C", "8C"),  # then the suit order: ♣ before ♠
        ("10H 9H 8H", "8H"),  # only trumps left: the lowest of them
    ],
)
def test_timeout_dealer_fourth_card_discards_the_lowest(dealt: str, discarded: str) -> None:
    t = timed()
    t.rig({D: dealt, L: "7C 10C JC", M: "7D 8D JD"}, trump="KH")
    t.act(D, ac.DecideTrump(keep=True))
    others_knock_and_keep_their_cards(t)
    t.act(D, ac.Knock(True))
    events = t.expire()  # one deadline: keep all, then discard the lowest
    assert ev.Drew(D, (), ()) in events
    assert ev.DealerDiscarded(parse(discarded)) in events
    assert events.count(ev.TimedOut(D)) == 1
    assert parse("KH") in t.state.hands[D]
    assert len(t.state.hands[D]) == 3


def test_timeout_face_trump_plays() -> None:
    t = timed()
    t.rig({D: "7H 8H 9H", L: "7C 10C 9C", M: "7D 8D JD"}, trump="QS")
    t.to_tricks(keep=True, fourth="7H", face_play=None)
    assert t.state.phase is Phase.FACE_TRUMP
    events = t.expire()
    assert ev.FaceTrumpDecided(True) in events
    assert t.state.face_play
    assert t.state.status[D] == "in"


@pytest.mark.parametrize(
    ("lead", "played"),
    [
        ("7D 9S 8H", "7D"),  # the lowest rank, even a trump (♦): 7♦ before 8♥
        ("8D 9S 8H", "8H"),  # among equal ranks a non-trump before a trump
        ("8S 8H 9C", "8H"),  # then the suit order: ♥ before ♠
        ("AD 7C 7H", "AD"),  # the first lead must be the Ace of trump
    ],
)
def test_timeout_lead_plays_the_lowest_legal_card(lead: str, played: str) -> None:
    t = timed()
    t.rig({D: "QS QH QC", L: lead, M: "JS JH JC"}, trump="KD")
    t.to_tricks()
    events = t.expire()
    assert ev.CardPlayed(L, parse(played)) in events


def test_timeout_follow_plays_the_lowest_legal_card() -> None:
    t = timed()
    t.rig({D: "8H 10D 8D", L: "8C AS 9S", M: "9C JC 7H"}, trump="KD")
    t.to_tricks()
    t.play((L, "8C"))
    events = t.expire()
    assert ev.CardPlayed(M, parse("9C")) in events  # 7♥ is lower but may not be played
    events = t.expire()
    assert ev.CardPlayed(D, parse("8D")) in events  # void in ♣: the lowest trump


def test_two_timeouts_in_a_row_mark_a_seat_away() -> None:
    t = timed()
    t.rig({D: "7H 8H 10H", L: "AH 8C 8D", M: "9H AC 9D"}, trump="10S")
    t.expire()  # D's trump decision: leave
    assert t.state.timeouts[D] == 1
    assert not t.state.away(D)
    others_knock_and_keep_their_cards(t)
    assert t.state.deadline == t.now + TIMER  # not away yet: the full timer
    t.expire()  # D's knock: passes
    assert t.state.away(D)
    assert view_for(t.state, L).seats[D].away
    t.play((L, "AH"), (M, "9H"), (L, "8C"), (M, "AC"), (M, "9D"), (L, "8D"))
    assert settled(t).sets == ("", "", "")
    assert t.state.dealer == L
    t.act(L, ac.ChooseAnte(3))
    t.act(M, ac.Ready())
    assert to_act(t.state) == (D,)
    assert t.state.deadline == t.now + GRACE  # only an away seat is pending: a short grace
    t.act(D, ac.Ready())  # acting again clears it
    assert not t.state.away(D)
    assert t.state.deadline == t.now + TIMER


def test_an_away_seat_that_says_it_is_back_gets_the_full_timer() -> None:
    t = timed()
    t.rig({D: "7H 8H 10H", L: "AH 8C 8D", M: "9H AC 9D"}, trump="10S")
    t.expire()  # D's trump decision: leave
    others_knock_and_keep_their_cards(t)
    t.expire()  # D's knock: passes, and D is away
    t.play((L, "AH"), (M, "9H"), (L, "8C"), (M, "AC"), (M, "9D"), (L, "8D"))
    t.act(L, ac.ChooseAnte(3))
    t.act(M, ac.Ready())
    assert t.state.deadline == t.now + GRACE
    assert view_for(t.state, D).seats[D].timeouts == 2
    t.act(D, lc.SitOut(sitting_out=False))  # "I'm back"
    assert not t.state.away(D) and not t.state.sitting_out[D]
    assert view_for(t.state, L).seats[D].timeouts == 0
    assert t.state.deadline == t.now + TIMER
    t.refuse(D, lc.SitOut(sitting_out=False), "no_change")  # present already


def test_acting_between_timeouts_resets_the_count() -> None:
    t = timed()
    t.ready_all()
    t.expire()  # D's trump decision
    others_knock_and_keep_their_cards(t)
    t.act(D, ac.Knock(True))
    assert t.state.timeouts[D] == 0
    t.expire()  # D's draw
    assert not t.state.away(D)


def test_disconnected_seat_is_away_and_decided_after_the_grace() -> None:
    t = timed()
    t.ready_all()
    t.act(D, ac.DecideTrump(keep=False))
    t.refuse(L, lc.SetConnected(L, False), "not_allowed")
    t.act(None, lc.SetConnected(M, False))
    assert t.state.away(M)
    t.act(L, ac.Knock(True))
    assert t.state.deadline == t.now + GRACE
    t.refuse(None, lc.SetConnected(M, False), "no_change")
    t.act(None, lc.SetConnected(M, True))
    assert not t.state.away(M)


def test_no_deadline_without_a_timer() -> None:
    t = started()
    t.ready_all()
    assert t.state.deadline is None
    t.now = 10**9
    t.refuse(None, lc.Timeout(), "not_due")


# Lifecycle.


def test_host_leaving_between_hands_hands_over_to_the_next_person() -> None:
    t = started(4)
    assert t.state.host == D
    assert t.state.phase is Phase.ANTE
    events = t.act(D, lc.Leave())
    assert ev.SeatLeft(D) in events
    assert ev.HostChanged(L) in events
    assert t.state.players[D] is None
    assert t.state.stacks[D] == 0
    assert t.state.dealer == L  # the dealer left before the deal: the next seat deals
    assert t.state.phase is Phase.ANTE


def test_host_hand_over_skips_bots() -> None:
    t = started(4)
    t.act(L, lc.Leave())
    bot = lc.Player("bot-1", "Robo", bot="easy")
    t.refuse(L, lc.AddBot(L, bot, 100), "not_seated")
    t.refuse(M, lc.AddBot(L, bot, 100), "not_host")
    t.act(D, lc.AddBot(L, bot, 100))
    assert t.state.players[L] == bot
    t.refuse(D, lc.HandOverHost(L), "bad_seat")  # a bot cannot host
    t.refuse(D, lc.HandOverHost(D), "bad_seat")
    t.act(D, lc.Leave())
    assert t.state.host == M


def test_hand_over_host() -> None:
    t = started()
    t.refuse(L, lc.HandOverHost(M), "not_host")
    t.act(D, lc.HandOverHost(M))
    assert t.state.host == M
    t.refuse(D, lc.EndGame(), "not_host")


def test_leaving_mid_hand_plays_on_and_frees_the_seat_after_it() -> None:
    t = timed()
    t.ready_all()
    t.act(D, ac.DecideTrump(keep=False))
    t.act(L, ac.Knock(True))
    events = t.act(L, lc.Leave())
    assert events[1:] == [ev.LeavingAfterHand(L)]
    assert t.state.players[L] is not None
    assert t.state.away(L)
    t.refuse(L, lc.Leave(), "no_change")
    t.act(M, ac.Knock(True))
    assert to_act(t.state) == (L,)
    assert t.state.deadline == t.now + GRACE
    t.expire()  # L's draw: keep all
    assert t.state.drawn[L] == 0
    while t.state.order:
        seat = to_act(t.state)[0]
        if seat == L:
            t.expire()
        else:
            t.act(seat, default_action(t.state, seat))
    result = settled(t)
    assert result.antes[L] == 3
    assert sum(result.delta) + result.carry_out - result.carry_in == 0
    assert t.state.players[L] is None
    assert t.state.phase is Phase.WAITING  # two players left
    assert t.state.carry == result.carry_out  # the carry stays with the table
    assert t.state.host == D


def test_table_below_three_waits_and_keeps_its_carry() -> None:
    t = in_tricks({D: "9H 9C AD", L: "AH AC 7D", M: "8H 8C 8D"}, "7S")
    t.play((L, "AH"), (M, "8H"), (D, "9H"), (L, "AC"), (M, "8C"), (D, "9C"))
    t.play((L, "7D"), (M, "8D"), (D, "AD"))
    assert t.state.carry == 12
    t.act(M, lc.Leave())  # between hands: nothing lost beyond the hand already played
    t.act(D, ac.Ready())
    assert t.state.phase is Phase.WAITING
    assert t.state.carry == 12
    t.refuse(D, lc.EndGame(), "carry_outstanding")
    t.act(D, lc.AddBot(M, lc.Player("bot-1", "Robo", bot="easy"), 100))
    assert t.phase() is Phase.READY
    assert t.state.free_ride
    assert t.state.candidates == (M, D)


def test_sit_out_and_come_back() -> None:
    t = started(4)
    t.act(N, lc.SitOut(True))
    t.refuse(N, lc.SitOut(True), "no_change")
    t.ready_all()
    assert t.state.order == (L, M, D)
    t.act(N, lc.SitOut(False))
    t.act(M, lc.SitOut(True))  # mid-hand: from the next hand on
    assert t.state.order == (L, M, D)
    t.to_tricks(passes={L, M})
    assert t.state.dealer == L
    t.ready_all()
    assert t.state.order == (N, D, L)


def test_taking_a_seat_only_between_hands() -> None:
    t = started(4)
    t.act(N, lc.Leave())
    t.ready_all()
    assert t.state.order == (L, M, D)
    newcomer = lc.Player("p9", "Q")
    t.refuse(None, lc.TakeSeat(N, newcomer, 100), "hand_in_progress")
    t.refuse(L, lc.TakeSeat(N, newcomer, 100), "not_allowed")
    t.to_tricks(passes={L, M})
    t.refuse(None, lc.TakeSeat(L, newcomer, 100), "seat_taken")
    t.refuse(None, lc.TakeSeat(N, lc.Player("p1", "Q"), 100), "already_seated")
    t.act(None, lc.TakeSeat(N, newcomer, 100))
    assert t.state.players[N] == newcomer


def test_end_game_only_between_hands_and_without_a_carry() -> None:
    t = started()
    t.ready_all()
    t.refuse(D, lc.EndGame(), "hand_in_progress")
    t.to_tricks(passes={L, M})
    t.act(D, lc.EndGame())
    assert t.state.phase is Phase.ENDED
    assert [s.seat for s in t.state.standings] == [D, L, M]
    assert [s.net for s in t.state.standings] == [6, -3, -3]
    assert view_for(t.state, L).seed == t.seed
    t.refuse(D, lc.EndGame(), "hand_in_progress")
    t.act(D, lc.StartGame(t.seed))
    assert t.state.game_no == 2
    assert view_for(t.state, L).seed is None


def test_envelope_refusals() -> None:
    t = started()
    t.refuse(D, ac.ChooseAnte(3), "bad_seq", seq=t.state.seq + 1)
    t.refuse(7, ac.ChooseAnte(3), "bad_seat")
    t.refuse(L, ac.ChooseAnte(3), "not_your_turn")
    t.refuse(D, ac.Knock(True), "wrong_phase")
    t.refuse(D, ac.ChooseAnte(3), "malformed", action_id="x" * 65)
    t.refuse(D, lc.StartGame(t.seed), "game_in_progress")


# JSON.


def test_state_round_trips_through_json() -> None:
    t = started(4)
    checked = 0
    for state in play_hands(t, 4, random_policy(random.Random(5))):
        data = CODEC.dump_state(state)
        assert CODEC.load_state(json.loads(json.dumps(data))) == state
        checked += 1
    assert checked > 20
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 8S 9S", M: "AS AH AC"}, trump="8D")
    t.to_tricks(dealer_knocks=False)
    assert settled(t).special is not None
    assert CODEC.load_state(CODEC.dump_state(t.state)) == t.state
    t.act(D, lc.HandOverHost(L))
    assert CODEC.load_state(CODEC.dump_state(t.state)) == t.state


def test_state_json_uses_card_codes() -> None:
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 8S 9S", M: "AS AH 10C"}, trump="8D")
    data = CODEC.dump_state(t.state)
    assert data["hands"][M] == ["AS", "AH", "10C"]
    assert data["trump_card"] == "8D"
    assert data["phase"] == "trump"


def test_events_round_trip_through_json() -> None:
    t = started(4)
    for _ in play_hands(t, 3, random_policy(random.Random(6))):
        pass
    t.act(L, lc.SitOut(True))
    t.act(None, lc.SetConnected(M, False))
    kinds = set()
    for event in t.events:
        data = json.loads(json.dumps(CODEC.dump_event(event)))
        assert CODEC.load_event(data) == event
        kinds.add(data["kind"])
    assert {"accepted", "hand_dealt", "drew", "card_played", "hand_settled"} <= kinds
    assert t.replay(t.events) == t.state


@pytest.mark.parametrize(
    "action",
    [
        ac.ChooseAnte(9, "abc"),
        ac.Ready("xyz"),
        ac.DecideTrump(keep=True),
        ac.Knock(knock=False),
        ac.Draw(cards("10D AS")),
        ac.Draw(()),
        ac.DiscardFourth(parse("7C")),
        ac.FaceTrump(play=False),
        ac.PlayCard(parse("QH")),
        lc.TakeSeat(2, lc.Player("p2", "M"), 500),
        lc.AddBot(1, lc.Player("b1", "Robo", "easy"), 500),
        lc.Leave(),
        lc.SitOut(sitting_out=True),
        lc.SetConnected(1, connected=False),
        lc.StartGame("00" * 32),
        lc.EndGame(),
        lc.HandOverHost(2),
        lc.Timeout(),
    ],
)
def test_actions_round_trip_through_json(action: ac.Action) -> None:
    data = json.loads(json.dumps(CODEC.dump_action(action)))
    assert CODEC.load_action(data) == action


def test_action_json_shapes_and_malformed_input() -> None:
    assert CODEC.dump_action(ac.Draw(cards("10D AS"))) == {
        "discards": ["10D", "AS"],
        "kind": "draw",
    }
    assert CODEC.load_action({"kind": "play", "card": "QH"}) == ac.PlayCard(parse("QH"))
    assert CODEC.load_action({"kind": "draw", "discards": ["AS"]}) == ac.Draw(cards("AS"))
    for bad in ({"kind": "play", "card": "1X"}, {"kind": "nope"}, {"card": "AS"}, "AS"):
        with pytest.raises(IllegalCommand) as refused:
            CODEC.load_action(bad)
        assert refused.value.code == "malformed"


@pytest.mark.parametrize(
    "coerced",
    [
        {"kind": "knock", "knock": "no"},
        {"kind": "knock", "knock": 0},
        {"kind": "trump", "keep": "true"},
        {"kind": "sit_out", "sitting_out": 1},
        {"kind": "play", "card": 30},
        {"kind": "play", "card": "qh"},
        {"kind": "play", "card": " AS"},
        {"kind": "discard", "card": True},
        {"kind": "draw", "discards": [31]},
        {"kind": "draw", "discards": "AS"},
        {"kind": "ante", "amount": "3"},
        {"kind": "ante", "amount": 3.0},
        {"kind": "ante", "amount": True},
        {"kind": "hand_over_host", "seat": "1"},
    ],
)
def test_actions_are_typed_strictly_not_coerced(coerced: dict[str, object]) -> None:
    """A wrongly typed field is malformed: ``"knock": "no"`` is no pass, ``30`` is no K♠."""
    with pytest.raises(IllegalCommand) as refused:
        CODEC.load_action(coerced)
    assert refused.value.code == "malformed"
    assert refused.value.message


def test_views_dump_to_json() -> None:
    t = started()
    t.rig({D: "KH QH 9H", L: "7S 8S 9S", M: "AS AH 10C"}, trump="8D")
    for seat in (D, L, M, None):
        data = json.loads(json.dumps(CODEC.dump_view(view_for(t.state, seat))))
        assert data["seat"] == seat
        assert data["trump_card"] == "8D"
    assert CODEC.dump_view(view_for(t.state, L))["hand"] == ["7S", "8S", "9S"]
    assert CODEC.dump_view(view_for(t.state, D))["hand"] == [None, None, None]


# The pause between hands: the result shows before the next hand asks anything.

PAUSE = 5_000


def one_hand(t: Table) -> None:
    """D leaves the trump; L and M knock and keep their cards; the three tricks are played."""
    t.rig({D: "7H 8H 10H", L: "AH 8C 8D", M: "9H AC 9D"}, trump="10S")
    t.to_tricks(dealer_knocks=False)
    t.play((L, "AH"), (M, "9H"), (L, "8C"), (M, "AC"), (M, "9D"), (L, "8D"))


def test_a_hands_result_holds_the_next_hand_until_everyone_presses_next_hand() -> None:
    t = timed(interlude_ms=PAUSE)
    one_hand(t)
    assert t.state.phase is Phase.INTERLUDE
    assert settled(t).hand_no == 1
    assert to_act(t.state) == (D, L, M)
    assert t.state.deadline == t.now + PAUSE
    assert [o.action for o in legal_actions(t.state, L)] == [ac.NextHand()]
    t.refuse(L, ac.ChooseAnte(3), "wrong_phase")  # nothing of the next hand yet
    t.act(L, ac.NextHand())
    t.refuse(L, ac.NextHand(), "not_your_turn")  # seen already: the others are looking
    t.act(D, ac.NextHand())
    assert t.state.phase is Phase.INTERLUDE and to_act(t.state) == (M,)
    t.act(M, ac.NextHand())  # the last one: the next hand opens, with a full timer
    assert (t.state.phase, t.state.dealer) == (Phase.ANTE, L)
    assert t.state.deadline == t.now + TIMER
    assert t.state.timeouts == (0, 0, 0)


def test_the_pause_ends_by_itself_and_misses_no_decision() -> None:
    t = timed(interlude_ms=PAUSE)
    one_hand(t)
    t.act(M, ac.NextHand())
    events = t.expire()
    assert ev.InterludeEnded() in events
    assert not any(isinstance(e, ev.TimedOut) for e in events)
    assert t.state.phase is Phase.ANTE and t.state.timeouts == (0, 0, 0)
    assert t.state.deadline == t.now + TIMER


def test_away_people_and_bots_hold_nothing_and_a_leaver_is_not_waited_for() -> None:
    t = timed(interlude_ms=PAUSE)
    t.act(None, lc.SetConnected(M, False))
    one_hand(t)
    assert to_act(t.state) == (D, L)  # M is away
    t.act(D, ac.NextHand())
    t.act(L, lc.Leave())  # between hands: at once
    assert t.state.phase is Phase.WAITING  # two seats left: no hand can open
    assert t.state.interlude == ()


def test_without_a_pause_the_next_hand_opens_at_once() -> None:
    t = timed()
    one_hand(t)
    assert t.state.phase is Phase.ANTE


def test_a_bad_pause_is_refused_in_the_config() -> None:
    module = game("swick")
    for bad in (-1, 30_001, 2.5, "5"):
        with pytest.raises(IllegalCommand):
            module.make_config({"seats": 3, "interlude_ms": bad})
    assert module.make_config({"seats": 3, "interlude_ms": 4_000}).interlude_ms == 4_000
    assert module.make_config({"seats": 3, "interlude_ms": 0}).interlude_ms is None
