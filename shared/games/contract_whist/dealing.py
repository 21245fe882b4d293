"""How a shuffled deck becomes a Contract Whist deal (docs/rules/contract-whist.md §2).

Shared by the engine and the verifier, so that a game record can be re-dealt exactly.
"""

from __future__ import annotations

from shared import fairness
from shared.games.contract_whist.cards import DECK

ALGORITHM = "contract-whist-fair-v1"
"""The swick-fair-v1 stream and shuffle over the 52-card deck, dealt as ``deal`` says."""


def shuffled(seed: bytes, round_no: int) -> list[int]:
    """The round's deck: the 52 cards shuffled with the stream ``(seed, "deal", round_no)``
    (no entropy context: 32 zero bytes; index 0)."""
    return fairness.shuffle(DECK, fairness.Stream(seed, "deal", round_no))


def first_bidder(seed: bytes, seats: int) -> int:
    """The first round's first bidder: ``choose_first_dealer(seed, [0 .. seats - 1])``."""
    return fairness.choose_first_dealer(seed, tuple(range(seats)))


def bidder_of_round(first: int, round_no: int, seats: int) -> int:
    """Round ``r``'s first bidder: one seat further round the table each round."""
    return (first + round_no - 1) % seats


def deal(
    seed: bytes, round_no: int, bidder: int, seats: int, cards: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each seat's cards (by seat number) and the undealt rest of the deck.

    One card at a time, clockwise from the round's first bidder, ``cards`` times round:
    ``deck[k]`` for ``k < seats * cards`` goes to seat ``(bidder + k) % seats``; the cards from
    ``deck[seats * cards]`` on are not dealt.
    """
    deck = shuffled(seed, round_no)
    hands: list[list[int]] = [[] for _ in range(seats)]
    dealt = seats * cards
    for k in range(dealt):
        hands[(bidder + k) % seats].append(deck[k])
    return tuple(tuple(hand) for hand in hands), tuple(deck[dealt:])
