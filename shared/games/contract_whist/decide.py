"""Deciding Contract Whist's commands: its decisions' handlers and its part in the table's
lifecycle.

The table's lifecycle (``shared.games.table.flow``) runs every command: seating, leaving,
deadlines and closing are its; the handlers here check a round's decisions and find the events
they cause, each applied as it is found, so later checks see its effect.

A round runs BID → TRUMP → TRICKS; it is scored after its last trick, and the game ends when
the last round of the schedule (``config.rounds``) has been scored.
"""

from __future__ import annotations

from functools import partial

from shared import fairness
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import SUITS, Card
from shared.games.contract_whist.dealing import bidder_of_round, deal, first_bidder
from shared.games.contract_whist.evolve import apply
from shared.games.contract_whist.legal import (
    PHASE_NAMES,
    default_action,
    forbidden_bid,
    hook_reason,
    to_act,
)
from shared.games.contract_whist.money import split
from shared.games.contract_whist.play import play_reason, trick_winner
from shared.games.contract_whist.scoring import score
from shared.games.contract_whist.state import (
    BETWEEN_ROUNDS,
    IN_ROUND,
    GameEndReason,
    Phase,
    State,
    cards_in_round,
)
from shared.games.interface import IllegalCommand
from shared.games.table import flow
from shared.games.table.flow import card_decision, decision
from shared.games.table.rules import CutShort, ForfeitRules, Work


def _end_game(w: Work[State], reason: GameEndReason, quitters: tuple[int, ...] = ()) -> None:
    """The game ends: after the last round, the seats with the highest total share the pot;
    cut short, the seated players who did not end it share it, those who did forfeit; when
    nobody else is seated (or nobody ended it), the seated players share it back (rules §8)."""
    s = w.state
    forfeited: tuple[int, ...] = ()
    if reason == "rounds":
        top = max(s.scores)
        winners = tuple(seat for seat in range(s.n) if s.scores[seat] == top)
    else:
        seated = tuple(seat for seat in range(s.n) if s.players[seat] is not None)
        others = tuple(seat for seat in seated if seat not in quitters)
        if others and len(others) < len(seated):
            winners, forfeited = others, tuple(seat for seat in seated if seat in quitters)
        else:
            winners = seated
    payouts = split(s.pot, winners, s.first_bidder or 0, s.n)
    w.emit(ev.GameEnded(s.seed, s.scores, winners, payouts, reason, forfeited))


# Dealing.


def _begin_round(w: Work[State]) -> None:
    """Deal the next round of the schedule; wait while a seat cannot play."""
    s = w.state
    if len(flow.eligible(s)) < s.n:
        if s.phase is not Phase.WAITING:
            w.emit(ev.Waiting())
        return
    round_no = s.round_no + 1
    cards = cards_in_round(round_no)
    bidder = bidder_of_round(s.first_bidder or 0, round_no, s.n)
    hands, undealt = deal(bytes.fromhex(s.seed), round_no, bidder, s.n, cards)
    w.emit(ev.RoundDealt(round_no, cards, bidder, hands, undealt))


# Bidding and trump.


def _bid(w: Work[State], actor: int | None, a: ac.MakeBid, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.BID)
    bid = a.bid
    if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= s.cards:
        raise IllegalCommand("bad_bid", f"A bid is a number of tricks from 0 to {s.cards}")
    if bid == forbidden_bid(s.cards, [b.bid for b in s.bids], s.n):
        raise IllegalCommand("forbidden_bid", hook_reason(s.cards))
    w.emit(ev.BidMade(seat, bid))


def _choose_trump(w: Work[State], actor: int | None, a: ac.ChooseTrump, seq: int) -> None:
    seat = decision(w, actor, seq, Phase.TRUMP)
    if a.suit is not None and (isinstance(a.suit, bool) or a.suit not in SUITS):
        raise IllegalCommand("malformed", "Choose one of the four suits, or no trumps")
    w.emit(ev.TrumpChosen(seat, a.suit))


# The tricks.


def _play(w: Work[State], actor: int | None, a: ac.PlayCard[Card], seq: int) -> None:
    s = w.state
    seat = card_decision(w, actor, seq, Phase.TRICKS, a.card)
    hand = s.hands[seat]
    why = play_reason(hand, s.trick, a.card)
    if why:
        raise IllegalCommand("illegal_card", why)
    w.emit(ev.CardPlayed(seat, a.card))
    if s.turn is None:
        w.emit(ev.TrickTaken(trick_winner(s.trick, s.trump)))
        if len(s.takers) == s.cards:
            _finish(w)


def _finish(w: Work[State]) -> None:
    s = w.state
    w.emit(ev.RoundScored(score(s)))
    if s.round_no >= s.config.rounds:
        _end_game(w, "rounds")  # paid out before anyone leaving is vacated
    flow.after_hand(w)


class WhistRules(ForfeitRules[State]):
    """Contract Whist's part in the table's lifecycle: every seat plays every round, so a round
    waits for a full table, and those who end a game early forfeit their stakes (rules §8.4)."""

    def __init__(self) -> None:
        super().__init__(
            Phase,
            apply=apply,
            to_act=to_act,
            default_action=default_action,
            phase_names=PHASE_NAMES,
            between_hands=BETWEEN_ROUNDS,
            handlers={
                ac.MakeBid: _bid,
                ac.ChooseTrump: _choose_trump,
                ac.PlayCard: _play,
            },
            hand="round",
        )

    def dealt_in(self, s: State, seat: int) -> bool:
        return s.phase in IN_ROUND

    def start(self, s: State, seed_hex: str, seed: bytes) -> ev.GameStarted:
        if len(flow.eligible(s)) < s.n:
            raise IllegalCommand(
                "not_enough_players",
                f"This table plays with {s.n} players: every seat must hold one who is playing",
            )
        stake = s.config.stake
        flow.check_stakes(s, stake, s.n)
        fingerprint = fairness.fingerprint(seed)
        return ev.GameStarted(seed_hex, fingerprint, first_bidder(seed, s.n), (stake,) * s.n)

    def begin_hand(self, w: Work[State]) -> None:
        _begin_round(w)

    def cut_short(self, w: Work[State], reason: CutShort, quitters: tuple[int, ...]) -> None:
        _end_game(w, reason, quitters)


RULES = WhistRules()
step = partial(flow.step, RULES)
"""The state after a command and the events that led there."""
