"""A third-party heuristic bot: Swick played by the old advice for Three-Card Loo, Rams, Bourré.

It imports nothing but the bot SDK (``swick_sdk``). Its rules of thumb come from:

- Loo, hints to players (stand on two trumps, an honour in trumps, the King of trumps; risk more
  the fewer stand against you; not without a trump unless the cards are very high):
  http://www.playingcardgames.net/m/CardGames/Hints-To-Players.html
- Loo, playing the hands (the leader with the Ace of trumps, or two trumps, leads the highest):
  http://www.playingcardgames.net/m/CardGames/Playing-The-Hands-1.html
- the Rams group (drop out with a hand unlikely to take a trick): https://gambiter.com/cards/rams/
- Bourré (keep trumps and high cards for tricks they are sure to win):
  https://roulette.baby/blog/bourre-basics-how-to-master-the-card-game/

Adapted to Swick, where a knock is followed by a draw of up to three: it knocks on any trump or
Ace while nobody is in; with one in, on a trump and a side King, or two Aces; with two or more, on
a trump honour, two trumps, or a trump and a side Ace; a step looser last to speak (on anything
when only the dealer is left), a step tighter against a kept face trump. It draws to trumps and
Aces. As dealer it keeps a King or Ace of trump (others then pass, and the pot is the dealer's)
and, with a face trump, plays for two tricks when its cards are worth about 1.3 tricks (against
Set single, Play gains 5/3 of the pot with two tricks and loses 2/3 with one: worth it at 2 in
7). It leads its top trump, else a card nobody can head in its suit; wins and ducks cheaply.

    swick arena --seats hard,examples.loo_bot:LooPlayer,examples.loo_bot:LooPlayer \\
        --duplicate --deals 1000
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from swick_sdk import swick as sdk

SEVEN, JACK, KING, ACE = 0, 4, 6, 7
TRICK_WORTH = {ACE: 1.0, KING: 0.8, 5: 0.6, JACK: 0.5}  # a trump's likely tricks; low: 0.35
PLAY_FOR_TWO = 1.3


def cheapness(card: sdk.Card, trump: int | None) -> tuple[bool, int]:
    """Lower is cheaper to give up: a side card before a trump, then by rank."""
    return sdk.suit_of(card) == trump, sdk.rank_of(card)


def live_cards(view: sdk.SwickView) -> set[sdk.Card]:
    """The cards that may still be in another player's hand."""
    gone = set(sdk.seen_cards(view))
    if view.kept and view.trump_card is not None and view.seat != view.dealer:
        gone.discard(view.trump_card)  # the dealer holds it
    return set(range(32)) - gone


def is_boss(card: sdk.Card, live: set[sdk.Card]) -> bool:
    """No live card of the suit ranks above ``card``."""
    suit, rank = sdk.suit_of(card), sdk.rank_of(card)
    return not any(sdk.suit_of(c) == suit and sdk.rank_of(c) > rank for c in live)


def tier(hand: Sequence[sdk.Card], trump: int | None) -> int:
    """3 a hand to play anywhere, 2 a good one, 1 a fair one, 0 a straw, -1 nothing."""
    ranks = [sdk.rank_of(c) for c in hand]
    trumps = sorted((sdk.rank_of(c) for c in hand if sdk.suit_of(c) == trump), reverse=True)
    side = [sdk.rank_of(c) for c in hand if sdk.suit_of(c) != trump]
    if ranks.count(ACE) >= 3 or ranks.count(SEVEN) >= 3:
        return 3  # a special hand wins the pot outright
    top = trumps[0] if trumps else -1
    if top >= KING or len(trumps) >= 3 or (len(trumps) == 2 and top >= JACK):
        return 3
    if top >= JACK or len(trumps) == 2 or (trumps and ACE in side):
        return 2
    if (trumps and KING in side) or side.count(ACE) >= 2:
        return 1
    return 0 if trumps or ACE in side else -1


def beats(card: sdk.Card, best: sdk.Card, led: int, trump: int | None) -> bool:
    """Whether ``card`` heads a trick whose winning card so far is ``best``."""
    if sdk.suit_of(card) == trump:
        return sdk.suit_of(best) != trump or sdk.rank_of(card) > sdk.rank_of(best)
    return sdk.suit_of(card) == led == sdk.suit_of(best) and sdk.rank_of(card) > sdk.rank_of(best)


