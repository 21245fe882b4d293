"""Sound rules of thumb for every Swick decision: the ``medium`` bot, and the playout policy
of the ``hard`` bot's search.

Hand strength counts likely tricks: a trump is worth 1 and more the higher it is, a side Ace
nearly 1, a side King a little. A player knocks with about one sure trick, keeps trumps and
side Aces when drawing, and in play wins a trick with the cheapest card that can, or else
throws the cheapest card it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.bots.knowledge import Knowledge
from shared.games.swick import actions as ac
from shared.games.swick.cards import ACE, KING, Card, is_face
from shared.games.swick.play import special_kind, trick_winner
from shared.games.swick.state import Phase

KNOCK_AT = 1.5
EACH_RIVAL = 0.15
PLAY_FACE_AT = 2.6
KEEP_AT = 0.5  # a card worth less is thrown away when drawing


def card_value(card: Card, trump: int | None) -> float:
    rank = card & 7
    if card >> 3 == trump:
        return 1.0 + rank / 7
    if rank == ACE:
        return 0.9
    if rank == KING:
        return 0.35
    return 0.0


def strength(hand: Sequence[Card], trump: int | None) -> float:
    return sum(card_value(card, trump) for card in hand)


def special(hand: Sequence[Card], trump: int | None) -> bool:
    return trump is not None and special_kind(list(hand), trump) is not None


def choose(k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
    """The medium choice among ``legal`` (which is never empty)."""
    phase = k.phase
    if phase is Phase.TRICKS:
        return _play(k, [a for a in legal if isinstance(a, ac.PlayCard)])
    if phase is Phase.KNOCK or phase is Phase.DEALER_KNOCK:
        return ac.Knock(_knocks(k))
    if phase is Phase.DRAW or phase is Phase.DEALER_DRAW:
        return _draw(k, [a for a in legal if isinstance(a, ac.Draw)])
    if phase is Phase.DEALER_DISCARD:
        cards = [a.card for a in legal if isinstance(a, ac.DiscardFourth)]
        return ac.DiscardFourth(min(cards, key=lambda c: (card_value(c, k.trump), c & 7)))
    if phase is Phase.FACE_TRUMP:
        return ac.FaceTrump(play=strength(k.hand, k.trump) >= PLAY_FACE_AT)
    if phase is Phase.TRUMP:
        assert k.trump_card is not None
        rank = k.trump_card & 7
        return ac.DecideTrump(keep=rank == ACE or (not is_face(k.trump_card) and rank >= 2))
    if phase is Phase.ANTE:
        return min((a for a in legal if isinstance(a, ac.ChooseAnte)), key=lambda a: a.amount)
    ready = [a for a in legal if isinstance(a, ac.Ready)]
    return ready[0] if ready else legal[0]


def _knocks(k: Knowledge) -> bool:
    if k.phase is Phase.DEALER_KNOCK and k.kept:
        return True  # passing would set the dealer
    if special(k.hand, k.trump):
        return True
    return strength(k.hand, k.trump) >= KNOCK_AT + EACH_RIVAL * k.knocked


def _draw(k: Knowledge, options: Sequence[ac.Draw]) -> ac.Draw:
    if special(k.hand, k.trump):
        return min(options, key=lambda a: len(a.discards))
    weak = {card for card in k.hand if card_value(card, k.trump) < KEEP_AT}
    protected = k.trump_card if k.kept and k.seat == k.dealer else None
    wanted = weak - {protected} if protected is not None else weak
    return max(options, key=lambda a: (set(a.discards) <= wanted, len(a.discards)))


def _play(k: Knowledge, plays: Sequence[ac.PlayCard[Card]]) -> ac.PlayCard[Card]:
    cards = [a.card for a in plays]
    trump = k.trump
    assert trump is not None
    if not k.trick:
        return ac.PlayCard(_lead(k, cards, trump))
    winners = [card for card in cards if trick_winner([*k.trick, (k.seat, card)], trump) == k.seat]
    if winners:
        return ac.PlayCard(min(winners, key=lambda c: (c >> 3 == trump, c & 7)))
    return ac.PlayCard(_cheapest(cards, trump))


def _cheapest(cards: Sequence[Card], trump: int) -> Card:
    """The card worth least to keep: a non-trump before a trump, then the lower rank."""
    return min(cards, key=lambda c: (c >> 3 == trump, c & 7, c >> 3))


def _lead(k: Knowledge, cards: Sequence[Card], trump: int) -> Card:
    gone = {card for trick in k.played for _, card in trick}
    live_trumps = [c for c in range(trump * 8, trump * 8 + 8) if c not in gone]
    if live_trumps and max(live_trumps) in cards:
        return max(live_trumps)
    aces = [card for card in cards if card & 7 == ACE and card >> 3 != trump]
    if aces:
        return aces[0]
    return _cheapest(cards, trump)
