"""How cards are played to a trick, which card takes it, and the table's choices for a seat
(docs/rules/contract-whist.md §5, §7).

Following: a seat holding a card of the led suit must play one; without it any card may be
played. The highest trump takes the trick; with no trump in it (or at no trumps), the highest
card of the led suit does.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.contract_whist.cards import (
    ACE,
    KING,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    labels,
    rank_of,
    suit_of,
)

Trick = Sequence[tuple[int, int]]


def follow_reason(led: int, following: Sequence[int]) -> str:
    return f"You must follow {SUIT_NAMES[led]} {SUIT_SYMBOLS[led]}: you hold {labels(following)}"


def play_reasons(hand: Sequence[int], trick: Trick) -> list[tuple[int, str]]:
    """Each card of ``hand`` with the reason it may not be played now ("" when it may)."""
    if not trick:
        return [(card, "") for card in hand]
    led = suit_of(trick[0][1])
    following = [card for card in hand if suit_of(card) == led]
    if not following:
        return [(card, "") for card in hand]
    why = follow_reason(led, following)
    return [(card, "" if suit_of(card) == led else why) for card in hand]


def play_reason(hand: Sequence[int], trick: Trick, card: int) -> str:
    """Why ``card`` of ``hand`` may not be played now ("" when it may): ``play_reasons`` of one
    card, its words built only for a card that may not go (a move checked is most often legal)."""
    if not trick:
        return ""
    led = suit_of(trick[0][1])
    if suit_of(card) == led:
        return ""
    following = [c for c in hand if suit_of(c) == led]
    return follow_reason(led, following) if following else ""


def legal_cards(hand: Sequence[int], trick: Trick) -> list[int]:
    return [card for card, why in play_reasons(hand, trick) if not why]


def power(card: int, trump: int | None, led: int) -> int:
    """How strongly ``card`` bids for a trick led in ``led``: any trump beats the led suit,
    which beats the other suits (-1: it cannot take the trick)."""
    suit = suit_of(card)
    if suit == trump:
        return 100 + rank_of(card)
    if suit == led:
        return rank_of(card)
    return -1


def trick_winner(trick: Trick, trump: int | None) -> int:
    """The seat that takes a complete trick."""
    led = suit_of(trick[0][1])
    return max(trick, key=lambda played: power(played[1], trump, led))[0]


def longest_suit(cards: Sequence[int]) -> int:
    """The suit with the most of ``cards``, ties by ♣ ♦ ♥ ♠ (the earlier suit)."""
    return max(SUITS, key=lambda suit: (sum(1 for card in cards if suit_of(card) == suit), -suit))


def safe_card(hand: Sequence[int], trick: Trick, trump: int | None) -> int:
    """The card the table plays for a seat (rules §7): following, the lowest card of the led
    suit; leading or void, the lowest card of the longest non-trump suit held (ties ♣ ♦ ♥ ♠),
    or the lowest trump when only trumps are left."""
    legal = legal_cards(hand, trick)
    if trick and all(suit_of(card) == suit_of(trick[0][1]) for card in legal):
        return min(legal, key=rank_of)
    plain = [card for card in legal if suit_of(card) != trump] or legal
    suit = longest_suit(plain)
    return min((card for card in plain if suit_of(card) == suit), key=rank_of)


def estimate(hand: Sequence[int]) -> int:
    """The table's estimate of a hand's tricks (rules §7): its aces, plus its kings that have
    another card of their suit with them (a guarded king)."""
    count = 0
    for card in hand:
        rank, suit = rank_of(card), suit_of(card)
        guarded = rank == KING and sum(1 for c in hand if suit_of(c) == suit) >= 2
        if rank == ACE or guarded:
            count += 1
    return count


def closest_bid(target: int, legal: Sequence[int]) -> int:
    """The legal bid closest to ``target``; of two as close, the lower."""
    return min(legal, key=lambda bid: (abs(bid - target), bid))


def default_trump(hand: Sequence[int]) -> int:
    """The suit the table chooses for a seat: its longest suit, ties by ♣ ♦ ♥ ♠."""
    return longest_suit(hand)
