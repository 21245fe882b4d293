"""The acceptance scenarios of the Contract Whist rules (docs/rules/contract-whist.md §11), one
test each.

Seats A, B, C, D are 0 to 3 (E is 4 at a five-seat table); A bids first in round 1 unless a
scenario says otherwise. MIXED is a rigged round-1 deal at four seats: A holds the top hearts
and clubs, B the top spades and two small hearts, C nine spades and the ace of diamonds (void
in hearts and clubs), D the middle hearts and two clubs.
"""

from __future__ import annotations

from typing import Any

from shared import fairness
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import DECK, parse
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.dealing import first_bidder
from shared.games.contract_whist.legal import default_action, legal_actions
from shared.games.contract_whist.money import split, transfers
from shared.games.contract_whist.play import closest_bid, default_trump, estimate
from shared.games.contract_whist.record import dump_record, game_record, load_record, verify
from shared.games.contract_whist.state import SCHEDULE, Phase, RoundResult
from shared.games.contract_whist.views import view_for
from shared.games.interface import IllegalCommand
from shared.games.lifecycle import (
    AddBot,
    CloseTable,
    EndGame,
    Leave,
    Player,
    SetConnected,
    SitOut,
    StartGame,
    TakeSeat,
)
from tests.engine.contract_whist.support import Table, cards, cards_in_json

A, B, C, D, E = range(5)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

MIXED = {
    A: "AH KH QH 2C 3C 4C 5C 6C 7C 8C",
    B: "2H 3H AS KS QS JS 2D 3D 4D 5D",
    C: "2S 3S 4S 5S 6S 7S 8S 9S 10S AD",
    D: "4H 5H 6H 7H 8H 9H 10H JH 9C 10C",
}


def started(**options: Any) -> Table:
    t = Table(**options)
    t.start()
    return t


def mixed(**options: Any) -> Table:
    t = started(**options)
    t.rig(MIXED)
    return t


def mixed_in_tricks(trump: int | None, **options: Any) -> Table:
    """MIXED bid 1, 2, 3, 0, and ``trump`` chosen by C, the highest bidder: the tricks begin."""
    t = mixed(**options)
    t.bid(1, 2, 3, 0)
    t.trump(trump)
    return t


def play_out_round(t: Table) -> None:
    """Every remaining decision of the round in play, as the table's timer would take it."""
    round_no = t.state.round_no
    while t.state.phase in (Phase.BID, Phase.TRUMP, Phase.TRICKS) and t.state.round_no == round_no:
        seat = t.turn()
        t.act(seat, default_action(t.state, seat))


def to_round(t: Table, round_no: int) -> None:
    """Play rounds by the defaults until round ``round_no`` has been dealt."""
    while t.state.round_no < round_no:
        assert t.state.phase is Phase.BID
        play_out_round(t)
    assert t.state.round_no == round_no and t.phase() is Phase.BID


def result(t: Table) -> RoundResult:
    assert t.state.result is not None, "no round has been scored"
    return t.state.result


def takers(t: Table) -> tuple[int, ...]:
    """Who took each trick so far (a call, so that type checkers don't narrow it)."""
    return t.state.takers


def refuse_forbidden(t: Table, bid: int) -> IllegalCommand:
    """The last bidder, D, may not bid ``bid``: D's option says why, the views show it as
    the forbidden bid, and the bid is refused."""
    assert options(t, D)[bid] != ""
    assert view_for(t.state, None).forbidden_bid == bid
    return t.refuse(D, ac.MakeBid(bid), "forbidden_bid")


def options(t: Table, seat: int) -> dict[int, str]:
    """Each bid option of ``seat`` with its reason."""
    return {
        o.action.bid: o.reason
        for o in legal_actions(t.state, seat)
        if isinstance(o.action, ac.MakeBid)
    }


# Three-card round for the points: P0 bids first and leads. With no trumps P0 takes two tricks
# (the spades), P1 one (the heart ace takes P0's heart), P2 none.
SCORING = ("AS KS 2H", "AH 2C 3C", "2D 3D 4D")


