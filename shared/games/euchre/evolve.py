"""Folding events into a state. ``evolve`` copies; ``apply`` changes a working copy in place.

Appliers only record facts and do the bookkeeping that follows from them without a choice:
whose turn it is next within a phase, and when the current decision was opened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.euchre import events as ev
from shared.games.euchre.cards import suit_of
from shared.games.euchre.state import (
    RECENT_IDS,
    SEATS,
    TRICKS_PER_HAND,
    Call,
    Phase,
    State,
    partner_of,
    replaced,
)


def evolve(state: State, event: ev.Event) -> State:
    clone = state.copy()
    apply(clone, event)
    return clone


def apply(state: State, event: ev.Event) -> None:
    _APPLIERS[type(event)](state, event)


def _give_turn(s: State, seat: int | None) -> None:
    s.turn = seat
    s.turn_seq = s.seq


def _clear_hand(s: State) -> None:
    s.hands = ((),) * SEATS
    s.turn_up = None
    s.turn_up_at = ""
    s.kitty = ()
    s.discard = None
    s.calls = ()
    s.trump = None
    s.maker = None
    s.alone = False
    s.resting = None
    s.trick = ()
    s.played = ()
    s.winners = ()


def _round(s: State) -> int:
    return 2 if s.phase is Phase.NAME else 1


def _accepted(s: State, e: ev.Accepted) -> None:
    s.seq += 1
    ids = s.recent_ids
    s.recent_ids = (
        (*ids[1 - RECENT_IDS :], e.action_id) if len(ids) >= RECENT_IDS else (*ids, e.action_id)
    )
    if e.actor is not None and s.timeouts[e.actor]:
        s.timeouts = replaced(s.timeouts, e.actor, 0)


_NO_GAME = (Phase.LOBBY, Phase.ENDED, Phase.CLOSED)  # a bot leaving then is not replaced


def _seat_taken(s: State, e: ev.SeatTaken) -> None:
    seat = e.seat
    s.left_by_bots = tuple(x for x in s.left_by_bots if x != seat)
    s.players = replaced(s.players, seat, e.player)
    s.stacks = replaced(s.stacks, seat, e.stack)
    s.sitting_out = replaced(s.sitting_out, seat, False)
    s.leaving = replaced(s.leaving, seat, False)
    s.connected = replaced(s.connected, seat, True)
    s.timeouts = replaced(s.timeouts, seat, 0)


def _seat_left(s: State, e: ev.SeatLeft) -> None:
    seat = e.seat
    leaver = s.players[seat]
    if leaver is not None and leaver.bot is not None and s.phase not in _NO_GAME:
        s.left_by_bots = (*s.left_by_bots, seat)
    s.players = replaced(s.players, seat, None)
    s.stacks = replaced(s.stacks, seat, 0)
    s.sitting_out = replaced(s.sitting_out, seat, False)
    s.leaving = replaced(s.leaving, seat, False)
    s.connected = replaced(s.connected, seat, False)
    s.timeouts = replaced(s.timeouts, seat, 0)
    s.interlude = tuple(x for x in s.interlude if x != seat)


def _leaving(s: State, e: ev.LeavingAfterHand) -> None:
    s.leaving = replaced(s.leaving, e.seat, True)
    s.connected = replaced(s.connected, e.seat, False)


def _sat_out(s: State, e: ev.SatOut) -> None:
    s.sitting_out = replaced(s.sitting_out, e.seat, e.sitting_out)


def _connection(s: State, e: ev.ConnectionChanged) -> None:
    s.connected = replaced(s.connected, e.seat, e.connected)


def _host(s: State, e: ev.HostChanged) -> None:
    s.host = e.seat


def _game_started(s: State, e: ev.GameStarted) -> None:
    s.game_no += 1
    s.seed = e.seed
    s.fingerprint = e.fingerprint
    s.first_dealer = e.first_dealer
    s.button = None
    s.hand_no = 0
    s.scores = (0, 0)
    s.winner = None
    s.end_reason = None
    s.result = None
    if e.stakes:
        s.stacks = tuple(stack - paid for stack, paid in zip(s.stacks, e.stakes, strict=True))
    s.pot = sum(e.stakes)
    s.payouts = ()
    s.forfeited = ()


def _waiting(s: State, e: ev.Waiting) -> None:
    _clear_hand(s)
    s.phase = Phase.WAITING
    s.dealer = None
    _give_turn(s, None)


def _hand_dealt(s: State, e: ev.HandDealt) -> None:
    _clear_hand(s)
    s.hand_no = e.hand_no
    s.dealer = e.dealer
    s.button = e.dealer
    s.hands = e.hands
    s.turn_up = e.turn_up
    s.turn_up_at = "up"
    s.kitty = e.kitty
    s.phase = Phase.ORDER
    _give_turn(s, (e.dealer + 1) % SEATS)


def _passed(s: State, e: ev.Passed) -> None:
    s.calls = (*s.calls, Call(e.seat, _round(s), "pass"))
    _give_turn(s, None if e.seat == s.dealer else (e.seat + 1) % SEATS)


def _turned_down(s: State, e: ev.TurnedDown) -> None:
    assert s.dealer is not None
    s.turn_up_at = "down"
    s.phase = Phase.NAME
    _give_turn(s, (s.dealer + 1) % SEATS)


def _trump_made(s: State, e: ev.TrumpMade) -> None:
    first_round = s.phase is Phase.ORDER
    s.calls = (
        *s.calls,
        Call(e.seat, _round(s), "order_up" if first_round else "name", e.suit, e.alone),
    )
    s.trump = e.suit
    s.maker = e.seat
    s.alone = e.alone
    s.resting = partner_of(e.seat) if e.alone else None
    if first_round and s.resting == s.dealer:
        s.turn_up_at = "kitty"  # the dealer sits out: nobody picks the turn-up up
    _give_turn(s, None)


def _turn_up_taken(s: State, e: ev.TurnUpTaken) -> None:
    dealer, card = s.dealer, s.turn_up
    assert dealer is not None and card is not None and s.trump == suit_of(card)
    s.hands = replaced(s.hands, dealer, (*s.hands[dealer], card))
    s.turn_up_at = "taken"
    s.phase = Phase.DISCARD
    _give_turn(s, dealer)


def _dealer_discarded(s: State, e: ev.DealerDiscarded) -> None:
    dealer = s.dealer
    assert dealer is not None
    s.hands = replaced(s.hands, dealer, tuple(c for c in s.hands[dealer] if c != e.card))
    s.discard = e.card
    _give_turn(s, None)


def _tricks_started(s: State, e: ev.TricksStarted) -> None:
    s.phase = Phase.TRICKS
    _give_turn(s, e.leader)


def _card_played(s: State, e: ev.CardPlayed) -> None:
    seat = e.seat
    s.hands = replaced(s.hands, seat, tuple(c for c in s.hands[seat] if c != e.card))
    s.trick = (*s.trick, (seat, e.card))
    players = s.active()
    if len(s.trick) == len(players):
        _give_turn(s, None)
    else:
        _give_turn(s, players[(players.index(seat) + 1) % len(players)])


def _trick_taken(s: State, e: ev.TrickTaken) -> None:
    s.played = (*s.played, s.trick)
    s.winners = (*s.winners, e.winner)
    s.trick = ()
    _give_turn(s, e.winner if len(s.winners) < TRICKS_PER_HAND else None)


def _hand_scored(s: State, e: ev.HandScored) -> None:
    s.scores = e.result.scores
    s.result = e.result
    # The finished tricks (and the trump that decided them) stay on view until the next deal:
    # the hand's last trick, played by the very command that scored it, can still be reviewed.
    played, winners, trump = s.played, s.winners, s.trump
    _clear_hand(s)
    s.played, s.winners, s.trump = played, winners, trump
    _give_turn(s, None)


def _interlude_started(s: State, e: ev.InterludeStarted) -> None:
    s.phase = Phase.INTERLUDE
    s.interlude = e.seats
    s.deadline = e.until
    _give_turn(s, None)


def _result_seen(s: State, e: ev.ResultSeen) -> None:
    s.interlude = tuple(seat for seat in s.interlude if seat != e.seat)


def _interlude_ended(s: State, e: ev.InterludeEnded) -> None:
    s.interlude = ()
    s.deadline = None  # the next decision gets a deadline of its own


def _timed_out(s: State, e: ev.TimedOut) -> None:
    s.timeouts = replaced(s.timeouts, e.seat, s.timeouts[e.seat] + 1)


def _deadline(s: State, e: ev.DeadlineSet) -> None:
    s.deadline = e.at


def _attendance(s: State, e: ev.AttendanceChanged) -> None:
    s.unattended_since = e.unattended_since


def _closing(s: State, e: ev.TableClosing) -> None:
    s.closing = True
    s.quitters = e.quitters


def _closed(s: State, e: ev.TableClosed) -> None:
    _clear_hand(s)
    s.phase = Phase.CLOSED
    s.dealer = None
    _give_turn(s, None)


def _game_ended(s: State, e: ev.GameEnded) -> None:
    s.left_by_bots = ()
    finished = (s.played, s.winners, s.trump)
    _clear_hand(s)
    if e.reason == "target":  # the deciding hand's tricks stay on view, as after any hand
        s.played, s.winners, s.trump = finished
    s.phase = Phase.ENDED
    s.scores = e.scores
    s.winner = e.winner
    s.end_reason = e.reason
    s.dealer = None
    if e.payouts:
        s.stacks = tuple(stack + paid for stack, paid in zip(s.stacks, e.payouts, strict=True))
    s.pot -= sum(e.payouts)
    s.payouts = e.payouts
    s.forfeited = e.forfeited
    _give_turn(s, None)


_APPLIERS: dict[type[Any], Callable[[State, Any], None]] = {
    ev.Accepted: _accepted,
    ev.SeatTaken: _seat_taken,
    ev.SeatLeft: _seat_left,
    ev.LeavingAfterHand: _leaving,
    ev.SatOut: _sat_out,
    ev.ConnectionChanged: _connection,
    ev.HostChanged: _host,
    ev.GameStarted: _game_started,
    ev.Waiting: _waiting,
    ev.HandDealt: _hand_dealt,
    ev.Passed: _passed,
    ev.TurnedDown: _turned_down,
    ev.TrumpMade: _trump_made,
    ev.TurnUpTaken: _turn_up_taken,
    ev.DealerDiscarded: _dealer_discarded,
    ev.TricksStarted: _tricks_started,
    ev.CardPlayed: _card_played,
    ev.TrickTaken: _trick_taken,
    ev.HandScored: _hand_scored,
    ev.InterludeStarted: _interlude_started,
    ev.ResultSeen: _result_seen,
    ev.InterludeEnded: _interlude_ended,
    ev.TimedOut: _timed_out,
    ev.DeadlineSet: _deadline,
    ev.AttendanceChanged: _attendance,
    ev.TableClosing: _closing,
    ev.TableClosed: _closed,
    ev.GameEnded: _game_ended,
}
