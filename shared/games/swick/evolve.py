"""Folding Swick's events into a table's state (``shared.games.table.evolve`` folds the
lifecycle's; ``_seat_taken`` and ``_seat_left`` add a seat's net to them)."""

from __future__ import annotations

from typing import TypeVar

from shared.games.swick import events as ev
from shared.games.swick.cards import Card
from shared.games.swick.state import (
    NOT_DEALT,
    NOT_SET,
    Phase,
    SeatStatus,
    State,
    replaced,
)
from shared.games.table import evolve as table
from shared.games.table.evolve import give_turn

E = TypeVar("E", bound=ev.Event)


def _clear_hand(s: State) -> None:
    n = len(s.stacks)
    s.candidates = ()
    s.entropy = (None,) * n
    s.context = ""
    s.order = ()
    s.antes = (0,) * n
    s.pot = 0
    s.hands = ((),) * n
    s.trump_card = None
    s.kept = False
    s.status = NOT_DEALT * n
    s.drawn = (-1,) * n
    s.stock = ()
    s.discards = ()
    s.discarded = ((),) * n
    s.recycles = 0
    s.face_play = False
    s.early_sets = NOT_SET * n
    s.trick = ()
    s.tricks_won = (0,) * n


def _no_hand(s: State) -> None:
    """Waiting for players, or closed: no hand, so no dealer."""
    _clear_hand(s)
    s.dealer = None


def _seat_taken(s: State, e: ev.SeatTaken) -> None:
    table.seat_taken(s, e)
    s.nets = replaced(s.nets, e.seat, 0)


def _seat_left(s: State, e: ev.SeatLeft) -> None:
    table.seat_left(s, e)
    seat = e.seat
    s.nets = replaced(s.nets, seat, 0)
    if seat in s.candidates:
        s.candidates = tuple(c for c in s.candidates if c != seat)
        s.entropy = replaced(s.entropy, seat, None)


def _game_started(s: State, e: ev.GameStarted) -> None:
    table.game_started(s, e.seed, e.fingerprint)
    s.first_dealer = e.first_dealer
    s.button = None
    s.hand_no = 0
    s.carry = 0
    s.nets = (0,) * len(s.stacks)
    s.standings = ()
    s.end_reason = None
    s.result = None


def _hand_opened(s: State, e: ev.HandOpened) -> None:
    _clear_hand(s)
    s.dealer = e.dealer
    s.free_ride = e.free_ride
    s.candidates = e.candidates
    s.ante = 0
    if e.free_ride:
        s.phase = Phase.READY
        give_turn(s, None)
    else:
        s.phase = Phase.ANTE
        give_turn(s, e.dealer)


def _ante_chosen(s: State, e: ev.AnteChosen) -> None:
    assert s.dealer is not None
    s.ante = e.amount
    s.entropy = replaced(s.entropy, s.dealer, e.entropy)
    s.candidates = tuple(seat for seat in s.candidates if s.stacks[seat] >= e.amount)
    s.phase = Phase.READY
    give_turn(s, None)


def _readied(s: State, e: ev.Readied) -> None:
    s.entropy = replaced(s.entropy, e.seat, e.entropy)


def _hand_skipped(s: State, e: ev.HandSkipped) -> None:
    s.candidates = tuple(seat for seat in s.candidates if seat != e.seat)


def _hand_dealt(s: State, e: ev.HandDealt) -> None:
    s.hand_no = e.hand_no
    s.button = s.dealer
    s.order = e.order
    s.antes = e.antes
    s.stacks = table.paid_in(s.stacks, e.antes)
    s.pot = s.carry + sum(e.antes)
    s.carry = 0
    s.context = e.context
    s.hands = e.hands
    s.trump_card = e.trump_card
    s.stock = e.stock
    status: list[SeatStatus] = ["" for _ in s.stacks]
    for seat in e.order:
        status[seat] = "dealt"
    s.status = tuple(status)
    s.played = ()
    s.phase = Phase.TRUMP
    give_turn(s, s.dealer)


def _phase_started(s: State, e: ev.PhaseStarted) -> None:
    s.phase = e.phase
    give_turn(s, e.turn)


def _trump_decided(s: State, e: ev.TrumpDecided) -> None:
    dealer = s.dealer
    assert dealer is not None and s.trump_card is not None
    s.kept = e.keep
    if e.keep:
        s.hands = replaced(s.hands, dealer, (*s.hands[dealer], s.trump_card))
    s.phase = Phase.KNOCK
    give_turn(s, s.order[0])


