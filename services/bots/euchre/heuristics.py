"""Rules of thumb for every Euchre decision: the ``medium`` bot, and the playout policy of the
``hard`` bot's search.

A hand's worth counts likely tricks with a suit as trump: the right bower is nearly a sure
trick, then the left bower, the trump Ace and down; a side Ace is most of a trick, and a void
beside two trumps lets one ruff. A seat makes trump when its hand is worth about three tricks
(the turn-up helps the dealer's side and counts against the other), and goes alone only with a
hand worth nearly five. In play it leads its best trump when its side made trump, else a side
Ace; it leaves a trick its partner is sure to take, takes one with the cheapest card that can,
and otherwise throws its weakest card.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.bots.euchre.knowledge import Knowledge
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import (
    ACE,
    DECK,
    KING,
    SUITS,
    effective_suit,
    is_trump,
    rank_of,
    strength,
    suit_of,
)
from shared.games.euchre.play import power, safe_order, trick_winner
from shared.games.euchre.state import Phase, partner_of

# A trump's worth in tricks, by its strength (9 10 - Q K A left right as 0 to 7).
TRUMP_VALUE = (0.45, 0.5, 0.0, 0.6, 0.65, 0.75, 0.9, 1.0)
SIDE_ACE = 0.7
SIDE_KING = 0.2
VOID_WITH_TRUMPS = 0.3
MAKE_AT = 2.7  # about three tricks with the partner's help
ALONE_AT = 4.3  # about five tricks alone
TURN_UP_SHARE = 0.5  # of the turn-up's worth, for (or against) the dealer's side


def hand_value(hand: Sequence[int], trump: int) -> float:
    """Likely tricks of ``hand`` with ``trump`` as trump."""
    value = 0.0
    trumps = 0
    for card in hand:
        if is_trump(card, trump):
            trumps += 1
            value += TRUMP_VALUE[strength(card, trump)]
        elif rank_of(card) == ACE:
            value += SIDE_ACE
        elif rank_of(card) == KING:
            value += SIDE_KING
    if trumps >= 2:
        held = {effective_suit(card, trump) for card in hand}
        value += VOID_WITH_TRUMPS * sum(1 for suit in SUITS if suit != trump and suit not in held)
    return value


def weakest(hand: Sequence[int], trump: int) -> int:
    """The dealer's discard: an off-suit card, the one that empties a suit first (never an Ace
    when another will do), the lowest; the lowest trump when all are trumps."""
    side = [card for card in hand if not is_trump(card, trump)]
    if not side:
        return min(hand, key=lambda card: strength(card, trump))

    def cost(card: int) -> tuple[bool, int, int]:
        suit = effective_suit(card, trump)
        length = sum(1 for other in side if effective_suit(other, trump) == suit)
        return rank_of(card) == ACE, length, rank_of(card)

    return min(side, key=cost)


def after_pickup(hand: Sequence[int], turn_up: int) -> tuple[int, ...]:
    """The dealer's hand once they take the turn-up and discard their weakest card."""
    six = (*hand, turn_up)
    out = weakest(six, suit_of(turn_up))
    return tuple(card for card in six if card != out)


def order_worth(k: Knowledge) -> float:
    """What ordering the turn-up is worth to this seat's side, in likely tricks."""
    assert k.turn_up is not None
    trump = suit_of(k.turn_up)
    if k.seat == k.dealer:
        return hand_value(after_pickup(k.hand, k.turn_up), trump)
    share = TURN_UP_SHARE * TRUMP_VALUE[strength(k.turn_up, trump)]
    mine = hand_value(k.hand, trump)
    return mine + share if partner_of(k.seat) == k.dealer else mine - share


