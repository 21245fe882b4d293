"""Deciding Euchre's commands: its decisions' handlers and its part in the table's lifecycle.

The table's lifecycle (``shared.games.table.flow``) runs every command: seating, leaving,
deadlines and closing are its; the handlers here check a hand's decisions and find the events
they cause, each applied as it is found, so later checks see its effect.

A hand runs ORDER → (DISCARD) → TRICKS, or ORDER → NAME → TRICKS when all four pass the
turn-up; it is scored after five tricks, and the game ends when a team reaches the target.
"""

from __future__ import annotations

from functools import partial

from shared import fairness
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import SUITS, Card, suit_of
from shared.games.euchre.dealing import deal, first_dealer
from shared.games.euchre.evolve import apply
from shared.games.euchre.legal import (
    PHASE_NAMES,
    STUCK,
    barred_suit,
    default_action,
    to_act,
    turned_down_reason,
)
from shared.games.euchre.money import forfeiting_team, payouts
from shared.games.euchre.play import play_reason, trick_winner
from shared.games.euchre.scoring import score
from shared.games.euchre.state import (
    BETWEEN_HANDS,
    IN_HAND,
    SEATS,
    TRICKS_PER_HAND,
    Phase,
    State,
    partner_of,
)
from shared.games.interface import IllegalCommand
from shared.games.table import flow
from shared.games.table.flow import card_decision, decision
from shared.games.table.rules import CutShort, ForfeitRules, Work


def _check_alone(alone: object) -> None:
    if not isinstance(alone, bool):
        raise IllegalCommand("malformed", "Going alone is true or false")


def _team_seated(s: State, team: int) -> tuple[int, ...]:
    return tuple(seat for seat in range(SEATS) if seat % 2 == team and s.players[seat] is not None)


# Dealing.


def _begin_hand(w: Work[State]) -> None:
    """Deal the next hand, the deal one seat left of the last; wait without four players."""
    s = w.state
    if len(flow.eligible(s)) < SEATS:
        if s.phase is not Phase.WAITING:
            w.emit(ev.Waiting())
        return
    dealer = (s.first_dealer or 0) if s.button is None else (s.button + 1) % SEATS
    hand_no = s.hand_no + 1
    hands, turn_up, kitty = deal(bytes.fromhex(s.seed), hand_no, dealer)
    w.emit(ev.HandDealt(hand_no, dealer, hands, turn_up, kitty))


# Making trump.


def _order_up(w: Work[State], actor: int | None, a: ac.OrderUp, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.ORDER)
    _check_alone(a.alone)
    assert s.turn_up is not None and s.dealer is not None
    w.emit(ev.TrumpMade(seat, suit_of(s.turn_up), a.alone))
    if a.alone and partner_of(seat) == s.dealer:
        _start_tricks(w)  # the dealer sits out: the turn-up stays on the kitty
    else:
        w.emit(ev.TurnUpTaken())


def _pass(w: Work[State], actor: int | None, a: ac.Pass, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.ORDER, Phase.NAME)
    if s.phase is Phase.NAME and seat == s.dealer:
        raise IllegalCommand("stick_the_dealer", STUCK)
    w.emit(ev.Passed(seat))
    if s.turn is None:  # the dealer passed the turn-up
        w.emit(ev.TurnedDown())


def _name_trump(w: Work[State], actor: int | None, a: ac.NameTrump, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.NAME)
    _check_alone(a.alone)
    if a.suit not in SUITS:
        raise IllegalCommand("malformed", "Name one of the four suits")
    if a.suit == barred_suit(s):
        raise IllegalCommand("turned_down", turned_down_reason(a.suit))
    w.emit(ev.TrumpMade(seat, a.suit, a.alone))
    _start_tricks(w)


def _discard(w: Work[State], actor: int | None, a: ac.Discard, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.DISCARD)
    if a.card not in s.hands[seat]:
        raise IllegalCommand("bad_cards", "You can only discard a card you hold")
    w.emit(ev.DealerDiscarded(a.card))
    _start_tricks(w)


def _start_tricks(w: Work[State]) -> None:
    """The dealer's left leads, or the next seat when that one sits out."""
    w.emit(ev.TricksStarted(w.state.active()[0]))


# The tricks.


def _play(w: Work[State], actor: int | None, a: ac.PlayCard[Card], seq: int) -> None:
    s = w.state
    seat = card_decision(w, actor, seq, Phase.TRICKS, a.card)
    hand = s.hands[seat]
    trump = s.trump
    assert trump is not None
    why = play_reason(hand, s.trick, trump, a.card)
    if why:
        raise IllegalCommand("illegal_card", why)
    w.emit(ev.CardPlayed(seat, a.card))
    if s.turn is None:
        w.emit(ev.TrickTaken(trick_winner(s.trick, trump)))
        if len(s.winners) == TRICKS_PER_HAND:
            _finish(w)


def _finish(w: Work[State]) -> None:
    s = w.state
    w.emit(ev.HandScored(score(s)))
    reached = [team for team in (0, 1) if s.scores[team] >= s.config.target]
    if reached:
        # Only the team that scored this hand gained points, so at most one team reaches it.
        # The pot is paid out before anyone leaving is vacated (they played the hand).
        w.emit(ev.GameEnded(s.seed, s.scores, reached[0], "target", payouts(s, reached[0])))
    flow.after_hand(w)


class EuchreRules(ForfeitRules[State]):
    """Euchre's part in the table's lifecycle: four seats in two partnerships, so a hand waits
    for four players and a partnership that ends a game early forfeits it (rules §12.5)."""

    def __init__(self) -> None:
        super().__init__(
            Phase,
            apply=apply,
            to_act=to_act,
            default_action=default_action,
            phase_names=PHASE_NAMES,
            between_hands=BETWEEN_HANDS,
            handlers={
                ac.OrderUp: _order_up,
                ac.Pass: _pass,
                ac.NameTrump: _name_trump,
                ac.Discard: _discard,
                ac.PlayCard: _play,
            },
        )

    def dealt_in(self, s: State, seat: int) -> bool:
        return s.phase in IN_HAND

    def start(self, s: State, seed_hex: str, seed: bytes) -> ev.GameStarted:
        if len(flow.eligible(s)) < SEATS:
            raise IllegalCommand(
                "not_enough_players", "Euchre needs four players present: two partnerships"
            )
        stake = s.config.stake
        flow.check_stakes(s, stake, SEATS)
        stakes = (stake,) * SEATS if stake else ()
        return ev.GameStarted(seed_hex, fairness.fingerprint(seed), first_dealer(seed), stakes)

    def begin_hand(self, w: Work[State]) -> None:
        _begin_hand(w)

    def cut_short(self, w: Work[State], reason: CutShort, quitters: tuple[int, ...]) -> None:
        """The partnership of ``quitters`` forfeits the pot to the other as if it had won;
        without one, the stakes go back (rules §12.5)."""
        s = w.state
        team = forfeiting_team(s, quitters)
        winner = None if team is None else 1 - team
        forfeited = () if team is None else _team_seated(s, team)
        w.emit(ev.GameEnded(s.seed, s.scores, winner, reason, payouts(s, winner), forfeited))


RULES = EuchreRules()
step = partial(flow.step, RULES)
"""The state after a command and the events that led there."""
