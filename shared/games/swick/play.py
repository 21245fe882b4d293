"""How cards are played to a trick, which card takes it, and the special hands.

Following (rules §2.9), for each card after the lead:
1. holding the led suit, play it, and a card higher than the highest of that suit in the trick
   when you hold one (even when the trick is already trumped);
2. void in the led suit but holding trump, play a trump (any trump);
3. otherwise play any card.
The leader of the first trick must lead the Ace of trump when they hold it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from shared.games.swick.cards import ACE, KING, QUEEN, SEVEN, SUIT_SYMBOLS, Card, label, labels
from shared.games.swick.state import SpecialKind

Trick = Sequence[tuple[int, Card]]

SPECIAL_RANKING: tuple[SpecialKind, ...] = ("three_aces", "three_sevens", "ace_king_queen_of_trump")
SPECIAL_NAMES: dict[SpecialKind, str] = {
    "three_aces": "Three Aces",
    "three_sevens": "Three 7s",
    "ace_king_queen_of_trump": "Ace-King-Queen of trump",
}


def play_rule(
    hand: Sequence[Card], trick: Trick, trump: int, first_lead: bool
) -> tuple[Collection[Card] | None, Callable[[], str]]:
    """The cards of ``hand`` that may be played now (``None``: any) and why the others may not.

    The reason is built only when asked for, as most callers never need it.
    """
    if not trick:
        ace = trump * 8 + ACE
        if first_lead and ace in hand:
            return (
                (ace,),
                lambda: (
                    f"You must lead the {label(ace)}: the first trick opens with the Ace of trump"
                ),
            )
        return None, str
    led = trick[0][1] >> 3
    following = [card for card in hand if card >> 3 == led]
    if following:
        top = max(card for _, card in trick if card >> 3 == led)
        higher = [card for card in following if card > top]
        if higher:
            return (
                higher,
                lambda: f"You must play a higher {SUIT_SYMBOLS[led]}: you hold {labels(higher)}",
            )
        return (
            following,
            lambda: f"You must follow {SUIT_SYMBOLS[led]}: you hold {labels(following)}",
        )
    trumps = [card for card in hand if card >> 3 == trump]
    if trumps:
        return (
            trumps,
            lambda: (
                f"You have no {SUIT_SYMBOLS[led]}, so you must play a trump ({SUIT_SYMBOLS[trump]})"
            ),
        )
    return None, str


def play_reasons(
    hand: Sequence[Card], trick: Trick, trump: int, first_lead: bool
) -> list[tuple[Card, str]]:
    """Each card of ``hand`` with the reason it may not be played now ("" when it may)."""
    allowed, why = play_rule(hand, trick, trump, first_lead)
    if allowed is None:
        return [(card, "") for card in hand]
    reason = why()
    return [(card, "" if card in allowed else reason) for card in hand]


def trick_winner(trick: Trick, trump: int) -> int:
    """The seat that takes a complete trick: the highest trump, else the highest of the led suit."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        same_suit = card >> 3 == best >> 3
        if (same_suit and card > best) or (card >> 3 == trump and best >> 3 != trump):
            best_seat, best = seat, card
    return best_seat


def lowest(cards: Sequence[Card], trump: int | None) -> Card:
    """The card the table plays or discards for a seat it decides for (rules §3): the lowest
    rank; among equal ranks a non-trump before a trump, then the suit order ♣ ♦ ♥ ♠. So with ♦
    trump, 7♦ comes before 8♥."""
    return min(cards, key=lambda card: (card & 7, card >> 3 == trump, card >> 3))


def special_kind(cards: Sequence[Card], trump: int) -> SpecialKind | None:
    if len(cards) != 3:
        return None
    ranks = {card & 7 for card in cards}
    if ranks == {ACE}:
        return "three_aces"
    if ranks == {SEVEN}:
        return "three_sevens"
    if set(cards) == {trump * 8 + ACE, trump * 8 + KING, trump * 8 + QUEEN}:
        return "ace_king_queen_of_trump"
    return None


def best_special(
    hands: Sequence[tuple[int, Sequence[Card]]], trump: int
) -> tuple[int, SpecialKind] | None:
    """The seat holding the best special hand among ``(seat, cards)``, if anyone holds one."""
    found = [
        (SPECIAL_RANKING.index(kind), seat, kind)
        for seat, cards in hands
        if (kind := special_kind(cards, trump)) is not None
    ]
    if not found:
        return None
    _, seat, kind = min(found)
    return seat, kind