def draw(view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action | None:
    """Keep trumps and Aces (and a special hand), discard the rest; never the kept card."""
    hand, trump = sdk.own_cards(view), sdk.trump_suit(view)
    junk = [c for c in hand if sdk.suit_of(c) != trump and sdk.rank_of(c) != ACE]
    if tier(hand, trump) == 3 and len({sdk.rank_of(c) for c in hand}) == 1:
        junk = []  # three Sevens: stand pat
    junk = sorted((c for c in junk if c != view.trump_card), key=lambda c: cheapness(c, trump))
    draws = [a for a in legal if isinstance(a, sdk.Draw)]
    exact = [a for a in draws if set(a.discards) == set(junk[:3])]
    if exact or not draws:
        return exact[0] if exact else None
    return max(draws, key=lambda a: len(set(a.discards) & set(junk)) - len(a.discards))


class LooPlayer:
    """Knocks, draws and plays by the Loo players' rules of thumb (see the module docstring)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action:
        hand, trump, phase = sdk.own_cards(view), sdk.trump_suit(view), view.phase
        wanted: sdk.Action | None = None
        if phase is sdk.Phase.ANTE:
            antes = [a.amount for a in legal if isinstance(a, sdk.ChooseAnte)]
            wanted = sdk.ChooseAnte(min(antes)) if antes else None
        elif phase is sdk.Phase.READY:
            wanted = sdk.Ready()
        elif phase is sdk.Phase.TRUMP and view.trump_card is not None:
            wanted = sdk.DecideTrump(keep=sdk.rank_of(view.trump_card) >= KING)
        elif phase is sdk.Phase.KNOCK:
            knocked = sum(view.seats[s].status == "in" for s in view.order[:-1])
            late = len(view.order) > 1 and view.seat == view.order[-2]
            face_kept = view.kept and sdk.rank_of(view.trump_card or 0) >= JACK
            bar = min(knocked, 2) - late + face_kept  # last to speak, nobody in: any hand
            wanted = sdk.Knock(knock=tier(hand, trump) >= bar)
        elif phase is sdk.Phase.DEALER_KNOCK:
            rivals = [view.seats[s] for s in sdk.play_order(view) if s != view.seat]
            bar = min(len(rivals), 3) - 1 + any(r.drew == 0 for r in rivals)
            wanted = sdk.Knock(knock=view.kept or tier(hand, trump) >= bar)  # a kept card commits
        elif phase in (sdk.Phase.DRAW, sdk.Phase.DEALER_DRAW):
            wanted = draw(view, legal)
        elif phase is sdk.Phase.DEALER_DISCARD:
            cards = [a.card for a in legal if isinstance(a, sdk.DiscardFourth)]
            wanted = sdk.DiscardFourth(min(cards, key=lambda c: cheapness(c, trump)))
        elif phase is sdk.Phase.FACE_TRUMP:
            worth = sum(
                TRICK_WORTH.get(sdk.rank_of(c), 0.35)
                if sdk.suit_of(c) == trump
                else 0.7 * (sdk.rank_of(c) == ACE) + 0.3 * (sdk.rank_of(c) == KING)
                for c in hand
            )
            wanted = sdk.FaceTrump(play=worth >= PLAY_FOR_TWO)
        elif phase is sdk.Phase.TRICKS:
            cards = [a.card for a in legal if isinstance(a, sdk.PlayCard)]
            wanted = sdk.PlayCard(self.play(view, cards, trump)) if cards else None
        return wanted if wanted is not None and wanted in legal else legal[0]

    def play(self, view: sdk.SwickView, cards: list[sdk.Card], trump: int | None) -> sdk.Card:
        live = live_cards(view)
        by_cost = sorted(cards, key=lambda c: cheapness(c, trump))
        if not view.trick:  # lead: top trump, else a card nobody can head in its suit
            trumps = [c for c in by_cost if sdk.suit_of(c) == trump]
            if trumps and (is_boss(trumps[-1], live) or len(trumps) >= 2):
                return trumps[-1]
            sure = [c for c in by_cost if is_boss(c, live)]
            return sure[-1] if sure else by_cost[0]
        best = view.trick[0][1]
        led = sdk.suit_of(best)
        for _, card in view.trick[1:]:
            if beats(card, best, led, trump):
                best = card
        winners = [c for c in by_cost if beats(c, best, led, trump)]
        last = len(view.trick) == len(sdk.play_order(view)) - 1
        if winners and not last:  # others still to play: prefer the cheapest sure winner
            sure = [c for c in winners if sdk.suit_of(c) == trump and is_boss(c, live)]
            return (sure or winners)[0]
        return winners[0] if winners else by_cost[0]
