"""One numbering of the cards for every game: the full 52-card deck, ``suit * 13 + rank``.

Suits are numbered as every game numbers them (♣ 0, ♦ 1, ♥ 2, ♠ 3) and ranks from the Two (0)
to the Ace (12), so ``card_index("2C") == 0`` and ``card_index("AS") == 51`` whatever the game.
A card's code is the protocol's (``"QS"``, ``"10H"``): what a view's JSON holds and what each
game module's ``code`` and ``parse`` convert to and from that game's own cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

CardCode = str
"""A card as the protocol writes it: its rank then its suit's letter, ``"QS"``, ``"10H"``."""

DECK: tuple[CardCode, ...] = tuple(rank + suit for suit in SUIT_LETTERS for rank in RANKS)
_INDEX = {code: index for index, code in enumerate(DECK)}


def card_index(code: CardCode) -> int:
    """The card's number in the one numbering, 0 to 51 (``"QS"`` is 3 * 13 + 10 = 49); case
    and surrounding spaces do not matter. Raises ``ValueError`` for anything but a card."""
    index = _INDEX.get(code.strip().upper()) if isinstance(code, str) else None
    if index is None:
        raise ValueError(f"not a card code: {code!r} (a rank 2-10 J Q K A, then C D H or S)")
    return index


def card_code(index: int) -> CardCode:
    """The code of card ``index`` (0 to 51); raises ``ValueError`` outside the deck."""
    return DECK[_checked(index)]


def suit_of_index(index: int) -> int:
    """The suit (♣ 0, ♦ 1, ♥ 2, ♠ 3) of card ``index``: the same number as every game's."""
    return _checked(index) // 13


def rank_of_index(index: int) -> int:
    """The rank (the Two 0 to the Ace 12) of card ``index``."""
    return _checked(index) % 13


def _checked(index: int) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(DECK):
        raise ValueError(f"not a card index: {index!r} (0 to 51)")
    return index


class Numbering:
    """A game's own cards (each engine numbers its shorter deck its own way) to and from the
    one numbering: ``index`` and ``from_index`` of each game module."""

    def __init__(self, game: str, deck: Iterable[int], code: Callable[[int], str]) -> None:
        self.game = game
        self._index = {card: card_index(code(card)) for card in deck}
        self._card = {index: card for card, index in self._index.items()}

    def index(self, card: int) -> int:
        """The card's number in the one numbering (``swick_sdk.card_index`` of its code)."""
        try:
            return self._index[card]
        except (KeyError, TypeError):
            raise ValueError(f"not a {self.game} card: {card!r}") from None

    def from_index(self, index: int) -> int:
        """The game's own card numbered ``index`` in the one numbering; ``ValueError`` for a
        card the game's deck does not hold (a Two in Euchre)."""
        try:
            return self._card[_checked(index)]
        except KeyError:
            raise ValueError(f"{card_code(index)} is not in the {self.game} deck") from None