def scoring_round(*bids: int) -> tuple[Table, tuple[int, int, int]]:
    """A three-seat table at round 8 (3 cards), rigged as SCORING, bid as given, played at no
    trumps; returns the table and the seats P0, P1, P2 in bidding order."""
    t = started(seats=3)
    to_round(t, 8)
    p0 = t.turn()
    seats = (p0, (p0 + 1) % 3, (p0 + 2) % 3)
    t.rig(dict(zip(seats, SCORING, strict=True)))
    t.bid(*bids)
    t.trump(None)
    p0, p1, p2 = seats
    t.play((p0, "AS"), (p1, "2C"), (p2, "2D"))
    t.play((p0, "KS"), (p1, "3C"), (p2, "3D"))
    t.play((p0, "2H"), (p1, "AH"), (p2, "4D"))
    assert result(t).tricks[p0] == 2 and result(t).tricks[p1] == 1
    return t, seats


# 1-4: the deal and the schedule.


def test_scenario_01_the_deal() -> None:
    t = started()
    s = t.state
    assert s.phase is Phase.BID and s.round_no == 1 and s.cards == 10
    assert all(len(hand) == 10 for hand in s.hands) and len(s.undealt) == 12
    assert sorted([*(c for h in s.hands for c in h), *s.undealt]) == list(DECK)
    assert t.turn() == A and s.bidder == A


def test_scenario_02_dealing_order_from_the_seed() -> None:
    t = started(first=2)
    seed = bytes.fromhex(t.seed)
    assert first_bidder(seed, 4) == fairness.choose_first_dealer(seed, (0, 1, 2, 3)) == C
    deck = fairness.shuffle(DECK, fairness.Stream(seed, "deal", 1))
    for k in range(40):
        assert deck[k] in t.state.hands[(C + k) % 4]
    assert t.state.hands[C][0] == deck[0] and t.state.hands[D][0] == deck[1]
    assert t.state.undealt == tuple(deck[40:])


def test_scenario_03_the_schedule_and_the_end_after_17_rounds() -> None:
    t = started()
    for _ in range(17):
        play_out_round(t)
    dealt = [e.cards for e in t.events if isinstance(e, ev.RoundDealt)]
    assert dealt == list(SCHEDULE) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    s = t.state
    assert s.phase is Phase.ENDED and s.end_reason == "rounds" and len(s.sheet) == 17
    assert s.seed == t.seed and view_for(s, A).seed == t.seed


def test_scenario_04_the_first_bidder_moves_round() -> None:
    t = started(first=3)
    bidders = []
    for _ in range(6):
        bidders.append(t.state.bidder)
        assert t.turn() == t.state.bidder
        play_out_round(t)
    assert bidders == [D, A, B, C, D, A]


# 5-10: bidding and the hook.


def test_scenario_05_bids_in_turn() -> None:
    t = mixed()
    assert set(options(t, A)) == set(range(11)) and not any(options(t, A).values())
    t.refuse(B, ac.MakeBid(1), "not_your_turn")
    t.refuse(A, ac.MakeBid(11), "bad_bid")
    t.refuse(A, ac.ChooseTrump(HEARTS), "wrong_phase")
    t.bid(2)
    assert t.turn() == B and view_for(t.state, None).bids[0].bid == 2


def test_scenario_06_the_hook_forbids_one_bid() -> None:
    t = mixed()
    t.bid(3, 2, 1)
    assert options(t, D)[4] == "The bids would total 10, the cards in each hand: someone must miss"
    assert sum(1 for why in options(t, D).values() if why) == 1
    view = view_for(t.state, D)
    assert view.forbidden_bid == 4 and view.bid_total == 6 and view.cards == 10
    refused = refuse_forbidden(t, 4)
    assert "someone must miss" in refused.message
    t.bid(5)
    assert t.phase() is Phase.TRUMP


def test_scenario_07_the_forbidden_bid_is_zero() -> None:
    t = mixed()
    t.bid(4, 3, 3)
    refuse_forbidden(t, 0)
    t.bid(1)
    assert sum(b.bid for b in t.state.bids) == 11


def test_scenario_08_the_forbidden_bid_is_all_the_cards() -> None:
    t = mixed()
    t.bid(0, 0, 0)
    refuse_forbidden(t, 10)
    t.bid(9)


def test_scenario_09_no_forbidden_bid_past_the_cards() -> None:
    t = mixed()
    t.bid(5, 4, 2)
    assert not any(options(t, D).values())
    assert view_for(t.state, None).forbidden_bid is None
    t.bid(0)
    assert t.phase() is Phase.TRUMP


