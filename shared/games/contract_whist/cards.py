"""The 52-card deck, ace high.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``. Suits are numbered ♣ 0, ♦ 1, ♥ 2, ♠ 3
(the table's fixed suit order) and ranks from low to high (2 is 0, Ace is 12), so the unshuffled
deck runs ``2C 3C ... AC 2D ... AS``. Cards travel as short codes (``"2C"``, ``"10D"``,
``"QH"``) and are shown with symbols (``"Q♥"``); a suit travels as its letter (``"H"``).
"""

from __future__ import annotations

from typing import Annotated, TypeAlias

from shared.games import cards as common

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = common.SUIT_NAMES
SUIT_SYMBOLS = common.SUIT_SYMBOLS
SUITS = common.SUITS
Suit: TypeAlias = common.Suit
"""A suit in Python (♣ 0 ♦ 1 ♥ 2 ♠ 3); its letter (``"H"``) in JSON."""

KING, ACE = 11, 12
DECK: tuple[int, ...] = tuple(range(52))

CARD_CODES = 'a card is its code: rank (2-10 J Q K A) then suit (C D H S), as "10D" or "QH"'
CODES = common.CardCodes(RANKS, CARD_CODES)


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def make(rank: int, suit: int) -> int:
    return suit * 13 + rank


code = CODES.code
parse = CODES.parse
label = CODES.label
labels = CODES.labels


def suit_label(suit: int | None) -> str:
    """``"hearts ♥"``, or ``"no trumps"`` for ``None``."""
    return "no trumps" if suit is None else f"{SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"


Card: TypeAlias = Annotated[int, CODES.validator, CODES.serializer]
"""A card in Python; its code (``"QH"``) in JSON."""
