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
    return Knowledge(
        seat=view.seat,
        phase=view.phase,
        hand=view.hand,
        dealer=view.dealer,
        turn_up=view.turn_up,
        turn_up_at=view.turn_up_at,
        trump=view.trump,
        maker=view.maker,
        alone=view.alone,
        trick=view.trick,
        played=view.played,
    )


def from_state(state: State, seat: int) -> Knowledge:
    """What ``seat`` would see of ``state`` (its own hand and the public part only)."""
    assert state.dealer is not None
    return Knowledge(
        seat=seat,
        phase=state.phase,
        hand=state.hands[seat],
        dealer=state.dealer,
        turn_up=state.turn_up,
        turn_up_at=state.turn_up_at,
        trump=state.trump,
        maker=state.maker,
        alone=state.alone,
        trick=state.trick,
        played=state.played,
    )