def _knocked(s: State, e: ev.Knocked) -> None:
    seat = e.seat
    s.status = replaced(s.status, seat, "in" if e.knock else "passed")
    if seat == s.dealer:
        if not e.knock and s.kept:
            s.early_sets = replaced(s.early_sets, seat, "single")
        give_turn(s, None)
        return
    # The next non-dealer to knock, in order; the dealer is last in ``order``.
    i = s.order.index(seat) + 1
    give_turn(s, s.order[i] if i < len(s.order) - 1 else None)


def _drew(s: State, e: ev.Drew) -> None:
    seat = e.seat
    hand = s.hands[seat]
    kept = tuple(card for card in hand if card not in e.discards)
    s.hands = replaced(s.hands, seat, kept + e.drawn)
    stock = s.stock
    discards = s.discards
    if e.recycled:
        stock += e.recycled
        discards = ()
        s.recycles += 1
    s.stock = stock[len(e.drawn) :]
    s.discards = discards + e.discards
    s.discarded = replaced(s.discarded, seat, e.discards)
    s.drawn = replaced(s.drawn, seat, len(e.drawn))
    if seat == s.dealer:
        give_turn(s, None)
        return
    status, drawn, order = s.status, s.drawn, s.order
    nxt = next(
        (p for p in order[order.index(seat) + 1 : -1] if status[p] == "in" and drawn[p] < 0), None
    )
    give_turn(s, nxt)


def _dealer_discarded(s: State, e: ev.DealerDiscarded[Card]) -> None:
    dealer = s.dealer
    assert dealer is not None
    s.hands = replaced(s.hands, dealer, tuple(c for c in s.hands[dealer] if c != e.card))
    s.discards = (*s.discards, e.card)
    s.discarded = replaced(s.discarded, dealer, (*s.discarded[dealer], e.card))
    give_turn(s, None)


def _face_trump(s: State, e: ev.FaceTrumpDecided) -> None:
    dealer = s.dealer
    assert dealer is not None
    s.face_play = e.play
    if not e.play:
        s.status = replaced(s.status, dealer, "dropped")
        s.early_sets = replaced(s.early_sets, dealer, "single")
    give_turn(s, None)


def _card_played(s: State, e: ev.CardPlayed[Card]) -> None:
    table.card_played(s, e.seat, e.card, s.in_hand())


def _trick_taken(s: State, e: ev.TrickTaken) -> None:
    s.tricks_won = replaced(s.tricks_won, e.winner, s.tricks_won[e.winner] + 1)
    s.played = (*s.played, s.trick)
    s.trick = ()
    give_turn(s, e.winner if sum(s.tricks_won) < 3 else None)


def _hand_settled(s: State, e: ev.HandSettled) -> None:
    r = e.result
    s.stacks = tuple(
        stack + paid - owed
        for stack, paid, owed in zip(s.stacks, r.payouts, r.penalties, strict=True)
    )
    s.nets = tuple(net + d for net, d in zip(s.nets, r.delta, strict=True))
    s.carry = r.carry_out
    s.result = r
    _clear_hand(s)
    give_turn(s, None)


def _game_ended(s: State, e: ev.GameEnded) -> None:
    table.game_ended(s)
    _clear_hand(s)
    s.phase = Phase.ENDED
    s.standings = e.standings
    s.end_reason = e.reason
    s.dealer = None
    give_turn(s, None)


def _closing(s: State, e: ev.TableClosing) -> None:
    s.closing = True


def _carry_shared(s: State, e: ev.CarryShared) -> None:
    # A share of the carry is won like a pot: it counts in the game's nets (its standings).
    s.stacks = table.paid_out(s.stacks, e.shares)
    s.nets = table.paid_out(s.nets, e.shares)
    s.carry = 0


apply = table.applier(
    Phase,
    _no_hand,
    {
        ev.SeatTaken: _seat_taken,
        ev.SeatLeft: _seat_left,
        ev.GameStarted: _game_started,
        ev.HandOpened: _hand_opened,
        ev.AnteChosen: _ante_chosen,
        ev.Readied: _readied,
        ev.HandSkipped: _hand_skipped,
        ev.HandDealt: _hand_dealt,
        ev.PhaseStarted: _phase_started,
        ev.TrumpDecided: _trump_decided,
        ev.Knocked: _knocked,
        ev.Drew: _drew,
        ev.DealerDiscarded: _dealer_discarded,
        ev.FaceTrumpDecided: _face_trump,
        ev.CardPlayed: _card_played,
        ev.TrickTaken: _trick_taken,
        ev.HandSettled: _hand_settled,
        ev.GameEnded: _game_ended,
        ev.TableClosing: _closing,
        ev.CarryShared: _carry_shared,
    },
)

evolve = table.evolver(apply)
