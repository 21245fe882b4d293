"""How a shuffled deck becomes a Euchre deal (docs/rules/euchre.md §2).

Shared by the engine and the verifier, so that a game record can be re-dealt exactly.
"""

from __future__ import annotations

from shared import fairness
from shared.games.euchre.cards import DECK
from shared.games.euchre.state import SEATS

ALGORITHM = "euchre-fair-v1"
"""The swick-fair-v1 stream and shuffle over the 24-card deck, dealt as ``deal`` says."""

SEAT_NUMBERS = tuple(range(SEATS))


def shuffled(seed: bytes, hand_no: int) -> list[int]:
    """The hand's deck: the 24 cards shuffled with the stream ``(seed, "deal", hand_no)``
    (no entropy context: 32 zero bytes; index 0)."""
    return fairness.shuffle(DECK, fairness.Stream(seed, "deal", hand_no))


def first_dealer(seed: bytes) -> int:
    return fairness.choose_first_dealer(seed, SEAT_NUMBERS)


def deal(
    seed: bytes, hand_no: int, dealer: int
) -> tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...]]:
    """Each seat's five cards (by seat number), the turn-up and the kitty.

    One card at a time, clockwise from the dealer's left (the dealer last), five times round:
    ``deck[k]`` for ``k < 20`` goes to seat ``(dealer + 1 + k) % 4``. ``deck[20]`` is the
    turn-up, ``deck[21:24]`` the kitty under it.
    """
    deck = shuffled(seed, hand_no)
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    for k in range(5 * SEATS):
        hands[(dealer + 1 + k) % SEATS].append(deck[k])
    return tuple(tuple(hand) for hand in hands), deck[20], tuple(deck[21:])
