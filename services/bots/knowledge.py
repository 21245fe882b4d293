"""What one seat knows, whether read from its view (a live bot) or from a simulated state
(a search bot's playouts): the same heuristics serve both."""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.swick.cards import Card
from shared.games.swick.state import Phase, State
from shared.games.swick.views import SwickView

Trick = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    phase: Phase
    hand: tuple[Card, ...]  # the cards the seat can see in its own hand
    trump: int | None
    trump_card: Card | None
    kept: bool
    dealer: int | None
    trick: Trick
    played: tuple[Trick, ...]
    knocked: int  # players in the hand so far (knocked, or the dealer still undecided)
    players: int  # players dealt in
    tricks_won: int
    pot: int
    stack: int


def from_view(view: SwickView) -> Knowledge:
    assert view.seat is not None
    seat = view.seats[view.seat]
    return Knowledge(
        seat=view.seat,
        phase=view.phase,
        hand=tuple(card for card in view.hand if card is not None),
        trump=None if view.trump_card is None else view.trump_card >> 3,
        trump_card=view.trump_card,
        kept=view.kept,
        dealer=view.dealer,
        trick=view.trick,
        played=view.played,
        knocked=sum(s.status == "in" for s in view.seats),
        players=sum(s.status != "" for s in view.seats),
        tricks_won=seat.tricks,
        pot=view.pot,
        stack=seat.stack,
    )


def from_state(s: State, seat: int) -> Knowledge:
    return Knowledge(
        seat=seat,
        phase=s.phase,
        hand=s.hands[seat],
        trump=s.trump_suit,
        trump_card=s.trump_card,
        kept=s.kept,
        dealer=s.dealer,
        trick=s.trick,
        played=s.played,
        knocked=sum(status == "in" for status in s.status),
        players=len(s.order),
        tricks_won=s.tricks_won[seat],
        pot=s.pot,
        stack=s.stacks[seat],
    )
