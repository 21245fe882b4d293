"""The card codes, labels and suit letters the three games' decks share.

Every deck numbers its cards ``suit * len(ranks) + rank``: suits ♣ 0, ♦ 1, ♥ 2, ♠ 3 and ranks
from low to high, so the unshuffled deck runs rank by rank through clubs, then diamonds, and so
on. Only the ranks differ from game to game, and with them the card codes (``"10D"``, ``"AS"``)
and labels (``"A♠"``) a deck is written in. Each game's own ``cards`` module keeps its numbers
and rules and builds its codes with a ``CardCodes``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeAlias

from pydantic import BeforeValidator, PlainSerializer, ValidationInfo

SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUITS = (0, 1, 2, 3)

SUIT_CODES = 'a suit is its letter: "C", "D", "H" or "S"'


def _from_json(size: int, by_code: dict[str, int], message: str) -> Callable[..., Any]:
    """A validator that takes only an exact code from JSON (what players send), and in Python
    the int too, from 0 to ``size - 1``; anything else fails with ``message``."""

    def validate(value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str):
            number = by_code.get(value)
            if number is None:
                raise ValueError(message)
            return number
        if (
            info.mode == "json"
            or isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value < size
        ):
            raise ValueError(message)
        return value

    return validate


class CardCodes:
    """The codes and labels of a deck of ``ranks`` (low to high) in each of the four suits."""

    def __init__(self, ranks: tuple[str, ...], message: str) -> None:
        self.ranks = ranks
        self.size = len(ranks) * len(SUIT_LETTERS)
        self.message = message  # why a value is not a card, as players are told
        self._codes = tuple(rank + suit for suit in SUIT_LETTERS for rank in ranks)
        self._by_code = {code: card for card, code in enumerate(self._codes)}
        # What a game's ``Card`` type puts in its ``Annotated``: its int in Python, its code
        # in JSON.
        self.validator = BeforeValidator(_from_json(self.size, self._by_code, message))
        self.serializer = PlainSerializer(self.code, return_type=str)

    def code(self, card: int) -> str:
        return self._codes[card]

    def parse(self, text: str) -> int:
        """Parse a card code such as ``"10D"`` or ``"as"``; raises ``ValueError``."""
        card = self._by_code.get(text.strip().upper())
        if card is None:
            raise ValueError(f"not a card: {text!r}")
        return card

    def label(self, card: int) -> str:
        per_suit = len(self.ranks)
        return self.ranks[card % per_suit] + SUIT_SYMBOLS[card // per_suit]

    def labels(self, cards: Iterable[int]) -> str:
        return " ".join(self.label(card) for card in cards)


def _suit_letter(suit: int) -> str:
    return SUIT_LETTERS[suit]


Suit: TypeAlias = Annotated[
    int,
    BeforeValidator(_from_json(len(SUITS), {s: i for i, s in enumerate(SUIT_LETTERS)}, SUIT_CODES)),
    PlainSerializer(_suit_letter, return_type=str),
]
"""A suit in Python (♣ 0 ♦ 1 ♥ 2 ♠ 3); its letter (``"H"``) in JSON."""
