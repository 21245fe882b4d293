"""The 52-card deck, ace high.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``. Suits are numbered ♣ 0, ♦ 1, ♥ 2, ♠ 3
(the table's fixed suit order) and ranks from low to high (2 is 0, Ace is 12), so the unshuffled
deck runs ``2C 3C ... AC 2D ... AS``. Cards travel as short codes (``"2C"``, ``"10D"``,
``"QH"``) and are shown with symbols (``"Q♥"``); a suit travels as its letter (``"H"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeAlias

from pydantic import BeforeValidator, PlainSerializer, ValidationInfo

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

KING, ACE = 11, 12
SUITS = (0, 1, 2, 3)
DECK: tuple[int, ...] = tuple(range(52))

_CODES = tuple(rank + suit for suit in SUIT_LETTERS for rank in RANKS)
_BY_CODE = {code: card for card, code in enumerate(_CODES)}


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def make(rank: int, suit: int) -> int:
    return suit * 13 + rank


def code(card: int) -> str:
    return _CODES[card]


def parse(text: str) -> int:
    """Parse a card code such as ``"10D"`` or ``"qh"``; raises ``ValueError``."""
    card = _BY_CODE.get(text.strip().upper())
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def label(card: int) -> str:
    return RANKS[card % 13] + SUIT_SYMBOLS[card // 13]


def labels(cards: Iterable[int]) -> str:
    return " ".join(label(card) for card in cards)


def suit_label(suit: int | None) -> str:
    """``"hearts ♥"``, or ``"no trumps"`` for ``None``."""
    return "no trumps" if suit is None else f"{SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"


CARD_CODES = 'a card is its code: rank (2-10 J Q K A) then suit (C D H S), as "10D" or "QH"'
SUIT_CODES = 'a suit is its letter: "C", "D", "H" or "S"'


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
        or not 0 <= value < 52
    ):
        raise ValueError(CARD_CODES)
    return value


def _suit_from_json(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str):
        if value not in SUIT_LETTERS:
            raise ValueError(SUIT_CODES)
        return SUIT_LETTERS.index(value)
    if (
        info.mode == "json"
        or isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value < 4
    ):
        raise ValueError(SUIT_CODES)
    return value


def _suit_letter(suit: int) -> str:
    return SUIT_LETTERS[suit]


Card: TypeAlias = Annotated[
    int, BeforeValidator(_card_from_json), PlainSerializer(code, return_type=str)
]
"""A card in Python; its code (``"QH"``) in JSON."""

Suit: TypeAlias = Annotated[
    int, BeforeValidator(_suit_from_json), PlainSerializer(_suit_letter, return_type=str)
]
"""A suit in Python (♣ 0 ♦ 1 ♥ 2 ♠ 3); its letter (``"H"``) in JSON."""