def test_scenario_10_only_the_last_bidder_is_hooked() -> None:
    t = mixed()
    t.bid(10)  # already all the cards: the bidders before the last may still bid anything
    assert not any(options(t, B).values())
    t.bid(0)
    assert not any(options(t, C).values()) and view_for(t.state, None).forbidden_bid is None
    t.bid(0)
    assert view_for(t.state, None).forbidden_bid == 0  # 10 + 0 + 0 + 0 would total 10
    t.bid(1)
    assert t.state.chooser == A


# 11-14: trump.


def test_scenario_11_the_highest_bidder_chooses_trump() -> None:
    t = mixed()
    t.bid(1, 2, 3, 0)
    s = t.state
    assert s.phase is Phase.TRUMP and s.chooser == C and t.turn() == C
    choices = [o.action for o in legal_actions(s, C)]
    assert choices == [ac.ChooseTrump(suit) for suit in (CLUBS, DIAMONDS, HEARTS, SPADES, None)]
    t.trump(SPADES)
    assert t.state.trump == SPADES and not t.state.no_trumps and t.phase() is Phase.TRICKS


def test_scenario_12_a_tie_goes_to_the_earliest_bidder() -> None:
    t = started()
    to_round(t, 2)
    assert t.turn() == B
    t.bid(3, 1, 0, 3)  # B, C, D, A: B and A both bid 3; B bid first
    assert t.state.chooser == B and t.turn() == B


def test_scenario_13_no_trumps() -> None:
    t = mixed_in_tricks(None)
    s = t.state
    assert s.no_trumps and s.trump is None and s.chooser == C
    view = CODEC.dump_view(view_for(s, None))
    assert view["no_trumps"] is True and view["trump"] is None
    t.play((A, "QH"), (B, "3H"), (C, "AD"), (D, "JH"))
    assert takers(t) == (A,)  # the Q♥ leads and takes it: the A♦ is off suit, no trumps


def test_scenario_14_the_first_bidder_leads() -> None:
    t = mixed_in_tricks(SPADES)
    assert t.turn() == A  # C chose trump, A bid first and leads


# 15-18: the tricks.


def test_scenario_15_follow_suit() -> None:
    t = mixed_in_tricks(SPADES)
    t.play((A, "AH"))
    assert t.legal_cards(B) == set(cards("2H 3H"))
    assert t.reason(B, "AS") == "You must follow hearts ♥: you hold 2♥ 3♥"
    t.refuse_card(B, "AS")
    t.refuse(B, ac.PlayCard(parse("AH")), "bad_cards")
    t.play((B, "2H"))
    assert t.legal_cards(C) == set(t.state.hands[C])  # void in hearts: anything


def test_scenario_16_a_trump_wins() -> None:
    t = mixed_in_tricks(SPADES)
    t.play((A, "AH"), (B, "2H"), (C, "2S"), (D, "4H"))
    assert takers(t) == (C,)  # the lowest trump beats the ace of the led suit
    t.play((C, "3S"), (D, "9C"), (A, "2C"), (B, "AS"))
    assert takers(t) == (C, B)  # the higher trump
    t.play((B, "2D"), (C, "AD"), (D, "10C"), (A, "3C"))
    t.play((C, "4S"), (D, "5H"), (A, "4C"), (B, "KS"))
    assert takers(t)[-1] == B
    # B leads a diamond: A and D are void and play clubs and hearts; the diamond wins.
    t.play((B, "3D"), (C, "5S"), (D, "6H"), (A, "5C"))
    assert takers(t)[-1] == C  # C ruffed with the 5♠


def test_scenario_17_the_highest_of_the_led_suit_wins() -> None:
    t = mixed_in_tricks(DIAMONDS)
    t.play((A, "2C"), (B, "2H"), (C, "2S"), (D, "10C"))
    assert takers(t) == (D,)  # 10♣ over 2♣; the other suits can't take it


def test_scenario_18_the_taker_leads() -> None:
    t = mixed_in_tricks(SPADES)
    t.play((A, "AH"), (B, "2H"), (C, "2S"), (D, "4H"))
    assert t.turn() == C
    t.refuse(D, ac.PlayCard(parse("9C")), "not_your_turn")


