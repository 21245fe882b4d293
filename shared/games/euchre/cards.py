"""The 24-card Euchre deck, the suits and the bowers.

A card is an ``int`` from 0 to 23: ``suit * 6 + rank``. Suits are numbered ♣ 0, ♦ 1, ♥ 2, ♠ 3
(the table's fixed suit order) and ranks from low to high (9 is 0, Ace is 5), so the unshuffled
deck runs ``9C 10C JC QC KC AC 9D ... AS``. The suit of the same colour as suit ``s`` is
``3 - s`` (♣ and ♠ are black, ♦ and ♥ red). Cards travel as short codes (``"9C"``, ``"10D"``,
``"JH"``) and are shown with symbols (``"J♥"``); a suit travels as its letter (``"H"``).
"""

from __future__ import annotations

from typing import Annotated, TypeAlias

from shared.games import cards as common

RANKS = ("9", "10", "J", "Q", "K", "A")
SUIT_NAMES = common.SUIT_NAMES
SUIT_SYMBOLS = common.SUIT_SYMBOLS
SUIT_SINGULAR = ("club", "diamond", "heart", "spade")
SUITS = common.SUITS
Suit: TypeAlias = common.Suit
"""A suit in Python (♣ 0 ♦ 1 ♥ 2 ♠ 3); its letter (``"H"``) in JSON."""

NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
DECK: tuple[int, ...] = tuple(range(24))

CARD_CODES = 'a card is its code: rank (9 10 J Q K A) then suit (C D H S), as "10D" or "JH"'
CODES = common.CardCodes(RANKS, CARD_CODES)


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


code = CODES.code
parse = CODES.parse
label = CODES.label
labels = CODES.labels

Card: TypeAlias = Annotated[int, CODES.validator, CODES.serializer]
"""A card in Python; its code (``"JH"``) in JSON."""
