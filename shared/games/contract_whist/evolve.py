"""Folding events into a state. ``evolve`` copies; ``apply`` changes a working copy in place.

Appliers only record facts and do the bookkeeping that follows from them without a choice:
whose turn it is next within a phase, and when the current decision was opened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.contract_whist import events as ev
from shared.games.contract_whist.state import RECENT_IDS, Bid, Phase, State, replaced


def evolve(state: State, event: ev.Event) -> State:
    clone = state.copy()
    apply(clone, event)
    return clone


def apply(state: State, event: ev.Event) -> None:
    _APPLIERS[type(event)](state, event)


def _give_turn(s: State, seat: int | None) -> None:
    s.turn = seat
    s.turn_seq = s.seq


def _clear_round(s: State) -> None:
    s.cards = 0
    s.bidder = None
    s.hands = ((),) * s.n
    s.undealt = ()
    s.bids = ()
    s.chooser = None
    s.trump = None
    s.no_trumps = False
    s.trick = ()
    s.played = ()
    s.takers = ()


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
    s.first_bidder = e.first_bidder
    s.stacks = tuple(stack - paid for stack, paid in zip(s.stacks, e.stakes, strict=True))
    s.pot = sum(e.stakes)
    s.round_no = 0
    s.scores = (0,) * s.n
    s.sheet = ()
    s.winners = ()
    s.payouts = ()
    s.forfeited = ()
    s.end_reason = None
    s.result = None


def _waiting(s: State, e: ev.Waiting) -> None:
    _clear_round(s)
    s.phase = Phase.WAITING
    _give_turn(s, None)


def _round_dealt(s: State, e: ev.RoundDealt) -> None:
    _clear_round(s)
    s.round_no = e.round_no
    s.cards = e.cards
    s.bidder = e.first_bidder
    s.hands = e.hands
    s.undealt = e.undealt
    s.phase = Phase.BID
    _give_turn(s, e.first_bidder)


def _bid_made(s: State, e: ev.BidMade) -> None:
    s.bids = (*s.bids, Bid(e.seat, e.bid))
    if len(s.bids) < s.n:
        _give_turn(s, (e.seat + 1) % s.n)
        return
    top = max(b.bid for b in s.bids)
    s.chooser = next(b.seat for b in s.bids if b.bid == top)  # the earliest of the highest
    s.phase = Phase.TRUMP
    _give_turn(s, s.chooser)


def _trump_chosen(s: State, e: ev.TrumpChosen) -> None:
    s.trump = e.suit
    s.no_trumps = e.suit is None
    s.phase = Phase.TRICKS
    _give_turn(s, s.bidder)


def _card_played(s: State, e: ev.CardPlayed) -> None:
    seat = e.seat
    s.hands = replaced(s.hands, seat, tuple(c for c in s.hands[seat] if c != e.card))
    s.trick = (*s.trick, (seat, e.card))
    _give_turn(s, None if len(s.trick) == s.n else (seat + 1) % s.n)


def _trick_taken(s: State, e: ev.TrickTaken) -> None:
    s.played = (*s.played, s.trick)
    s.takers = (*s.takers, e.winner)
    s.trick = ()
    _give_turn(s, e.winner if len(s.takers) < s.cards else None)


def _round_scored(s: State, e: ev.RoundScored) -> None:
    s.scores = e.result.totals
    s.sheet = (*s.sheet, e.result)
    s.result = e.result
    _clear_round(s)
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
    _clear_round(s)
    s.phase = Phase.CLOSED
    _give_turn(s, None)


def _game_ended(s: State, e: ev.GameEnded) -> None:
    s.left_by_bots = ()
    _clear_round(s)
    s.phase = Phase.ENDED
    s.scores = e.scores
    s.winners = e.winners
    s.payouts = e.payouts
    s.forfeited = e.forfeited
    s.stacks = tuple(stack + paid for stack, paid in zip(s.stacks, e.payouts, strict=True))
    s.pot -= sum(e.payouts)
    s.end_reason = e.reason
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
    ev.RoundDealt: _round_dealt,
    ev.BidMade: _bid_made,
    ev.TrumpChosen: _trump_chosen,
    ev.CardPlayed: _card_played,
    ev.TrickTaken: _trick_taken,
    ev.RoundScored: _round_scored,
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