# 19-24: the points.


def test_scenario_19_made_a_bid_above_zero() -> None:
    t, (p0, p1, p2) = scoring_round(2, 1, 1)
    r = result(t)
    assert r.cards == 3 and r.bids[p0] == 2 and r.points[p0] == 3 + 2
    assert r.points[p1] == 3 + 1
    assert r.points[p2] == -1  # bid 1, took none


def test_scenario_20_made_zero_when_the_bids_were_over() -> None:
    t, (p0, p1, p2) = scoring_round(2, 2, 0)
    r = result(t)
    assert sum(r.bids) == 4  # more than the 3 cards
    assert r.points[p2] == 1  # floor(3 / 2)
    assert r.points[p0] == 5 and r.points[p1] == -1


def test_scenario_21_made_zero_when_the_bids_were_under() -> None:
    t, (_, p1, p2) = scoring_round(2, 0, 0)
    r = result(t)
    assert sum(r.bids) == 2  # fewer than the 3 cards
    assert r.points[p2] == 2  # ceil(3 / 2)
    assert r.points[p1] == -1  # bid 0, took one


def test_scenario_22_missing_by_more_than_one() -> None:
    t, (p0, p1, p2) = scoring_round(0, 1, 3)
    r = result(t)
    assert r.points[p0] == -2  # bid 0, took two
    assert r.points[p1] == 4
    assert r.points[p2] == -3  # bid 3, took none


def test_scenario_23_the_score_sheet() -> None:
    t = started(seats=3)
    to_round(t, 3)
    s = t.state
    assert [r.round_no for r in s.sheet] == [1, 2] and [r.cards for r in s.sheet] == [10, 9]
    for seat in range(3):
        assert s.scores[seat] == s.sheet[0].points[seat] + s.sheet[1].points[seat]
        assert s.sheet[1].totals[seat] == s.scores[seat]
    view = CODEC.dump_view(view_for(s, A))
    assert view["sheet"][0]["bids"] == list(s.sheet[0].bids)
    assert view["round_no"] == 3 and view["rounds"] == 17 and view["cards"] == 8


def test_scenario_24_a_short_game() -> None:
    t = started(rounds=3)
    for _ in range(3):
        play_out_round(t)
    dealt = [e.cards for e in t.events if isinstance(e, ev.RoundDealt)]
    assert dealt == [10, 9, 8]
    assert t.phase() is Phase.ENDED and t.state.end_reason == "rounds"
    assert view_for(t.state, None).rounds == 3


# 25-27: the winner, two and five players.


