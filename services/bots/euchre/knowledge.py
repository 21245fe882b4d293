"""What one Euchre seat knows, read from its view (a live bot) or from a simulated state (a
search's playouts), so that the same heuristics serve both."""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.euchre.state import Phase, State, TurnUpAt
from shared.games.euchre.views import EuchreView

Trick = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    phase: Phase
    hand: tuple[int, ...]
    dealer: int
    turn_up: int | None
    turn_up_at: TurnUpAt
    trump: int | None
    maker: int | None
    alone: bool
    trick: Trick
    played: tuple[Trick, ...]


def from_view(view: EuchreView) -> Knowledge:
    assert view.seat is not None and view.dealer is not None
    return _known(view, view.seat, view.hand, view.dealer)


def from_state(state: State, seat: int) -> Knowledge:
    """What ``seat`` would see of ``state`` (its own hand and the public part only)."""
    assert state.dealer is not None
    return _known(state, seat, state.hands[seat], state.dealer)


def _known(table: EuchreView | State, seat: int, hand: tuple[int, ...], dealer: int) -> Knowledge:
    """``seat``'s ``hand`` and what everyone sees of ``table``."""
    return Knowledge(
        seat=seat,
        phase=table.phase,
        hand=hand,
        dealer=dealer,
        turn_up=table.turn_up,
        turn_up_at=table.turn_up_at,
        trump=table.trump,
        maker=table.maker,
        alone=table.alone,
        trick=table.trick,
        played=table.played,
    )
