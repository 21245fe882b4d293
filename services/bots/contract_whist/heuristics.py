"""The medium bot's rules of thumb: bid the tricks the hand is likely to take (never the
hook's forbidden bid), name its strongest long suit trump (no trumps with many high cards and
no long suit), then play to make the bid exactly: win while tricks are still needed, duck
once the bid is made."""

from __future__ import annotations

from collections.abc import Sequence

from services.bots.contract_whist.knowledge import Knowledge, winning_power
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import ACE, KING, SUITS, rank_of, suit_of
from shared.games.contract_whist.play import power

QUEEN = KING - 1


def likely_tricks(hand: Sequence[int]) -> float:
    """Aces, guarded kings and queens, and the length of the longest suit (trump, if this
    hand names it; long cards otherwise)."""
    by_suit = [[rank_of(c) for c in hand if suit_of(c) == suit] for suit in SUITS]
    tricks = 0.0
    for ranks in by_suit:
        length = len(ranks)
        tricks += 0.9 * (ACE in ranks)
        tricks += (0.65 if length >= 2 else 0.25) * (KING in ranks)
        tricks += (0.35 if length >= 3 else 0.0) * (QUEEN in ranks)
    longest = max(len(ranks) for ranks in by_suit)
    return tricks + max(0, longest - 3) * 0.6


def choose_bid(hand: Sequence[int], legal: Sequence[int]) -> int:
    """The legal bid nearest the hand's likely tricks (ties: the lower). ``legal`` never holds
    the forbidden bid."""
    want = min(likely_tricks(hand), len(hand))
    return min(legal, key=lambda bid: (abs(bid - want), bid))


def choose_trump(hand: Sequence[int]) -> int | None:
    """The suit with the most length and honours; no trumps when no suit is long and the hand
    is full of aces and kings."""

    def strength(suit: int) -> float:
        ranks = [rank_of(c) for c in hand if suit_of(c) == suit]
        return len(ranks) + 0.4 * sum(r >= QUEEN for r in ranks)

    best = max(SUITS, key=lambda suit: (strength(suit), -suit))
    longest = max(sum(suit_of(c) == suit for c in hand) for suit in SUITS)
    high = sum(rank_of(c) >= KING for c in hand)
    if hand and longest * 4 <= len(hand) + 4 and high * 2 >= len(hand):
        return None
    return best


def choose_card(k: Knowledge, legal: Sequence[int]) -> int:
    """Win the trick while the bid needs tricks, duck once it is made."""
    need = k.need()
    if not k.trick:
        # Leading: a top card to take a trick, a low one to lose the lead.
        if need > 0:
            return max(legal, key=lambda c: (power(c, k.trump, suit_of(c)), -suit_of(c)))
        return min(legal, key=lambda c: (suit_of(c) == k.trump, rank_of(c), suit_of(c)))
    led = suit_of(k.trick[0][1])
    best = winning_power(k.trick, k.trump)
    winners = [c for c in legal if power(c, k.trump, led) > best]
    losers = [c for c in legal if power(c, k.trump, led) <= best]
    if need > 0:
        if winners:
            last = len(k.trick) == k.seats - 1
            # Last to play: the cheapest winner; otherwise a strong one, as others follow.
            pick = min if last else max
            return pick(winners, key=lambda c: power(c, k.trump, led))
        return _shed(losers, k.trump)
    if losers:
        return max(losers, key=lambda c: (power(c, k.trump, led), rank_of(c)))
    return max(winners, key=lambda c: power(c, k.trump, led))


def _shed(cards: Sequence[int], trump: int | None) -> int:
    """The least useful card: the lowest of a side suit."""
    return min(cards, key=lambda c: (suit_of(c) == trump, rank_of(c), suit_of(c)))


def choose(k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
    bids = [a.bid for a in legal if isinstance(a, ac.MakeBid)]
    if bids:
        return ac.MakeBid(choose_bid(k.hand, bids))
    if any(isinstance(a, ac.ChooseTrump) for a in legal):
        return ac.ChooseTrump(choose_trump(k.hand))
    cards = [a.card for a in legal if isinstance(a, ac.PlayCard)]
    if cards:
        return ac.PlayCard(choose_card(k, cards))
    return legal[0]
