"""The 32-card Swick deck.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``. Suits are numbered in the tie-break order
of the rules (♣ 0, ♦ 1, ♥ 2, ♠ 3) and ranks from low to high (7 is 0, Ace is 7), so comparing two
cards of one suit is comparing ints. Cards travel as short codes (``"7C"``, ``"10D"``, ``"AS"``)
and are shown with symbols (``"A♠"``).
"""

from __future__ import annotations

from typing import Annotated, TypeAlias

from shared.games import cards as common

Suit: TypeAlias = int

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = common.SUIT_SYMBOLS

SEVEN, JACK, ACE = 0, 4, 7
KING, QUEEN = 6, 5
DECK: tuple[Card, ...] = tuple(range(32))

CARD_CODES = 'a card is its code: rank (7 8 9 10 J Q K A) then suit (C D H S), as "10D" or "AS"'
CODES = common.CardCodes(RANKS, CARD_CODES)


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def make(rank: int, suit: Suit) -> Card:
    return suit * 8 + rank


def is_face(card: Card) -> bool:
    """J, Q, K and A are face cards; 7 to 10 are low cards."""
    return card & 7 >= JACK


code = CODES.code
parse = CODES.parse
label = CODES.label
labels = CODES.labels

Card: TypeAlias = Annotated[int, CODES.validator, CODES.serializer]
"""A card in Python; its code (``"AS"``) in JSON."""
