"""The 32-card Swick deck.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``. Suits are numbered in the tie-break order
of the rules (♣ 0, ♦ 1, ♥ 2, ♠ 3) and ranks from low to high (7 is 0, Ace is 7), so comparing two
cards of one suit is comparing ints. Cards travel as short codes (``"7C"``, ``"10D"``, ``"AS"``)
and are shown with symbols (``"A♠"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeAlias

from pydantic import BeforeValidator, PlainSerializer, ValidationInfo

Suit: TypeAlias = int

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

SEVEN, JACK, ACE = 0, 4, 7
KING, QUEEN = 6, 5
DECK: tuple[Card, ...] = tuple(range(32))

_CODES = tuple(rank + suit for suit in SUIT_LETTERS for rank in RANKS)
_BY_CODE = {code: card for card, code in enumerate(_CODES)}


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def make(rank: int, suit: Suit) -> Card:
    return suit * 8 + rank


def is_face(card: Card) -> bool:
    """J, Q, K and A are face cards; 7 to 10 are low cards."""
    return card & 7 >= JACK


def code(card: Card) -> str:
    return _CODES[card]


def parse(text: str) -> Card:
    """Parse a card code such as ``"10D"`` or ``"as"``; raises ``ValueError``."""
    card = _BY_CODE.get(text.strip().upper())
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def label(card: Card) -> str:
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def labels(cards: Iterable[Card]) -> str:
    return " ".join(label(card) for card in cards)


CARD_CODES = 'a card is its code: rank (7 8 9 10 J Q K A) then suit (C D H S), as "10D" or "AS"'


def _card_from_json(value: Any, info: ValidationInfo) -> Any:
    """From JSON (what players send), only a card's exact code; in Python, its int too."""
    if isinstance(value, str):
        card = _BY_CODE.get(value)
        if card is None:
            raise ValueError(CARD_CODES)
        return card
    if (
        info.mode == "json"
        or isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value < 32
    ):
        raise ValueError(CARD_CODES)
    return value


Card: TypeAlias = Annotated[
    int, BeforeValidator(_card_from_json), PlainSerializer(code, return_type=str)
]
"""A card in Python; its code (``"AS"``) in JSON."""
