"""How a shuffled deck becomes hands, and how the stock is refilled (rules §2.2, §2.5, §8).

Shared by the engine and the verifier, so that a game record can be re-dealt exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared import fairness
from shared.games.swick.cards import DECK, Card


def entropy_context(order: Sequence[int], entropy: Sequence[str | None]) -> bytes:
    """The hand's entropy digest over every dealt-in seat (empty text where none was given)."""
    return fairness.entropy_digest([(seat, entropy[seat] or "") for seat in order])


def deal(
    seed: bytes, hand_no: int, order: Sequence[int], context: bytes, seats: int
) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """Each seat's three cards, the trump card and the stock.

    One card at a time to each seat of ``order`` (clockwise from the dealer's left, the dealer
    last), three times round; the next card is turned for trump; the rest is the stock.
    """
    deck = fairness.shuffle(DECK, fairness.deal_stream(seed, hand_no, context))
    players = len(order)
    hands: list[tuple[Card, ...]] = [()] * seats
    for i, seat in enumerate(order):
        hands[seat] = (deck[i], deck[i + players], deck[i + 2 * players])
    top = 3 * players
    return tuple(hands), deck[top], tuple(deck[top + 1 :])


def recycled(
    seed: bytes, hand_no: int, context: bytes, index: int, discards: Sequence[Card]
) -> tuple[Card, ...]:
    """Earlier discards, sorted then shuffled, to go under the stock (the ``index``-th recycle)."""
    stream = fairness.recycle_stream(seed, hand_no, context, index)
    return tuple(fairness.shuffle(sorted(discards), stream))
