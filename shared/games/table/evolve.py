"""Folding events into a table's state: ``evolve`` copies, ``apply`` changes a working copy in
place. The lifecycle's events are folded here, a game's own by the appliers it gives ``applier``.

Appliers only record facts and do the bookkeeping that follows from them without a choice:
whose turn it is next within a phase, and when the current decision was opened. Where a
lifecycle event also touches a game's own fields (a seat's chips...) the game wraps these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from shared.games.table import events as ev
from shared.games.table.state import RECENT_IDS, ForfeitState, TableState, replaced

S = TypeVar("S", bound=TableState)
E = TypeVar("E")
P = TypeVar("P", bound=StrEnum)


class PhasedState(TableState, Protocol[P]):
    """A game's state, whose phase some of the lifecycle's events set."""

    phase: P


G = TypeVar("G", bound=PhasedState[Any])
Applier = Callable[[G, Any], None]


def evolver(apply: Callable[[S, E], None]) -> Callable[[S, E], S]:
    """A game's ``evolve``: ``apply`` to a copy, so the given state is never modified."""

    def evolve(state: S, event: E) -> S:
        clone = state.copy()
        apply(clone, event)
        return clone

    return evolve


def give_turn(s: TableState, seat: int | None) -> None:
    """It is ``seat``'s turn (nobody's: ``None``); a decision opened now is stale before it."""
    s.turn = seat
    s.turn_seq = s.seq


class TrickState(TableState, Protocol):
    """A game's state whose seats play their cards to tricks."""

    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]


def card_played(s: TrickState, seat: int, card: int, players: Sequence[int]) -> None:
    """``seat`` plays ``card`` from its hand to the trick: the next of ``players`` (the seats
    playing the hand, in turn order) is to play, nobody once each of them has."""
    s.hands = replaced(s.hands, seat, tuple(c for c in s.hands[seat] if c != card))
    s.trick = (*s.trick, (seat, card))
    if len(s.trick) == len(players):
        give_turn(s, None)
    else:
        give_turn(s, players[(players.index(seat) + 1) % len(players)])


class PotState(TableState, Protocol):
    """A game's state whose seats pay stakes into a pot at the start and share it at the end."""

    pot: int


def stakes_paid(s: PotState, stakes: Sequence[int]) -> None:
    """A game starts: each seat pays its stake into the pot (none at a points-only table)."""
    if stakes:
        s.stacks = paid_in(s.stacks, stakes)
    s.pot = sum(stakes)


def pot_paid_out(s: PotState, payouts: Sequence[int]) -> None:
    """A game ends: the pot pays each seat its share (none at a points-only table)."""
    if payouts:
        s.stacks = paid_out(s.stacks, payouts)
    s.pot -= sum(payouts)


def paid_in(stacks: tuple[int, ...], amounts: Sequence[int]) -> tuple[int, ...]:
    """``stacks`` less what each seat paid into the pot."""
    return tuple(stack - paid for stack, paid in zip(stacks, amounts, strict=True))


def paid_out(stacks: tuple[int, ...], amounts: Sequence[int]) -> tuple[int, ...]:
    """``stacks`` plus what each seat took from the pot."""
    return tuple(stack + paid for stack, paid in zip(stacks, amounts, strict=True))


_NO_GAME = frozenset({"lobby", "ended", "closed"})  # a bot leaving then is not replaced


def accepted(s: TableState, e: ev.Accepted) -> None:
    s.seq += 1
    ids = s.recent_ids
    s.recent_ids = (
        (*ids[1 - RECENT_IDS :], e.action_id) if len(ids) >= RECENT_IDS else (*ids, e.action_id)
    )
    if e.actor is not None and s.timeouts[e.actor]:
        s.timeouts = replaced(s.timeouts, e.actor, 0)


def seat_taken(s: TableState, e: ev.SeatTaken) -> None:
    seat = e.seat
    s.left_by_bots = tuple(x for x in s.left_by_bots if x != seat)
    s.players = replaced(s.players, seat, e.player)
    s.stacks = replaced(s.stacks, seat, e.stack)
    s.sitting_out = replaced(s.sitting_out, seat, False)
    s.leaving = replaced(s.leaving, seat, False)
    s.connected = replaced(s.connected, seat, True)
    s.timeouts = replaced(s.timeouts, seat, 0)