def choose(k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
    """One of ``legal`` (never empty)."""
    choice = _choice(k, legal)
    return choice if choice in legal else legal[0]


def _choice(k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
    if k.phase is Phase.ORDER:
        worth = order_worth(k)
        if worth >= ALONE_AT:
            return ac.OrderUp(alone=True)
        return ac.OrderUp(alone=False) if worth >= MAKE_AT else ac.Pass()
    if k.phase is Phase.NAME:
        return _name(k, legal)
    if k.phase is Phase.DISCARD:
        assert k.trump is not None
        return ac.Discard(weakest(k.hand, k.trump))
    if k.phase is Phase.TRICKS:
        cards = [a.card for a in legal if isinstance(a, ac.PlayCard)]
        return ac.PlayCard(play(k, cards)) if cards else legal[0]
    return legal[0]


def _name(k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
    suits = {a.suit for a in legal if isinstance(a, ac.NameTrump)}
    if not suits:
        return ac.Pass()
    best = max(sorted(suits), key=lambda suit: hand_value(k.hand, suit))
    worth = hand_value(k.hand, best)
    if worth >= ALONE_AT:
        return ac.NameTrump(best, alone=True)
    if worth >= MAKE_AT or ac.Pass() not in legal:  # a stuck dealer must name one
        return ac.NameTrump(best, alone=False)
    return ac.Pass()


def unseen(k: Knowledge) -> set[int]:
    """The cards this seat has not seen played and does not hold (the turn-up, left on the
    kitty, is out of play too)."""
    gone = set(k.hand)
    for trick in (*k.played, k.trick):
        gone.update(card for _, card in trick)
    if k.turn_up is not None and k.turn_up_at in ("up", "down", "kitty"):
        gone.add(k.turn_up)
    return set(DECK) - gone


def unbeatable(card: int, trump: int, led: int, others: set[int]) -> bool:
    """No card still out could beat ``card`` in a trick led in ``led``."""
    mine = power(card, trump, led)
    return all(power(other, trump, led) <= mine for other in others)


def top_of_suit(card: int, trump: int, others: set[int]) -> bool:
    """No card still out of ``card``'s suit is higher."""
    suit = effective_suit(card, trump)
    return all(
        effective_suit(other, trump) != suit or strength(other, trump) < strength(card, trump)
        for other in others
    )


def play(k: Knowledge, cards: Sequence[int]) -> int:
    """The card to play of ``cards`` (the legal ones)."""
    trump = k.trump
    assert trump is not None
    out = unseen(k)
    if not k.trick:
        return _lead(k, cards, trump, out)
    led = effective_suit(k.trick[0][1], trump)
    winner = trick_winner(k.trick, trump)
    best = next(card for seat, card in k.trick if seat == winner)
    players = 3 if k.alone else 4
    last = len(k.trick) == players - 1
    lowest = min(cards, key=lambda card: safe_order(card, trump))
    takers = sorted(
        (card for card in cards if power(card, trump, led) > power(best, trump, led)),
        key=lambda card: power(card, trump, led),
    )
    if winner == partner_of(k.seat):
        if last or unbeatable(best, trump, led, out) or not takers:
            return lowest
        sure = [card for card in takers if unbeatable(card, trump, led, out)]
        return sure[0] if sure else lowest
    return takers[0] if takers else lowest


def _lead(k: Knowledge, cards: Sequence[int], trump: int, out: set[int]) -> int:
    trumps = sorted((c for c in cards if is_trump(c, trump)), key=lambda c: strength(c, trump))
    ours = k.maker is not None and k.maker % 2 == k.seat % 2
    if trumps and ours:
        top = trumps[-1]
        if unbeatable(top, trump, trump, out) or len(trumps) >= 2 or k.maker != k.seat:
            return top
    side = [card for card in cards if not is_trump(card, trump)]
    bosses = [card for card in side if top_of_suit(card, trump, out)]
    if bosses:  # a side card no one can beat but by trumping
        return max(bosses, key=rank_of)
    if side:

        def shortness(card: int) -> tuple[int, int]:
            suit = effective_suit(card, trump)
            return sum(1 for c in side if effective_suit(c, trump) == suit), rank_of(card)

        return min(side, key=shortness)
    return trumps[0]
