"""The 24-card Euchre deck, the suits and the bowers.

A card is an ``int`` from 0 to 23: ``suit * 6 + rank``. Suits are numbered ♣ 0, ♦ 1, ♥ 2, ♠ 3
(the table's fixed suit order) and ranks from low to high (9 is 0, Ace is 5), so the unshuffled
deck runs ``9C 10C JC QC KC AC 9D ... AS``. The suit of the same colour as suit ``s`` is
``3 - s`` (♣ and ♠ are black, ♦ and ♥ red). Cards travel as short codes (``"9C"``, ``"10D"``,
``"JH"``) and are shown with symbols (``"J♥"``); a suit travels as its letter (``"H"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeAlias

from pydantic import BeforeValidator, PlainSerializer, ValidationInfo

RANKS = ("9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR = ("club", "diamond", "heart", "spade")

NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
SUITS = (0, 1, 2, 3)
DECK: tuple[int, ...] = tuple(range(24))

_CODES = tuple(rank + suit for suit in SUIT_LETTERS for rank in RANKS)
_BY_CODE = {code: card for card, code in enumerate(_CODES)}


def suit_of(card: int) -> int:
    """The printed suit (see ``effective_suit`` for the suit a card follows)."""
    return card // 6


def rank_of(card: int) -> int:
    return card % 6


def make(rank: int, suit: int) -> int:
    return suit * 6 + rank


def same_colour(suit: int) -> int:
    """The other suit of the same colour: ♣↔♠, ♦↔♥."""
    return 3 - suit


def right_bower(trump: int) -> int:
    return make(JACK, trump)


def left_bower(trump: int) -> int:
    return make(JACK, same_colour(trump))


def effective_suit(card: int, trump: int | None) -> int:
    """The suit a card belongs to this hand: the left bower is a trump, not its printed suit."""
    if trump is not None and card == left_bower(trump):
        return trump
    return card // 6


def strength(card: int, trump: int | None) -> int:
    """A card's height within its effective suit: 9 10 J Q K A as 0-5 in a plain suit; in
    trump 9 10 Q K A as 0 1 3 4 5, then the left bower 6 and the right bower 7."""
    if trump is not None:
        if card == right_bower(trump):
            return 7
        if card == left_bower(trump):
            return 6
    return card % 6


def is_trump(card: int, trump: int | None) -> bool:
    return trump is not None and effective_suit(card, trump) == trump


def code(card: int) -> str:
    return _CODES[card]


def parse(text: str) -> int:
    """Parse a card code such as ``"10D"`` or ``"jh"``; raises ``ValueError``."""
    card = _BY_CODE.get(text.strip().upper())
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def label(card: int) -> str:
    return RANKS[card % 6] + SUIT_SYMBOLS[card // 6]


def labels(cards: Iterable[int]) -> str:
    return " ".join(label(card) for card in cards)


CARD_CODES = 'a card is its code: rank (9 10 J Q K A) then suit (C D H S), as "10D" or "JH"'
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
        or not 0 <= value < 24
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
"""A card in Python; its code (``"JH"``) in JSON."""

Suit: TypeAlias = Annotated[
    int, BeforeValidator(_suit_from_json), PlainSerializer(_suit_letter, return_type=str)
]
"""A suit in Python (♣ 0 ♦ 1 ♥ 2 ♠ 3); its letter (``"H"``) in JSON."""