def seat_left(s: TableState, e: ev.SeatLeft) -> None:
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


def _leaving(s: TableState, e: ev.LeavingAfterHand) -> None:
    s.leaving = replaced(s.leaving, e.seat, True)
    s.connected = replaced(s.connected, e.seat, False)


def _sat_out(s: TableState, e: ev.SatOut) -> None:
    s.sitting_out = replaced(s.sitting_out, e.seat, e.sitting_out)


def _connection(s: TableState, e: ev.ConnectionChanged) -> None:
    s.connected = replaced(s.connected, e.seat, e.connected)


def _host(s: TableState, e: ev.HostChanged) -> None:
    s.host = e.seat


def _result_seen(s: TableState, e: ev.ResultSeen) -> None:
    s.interlude = tuple(seat for seat in s.interlude if seat != e.seat)


def _interlude_ended(s: TableState, e: ev.InterludeEnded) -> None:
    s.interlude = ()
    s.deadline = None  # the next decision gets a deadline of its own


def _timed_out(s: TableState, e: ev.TimedOut) -> None:
    s.timeouts = replaced(s.timeouts, e.seat, s.timeouts[e.seat] + 1)


def _deadline(s: TableState, e: ev.DeadlineSet) -> None:
    s.deadline = e.at


def _attendance(s: TableState, e: ev.AttendanceChanged) -> None:
    s.unattended_since = e.unattended_since


class SeededState(TableState, Protocol):
    """A game's state with the number of its game and that game's seed."""

    game_no: int
    seed: str
    fingerprint: str


def game_started(s: SeededState, seed: str, fingerprint: str) -> None:
    """A game started: the next game of the table, dealt from ``seed`` (secret until the game
    ends) whose ``fingerprint`` is published now."""
    s.game_no += 1
    s.seed = seed
    s.fingerprint = fingerprint


def game_ended(s: TableState) -> None:
    """A game ended: the seats its bots left are no longer the table's to fill."""
    s.left_by_bots = ()


def closing(s: ForfeitState, e: ev.TableClosing) -> None:
    s.closing = True
    s.quitters = e.quitters


APPLIERS: dict[type[Any], Callable[[Any, Any], None]] = {
    ev.Accepted: accepted,
    ev.SeatTaken: seat_taken,
    ev.SeatLeft: seat_left,
    ev.LeavingAfterHand: _leaving,
    ev.SatOut: _sat_out,
    ev.ConnectionChanged: _connection,
    ev.HostChanged: _host,
    ev.ResultSeen: _result_seen,
    ev.InterludeEnded: _interlude_ended,
    ev.TimedOut: _timed_out,
    ev.DeadlineSet: _deadline,
    ev.AttendanceChanged: _attendance,
}
"""The appliers of the lifecycle events that touch only the lifecycle's fields."""


def applier(
    phase: type[P], clear: Callable[[G], None], own: Mapping[type[Any], Applier[G]]
) -> Applier[G]:
    """A game's ``apply``: the lifecycle's appliers, then the game's ``own`` (which may wrap
    them). ``waiting`` and ``table_closed`` leave no hand in play (``clear`` empties a game's
    fields of one); ``interlude_started`` keeps the hand just played on view."""
    waiting, interlude, closed = phase("waiting"), phase("interlude"), phase("closed")

    def no_hand(to: P) -> Applier[G]:
        def apply(s: G, e: Any) -> None:
            clear(s)
            s.phase = to
            give_turn(s, None)

        return apply

    def interlude_started(s: G, e: ev.InterludeStarted) -> None:
        s.interlude = e.seats
        s.deadline = e.until
        s.phase = interlude
        give_turn(s, None)

    appliers: dict[type[Any], Applier[G]] = {
        **APPLIERS,
        ev.Waiting: no_hand(waiting),
        ev.InterludeStarted: interlude_started,
        ev.TableClosed: no_hand(closed),
        **own,
    }

    def apply(state: G, event: Any) -> None:
        appliers[type(event)](state, event)

    return apply
