"""How cards are played to a trick and which card takes it (rules §6).

Following: a seat holding a card of the led suit must play one; the suit of a card is its
*effective* suit, so the left bower follows trump and never its printed suit. Without the led
suit any card may be played. The highest trump takes the trick; with no trump in it, the
highest card of the led suit does.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.euchre.cards import (
    SUIT_NAMES,
    SUIT_SINGULAR,
    effective_suit,
    is_trump,
    label,
    labels,
    left_bower,
    strength,
    suit_of,
)

Trick = Sequence[tuple[int, int]]


def play_reasons(hand: Sequence[int], trick: Trick, trump: int) -> list[tuple[int, str]]:
    """Each card of ``hand`` with the reason it may not be played now ("" when it may)."""
    if not trick:
        return [(card, "") for card in hand]
    led = effective_suit(trick[0][1], trump)
    following = [card for card in hand if effective_suit(card, trump) == led]
    if not following:
        return [(card, "") for card in hand]
    left = left_bower(trump)
    note = ""
    if left in following:  # a trump lead, and the left bower is one of the trumps held
        note = f" — the left bower {label(left)} counts as a {SUIT_SINGULAR[trump]} this hand"
    base = f"You must follow {SUIT_NAMES[led]}: you hold {labels(following)}{note}"
    reasons = []
    for card in hand:
        if card in following:
            reasons.append((card, ""))
        elif card == left and suit_of(card) == led:
            reasons.append(
                (
                    card,
                    f"You must follow {SUIT_NAMES[led]}: you hold {labels(following)} — the left "
                    f"bower {label(card)} counts as a {SUIT_SINGULAR[trump]} this hand, not a "
                    f"{SUIT_SINGULAR[led]}",
                )
            )
        else:
            reasons.append((card, base))
    return reasons


def play_reason(hand: Sequence[int], trick: Trick, trump: int, card: int) -> str:
    """Why ``card`` of ``hand`` may not be played now ("" when it may): ``play_reasons`` of one
    card, its words built only for a card that may not go (a move checked is most often legal)."""
    if not trick:
        return ""
    led = effective_suit(trick[0][1], trump)
    if effective_suit(card, trump) == led or all(effective_suit(c, trump) != led for c in hand):
        return ""
    return dict(play_reasons(hand, trick, trump))[card]


def legal_cards(hand: Sequence[int], trick: Trick, trump: int) -> list[int]:
    return [card for card, why in play_reasons(hand, trick, trump) if not why]


def power(card: int, trump: int, led: int) -> int:
    """How strongly ``card`` bids for a trick led in ``led``: any trump beats the led suit,
    which beats the other suits (-1: it cannot take the trick)."""
    suit = effective_suit(card, trump)
    if suit == trump:
        return 10 + strength(card, trump)
    if suit == led:
        return strength(card, trump)
    return -1


def trick_winner(trick: Trick, trump: int) -> int:
    """The seat that takes a complete trick."""
    led = effective_suit(trick[0][1], trump)
    return max(trick, key=lambda played: power(played[1], trump, led))[0]


def safe_order(card: int, trump: int | None) -> tuple[bool, int, int]:
    """The order of the table's choice for a seat (rules §7), lowest first: a non-trump before
    a trump, then the lower by rank within the suit (bowers highest), then ♣ ♦ ♥ ♠."""
    return is_trump(card, trump), strength(card, trump), suit_of(card)


def safest(cards: Sequence[int], trump: int | None) -> int:
    """The card the table plays or discards for a seat it decides for."""
    return min(cards, key=lambda card: safe_order(card, trump))


def stuck_suit(hand: Sequence[int], barred: int) -> int:
    """The suit the table names for a stuck dealer: the one of the three open suits that would
    give the most trumps (its cards plus the left bower), ties by ♣ ♦ ♥ ♠."""
    open_suits = [suit for suit in range(4) if suit != barred]
    return max(
        open_suits,
        key=lambda suit: (sum(1 for card in hand if is_trump(card, suit)), -suit),
    )