def one_suit_each(**options: Any) -> Table:
    """A one-round game of three where B bids first holding ten spades, C ten hearts and A ten
    diamonds: B bids 9, the others 0, no trumps, and the round is played out."""
    t = started(seats=3, rounds=1, first=1, **options)
    t.rig({B: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS", C: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
           A: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD"})  # fmt: skip
    t.bid(9, 0, 0)
    t.trump(None)
    play_out_round(t)
    return t


def test_scenario_25_the_highest_total_wins_and_ties_share() -> None:
    t = one_suit_each()
    p0, p1, p2 = B, C, A
    s = t.state
    assert s.sheet[0].tricks[p0] == 10 and s.scores[p0] == -1
    assert s.scores[p1] == s.scores[p2] == 5  # ceil(10 / 2) each
    assert s.phase is Phase.ENDED and s.winners == (A, C)


def test_scenario_26_two_players() -> None:
    t = started(seats=2)
    s = t.state
    assert [len(h) for h in s.hands] == [10, 10] and len(s.undealt) == 32
    t.bid(3)
    assert options(t, B)[7] != ""  # 3 + 7 would total 10
    t.bid(6)
    t.trump(HEARTS)
    play_out_round(t)
    assert t.state.round_no == 2 and t.turn() == B and t.state.cards == 9
    assert t.state.sheet[0].tricks[A] + t.state.sheet[0].tricks[B] == 10


def test_scenario_27_five_players() -> None:
    t = started(seats=5, first=4)
    s = t.state
    assert [len(h) for h in s.hands] == [10] * 5 and len(s.undealt) == 2
    assert t.turn() == E
    t.bid(2, 2, 2, 2)
    assert options(t, D)[2] != ""
    play_out_round(t)
    assert sum(t.state.sheet[0].tricks) == 10 and t.state.bidder == A


# 28-31: stakes.


def test_scenario_28_stakes_are_paid_in() -> None:
    t = Table(stake=50, stacks=(100, 200, 50, 80))
    before = t.state
    events = t.start()
    assert t.state.stacks == (50, 150, 0, 30) and t.state.pot == 200
    moves = transfers(before, events)
    assert [(m.debit, m.credit, m.amount, m.code) for m in moves] == [
        (f"wallet:p{seat}", "pot", 50, "stake") for seat in range(4)
    ]
    assert view_for(t.state, None).pot == 200


def test_scenario_29_a_short_stack_cannot_start() -> None:
    t = Table(stake=50, stacks=(100, 49, 100, 100))
    refused = t.refuse(A, StartGame(t.seed), "short_stack")
    assert "Bob" in refused.message


def test_scenario_30_the_winner_takes_the_pot() -> None:
    t = started(seats=3, rounds=1, stake=100)
    t.rig({A: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS", B: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
           C: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD"})  # fmt: skip
    t.bid(10, 0, 1)  # A takes every trick: 20 points
    t.trump(None)
    while t.phase() is Phase.TRICKS:
        before = t.state
        events = t.act(t.turn(), default_action(t.state, t.turn()))
    moves = transfers(before, events)
    assert [(m.debit, m.credit, m.amount, m.code) for m in moves] == [
        ("pot", "wallet:p0", 300, "whist_win")
    ]
    assert t.state.winners == (A,) and t.state.stacks == (1200, 900, 900) and t.state.pot == 0


def test_scenario_31_a_split_pot_and_the_odd_cent() -> None:
    t = one_suit_each(stake=5)
    # C and A tie; going round from B (the first bidder), C comes first: the odd cent is C's.
    assert t.state.winners == (A, C) and t.state.payouts == (7, 0, 8)
    assert sum(t.state.stacks) == 3000
    assert split(100, (A, B, D), 2, 4) == (33, 33, 0, 34)


# 32-35: timers and defaults.


def test_scenario_32_timeout_of_a_bid() -> None:
    t = mixed(timer_ms=30_000)
    assert estimate(cards(MIXED[A])) == 2  # the A♥ and the guarded K♥
    t.expire()
    assert t.state.bids[-1].bid == 2 and t.state.timeouts[A] == 1
    t.bid(4, 4)  # 2 + 4 + 4: D may not bid 0, D's estimate
    assert estimate(cards(MIXED[D])) == 0
    t.expire()
    assert t.state.bids[-1].bid == 1
    assert closest_bid(2, [0, 1, 3, 4]) == 1  # as close either way: the lower


def test_scenario_33_timeout_of_the_trump_choice() -> None:
    t = mixed(timer_ms=30_000)
    t.bid(1, 2, 3, 0)
    t.expire()
    assert t.state.trump == SPADES and not t.state.no_trumps  # C's longest suit
    assert default_trump(cards("AH KH 2C 3C")) == CLUBS  # a tie: ♣ ♦ ♥ ♠


def test_scenario_34_timeout_of_a_card() -> None:
    t = mixed_in_tricks(SPADES, timer_ms=30_000)
    t.expire()
    assert t.state.trick[-1] == (A, parse("2C"))  # leads the lowest of the longest plain suit
    t.expire()
    assert t.state.trick[-1] == (B, parse("2D"))  # void in clubs: the longest plain suit
    t.expire()
    assert t.state.trick[-1] == (C, parse("AD"))  # only the A♦ is not a trump
    t.expire()
    assert t.state.played[-1][-1] == (D, parse("9C"))  # follows with the lowest club
    assert takers(t) == (D,)
    t.play((D, "4H"), (A, "AH"), (B, "2H"))
    t.expire()
    assert t.state.played[-1][-1] == (C, parse("2S"))  # only trumps left: the lowest
    assert takers(t)[-1] == C


def test_scenario_35_away_seats_get_the_grace() -> None:
    t = mixed(timer_ms=30_000)
    t.expire()  # A bids 2, its estimate
    t.bid(1, 1, 1)
    assert t.turn() == A  # the highest bidder chooses trump
    t.expire()  # two in a row: A's longest suit, clubs
    assert t.state.timeouts[A] == 2 and t.state.trump == CLUBS
    assert t.turn() == A and t.state.deadline == t.now + 3_000  # away: the short grace
    t.act(A, SitOut(False))  # "I'm back"
    assert t.state.timeouts[A] == 0 and t.state.deadline == t.now + 30_000
    t.play((A, "AH"))
    assert t.state.deadline == t.now + 30_000


# 36-41: seats, views, the record.


def test_scenario_36_leaving_during_a_round() -> None:
    t = mixed()
    t.act(C, Leave())
    assert t.state.leaving[C] and t.state.players[C] is not None
    play_out_round(t)
    s = t.state
    assert s.players[C] is None and s.phase is Phase.WAITING and s.round_no == 1
    score = s.scores[C]
    t.refuse(B, AddBot(C, Player("bot1", "Robot", bot="medium"), 0), "not_host")
    t.act(A, AddBot(C, Player("bot1", "Robot", bot="medium"), 0))
    s = t.state
    assert s.phase is Phase.BID and s.round_no == 2 and s.cards == 9 and t.turn() == B
    assert s.scores[C] == score  # the bot plays on with the seat's score


def test_scenario_37_views_hide_what_they_must() -> None:
    t = mixed_in_tricks(SPADES)
    t.play((A, "AH"), (B, "2H"))
    undealt = set(t.state.undealt)
    for seat in (A, B, C, D, None):
        data = CODEC.dump_view(view_for(t.state, seat))
        seen = cards_in_json(data)
        played = set(cards("AH 2H"))
        own = set(t.state.hands[seat]) if seat is not None else set()
        assert seen <= own | played and not seen & undealt
    spectator = view_for(t.state, None)
    assert spectator.hand == () and spectator.options == ()
    view = view_for(t.state, C)
    assert view.trick == ((A, parse("AH")), (B, parse("2H")))
    assert [(b.seat, b.bid) for b in view.bids] == [(A, 1), (B, 2), (C, 3), (D, 0)]
    assert view.chooser == C and view.trump == SPADES and view.first_bidder == A
    assert [seat.cards for seat in view.seats] == [9, 9, 10, 10]
    assert view.fingerprint == fairness.fingerprint(bytes.fromhex(t.seed)) and view.seed is None


def test_scenario_38_the_record_verifies() -> None:
    t = started(seats=3, rounds=4, first=1)
    for _ in range(4):
        play_out_round(t)
    record = load_record(dump_record(game_record(t.events)))
    verdict = verify(record)
    assert verdict.ok and verdict.rounds == 4
    assert record.algorithm == "contract-whist-fair-v1" and record.rounds[1].first_bidder == C
    first = record.rounds[0]
    swapped = (first.dealt[1], first.dealt[0], first.dealt[2])
    forged = record.__class__(
        record.algorithm,
        record.seed,
        record.fingerprint,
        record.seats,
        record.first_bidder,
        (first.__class__(1, 10, first.first_bidder, swapped, first.undealt), *record.rounds[1:]),
    )
    bad = verify(forged)
    assert not bad.ok and "round 1" in bad.mismatch


def test_scenario_39_starting_needs_every_seat() -> None:
    t = Table(seats=3)
    t.act(C, Leave())
    t.refuse(A, StartGame(t.seed), "not_enough_players")
    t.act(None, TakeSeat(C, Player("p9", "Newcomer"), 0))
    t.act(B, SitOut(True))
    t.refuse(A, StartGame(t.seed), "not_enough_players")


def test_scenario_40_the_result_shows_between_rounds() -> None:
    t = started(interlude_ms=10_000)
    play_out_round(t)
    assert t.phase() is Phase.INTERLUDE and t.state.result is not None
    assert [o.action for o in legal_actions(t.state, A)] == [ac.NextHand()]
    for seat in (A, B, C):
        t.act(seat, ac.NextHand())
    assert t.phase() is Phase.INTERLUDE and t.state.interlude == (D,)
    t.act(D, ac.NextHand())
    assert t.phase() is Phase.BID and t.state.round_no == 2


def test_scenario_41_the_host_ends_the_game() -> None:
    t = started(stake=30, rounds=5, interlude_ms=10_000)
    t.refuse(A, EndGame(), "hand_in_progress")
    play_out_round(t)
    t.refuse(B, EndGame(), "not_host")
    before = t.state
    events = t.act(A, EndGame())
    s = t.state
    assert s.phase is Phase.ENDED and s.end_reason == "host" and s.seed == t.seed
    # A, who ended it, forfeits whatever the totals: B, C and D share the pot of 120.
    assert s.forfeited == (A,) and s.winners == (B, C, D) and s.payouts == (0, 40, 40, 40)
    assert s.stacks == (970, 1010, 1010, 1010)
    assert [(m.debit, m.credit, m.amount, m.code) for m in transfers(before, events)] == [
        ("pot", f"wallet:p{seat}", 40, "whist_win") for seat in (B, C, D)
    ]
    assert CODEC.dump_view(view_for(s, None))["forfeited"] == [A]


def test_scenario_42_the_last_person_leaves() -> None:
    t = Table(seats=2, stake=20)
    t.act(B, Leave())
    t.act(A, AddBot(B, Player("bot1", "Robot", bot="easy"), 100))
    t.start()
    assert t.state.pot == 40
    t.act(A, Leave())  # the only person: A plays on by the defaults to the end of the round
    assert t.state.leaving[A] and t.phase() is Phase.BID
    while t.phase() in (Phase.BID, Phase.TRUMP, Phase.TRICKS):
        before = t.state
        events = t.act(t.turn(), default_action(t.state, t.turn()))
    ended = [e for e in events if isinstance(e, ev.GameEnded)]
    assert len(ended) == 1 and ended[0].reason == "closed" and ended[0].payouts == (0, 40)
    assert ended[0].forfeited == (A,) and ended[0].winners == (B,)
    moves = transfers(before, events)
    assert [(m.debit, m.credit, m.amount, m.code) for m in moves] == [
        ("pot", "wallet:bot1", 40, "whist_win")
    ]
    assert t.phase() is Phase.CLOSED and t.state.players == (None, None)


def test_scenario_43_the_table_fills_a_seat_left_during_a_game() -> None:
    lobby = Table()
    lobby.act(C, Leave())
    lobby.refuse(None, AddBot(C, Player("bot1", "Robot", bot="medium"), 0), "not_host")
    t = mixed()
    t.act(C, Leave())
    play_out_round(t)
    assert t.state.players[C] is None and t.state.phase is Phase.WAITING
    t.act(None, AddBot(C, Player("bot1", "Robot", bot="medium"), 0))
    s = t.state
    seated = s.players[C]
    assert seated is not None and seated.bot == "medium"
    assert s.phase is Phase.BID and s.round_no == 2


def test_scenario_44_an_abandoned_table_is_forfeited_by_its_people() -> None:
    # A and B are people, C a bot; A and B go away and the services close the table.
    t = Table(seats=3, stake=20, interlude_ms=10_000)
    t.act(C, Leave())
    t.act(A, AddBot(C, Player("bot2", "Robot", bot="easy"), 100))
    t.start()
    play_out_round(t)
    assert t.phase() is Phase.INTERLUDE
    before = t.state
    for seat in (A, B):
        t.act(None, SetConnected(seat, False))
    t.now += ABANDON_MS
    events = t.act(None, CloseTable(ABANDON_MS))
    s = t.state
    assert s.phase is Phase.CLOSED and s.end_reason == "closed" and s.forfeited == (A, B)
    assert [(m.debit, m.credit, m.amount, m.code) for m in transfers(before, events)] == [
        ("pot", "wallet:bot2", 60, "whist_win")
    ]
    # With nobody but people seated, every one of them abandoned it: the stakes go back.
    t = started(seats=2, stake=20, interlude_ms=10_000)
    play_out_round(t)
    for seat in (A, B):
        t.act(None, SetConnected(seat, False))
    t.now += ABANDON_MS
    t.act(None, CloseTable(ABANDON_MS))
    assert t.state.forfeited == () and t.state.payouts == (20, 20)
    # A table closed by no player (it could not be set up) gives the stakes back too.
    t = started(seats=2, stake=20)
    t.act(None, CloseTable(0))
    play_out_round(t)
    assert t.phase() is Phase.CLOSED and t.state.payouts == (20, 20) and not t.state.forfeited


ABANDON_MS = 300_000
