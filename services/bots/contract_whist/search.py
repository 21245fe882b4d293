"""The hard bot: every decision by sampled worlds (the hidden cards dealt to the other seats
as their hand sizes and shown voids allow), a fixed number of them, the same worlds for every
option, each played out to the end of the round by the medium bot's rules of thumb; the option
with the best average points for its seat (the rules' round scoring), ties to the medium bot's
choice.

- Bidding: the legal bids within ``BID_SPREAD`` of the medium bot's (never the hook's forbidden
  bid: it is not legal). In each world the others bid as they did, or, not yet bid, as the
  medium bot would with their sampled hand (the last bidder kept off the forbidden bid); the
  highest bidder names trump as the medium bot would; the bot plays to its candidate bid.
- Trump (the highest bidder): each of the four suits and no trumps, the bids as made.
- Cards: each card it may play.

The same generator gives the same choices."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from services.bots.contract_whist import heuristics
from services.bots.contract_whist.knowledge import Knowledge, Trick, voids
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import DECK, SUITS, suit_of
from shared.games.contract_whist.play import legal_cards, trick_winner
from shared.games.contract_whist.scoring import points

WORLDS = 16  # per decision: fixed, so a seed gives the same choice on any machine
BID_SPREAD = 2  # bids searched: within this many of the medium bot's


def sample_world(k: Knowledge, rng: random.Random) -> list[list[int]]:
    """Every seat's hand in one world consistent with what ``k``'s seat has seen: its own as
    it is, the others drawn from the unseen cards (dealt or not), never of a suit the seat
    showed it lacks (unless nothing else is left)."""
    seen = set(k.hand) | {card for trick in (*k.played, k.trick) for _, card in trick}
    unseen = [card for card in DECK if card not in seen]
    rng.shuffle(unseen)
    void = voids(k)
    hands: list[list[int]] = [[] for _ in range(k.seats)]
    hands[k.seat] = list(k.hand)
    others = sorted((s for s in range(k.seats) if s != k.seat), key=lambda s: -len(void[s]))
    for seat in others:
        fits = [card for card in unseen if suit_of(card) not in void[seat]]
        if len(fits) < k.held[seat]:
            fits = unseen
        hands[seat] = fits[: k.held[seat]]
        taken = set(hands[seat])
        unseen = [card for card in unseen if card not in taken]
    return hands


def finish(
    k: Knowledge,
    hands: list[list[int]],
    bids: Sequence[int],
    trump: int | None,
    seat: int,
    first: int | None = None,
) -> int:
    """``k``'s seat's points for the round when, from ``k``'s trick, tricks and played cards,
    ``seat`` is to play (``first``, if given, else by the rules of thumb) and every seat then
    follows the medium rules of thumb in the world ``hands`` with ``bids`` and ``trump``."""
    trick: list[tuple[int, int]] = list(k.trick)
    tricks = list(k.tricks)
    played: list[Trick] = list(k.played)
    held_bids = tuple(bids)
    card = first
    while True:
        if card is None:
            view = Knowledge(
                seat=seat,
                seats=k.seats,
                cards=k.cards,
                first=k.first,
                hand=tuple(hands[seat]),
                held=tuple(len(h) for h in hands),
                bids=held_bids,
                tricks=tuple(tricks),
                trump=trump,
                trick=tuple(trick),
                played=tuple(played),
            )
            card = heuristics.choose_card(view, legal_cards(hands[seat], tuple(trick)))
        hands[seat].remove(card)
        trick.append((seat, card))
        card = None
        if len(trick) == k.seats:
            seat = trick_winner(tuple(trick), trump)
            tricks[seat] += 1
            played.append(tuple(trick))
            trick = []
            if not hands[seat]:
                break
        else:
            seat = (seat + 1) % k.seats
    return points(k.cards, bids[k.seat], tricks[k.seat], sum(bids))


def playout(k: Knowledge, hands: list[list[int]], first: int) -> int:
    """``k``'s seat's points for the round when it plays ``first`` now and every seat then
    follows the medium rules of thumb in the world ``hands``."""
    return finish(k, hands, [b or 0 for b in k.bids], k.trump, k.seat, first)


def world_bids(k: Knowledge, hands: Sequence[Sequence[int]], mine: int) -> list[int]:
    """Every seat's bid in a world: as made, ``mine`` for ``k``'s seat, and the medium bot's
    for the seats yet to bid (in bidding order, the last kept off the forbidden bid)."""
    bids = [b or 0 for b in k.bids]
    bids[k.seat] = mine
    order = [(k.first + i) % k.seats for i in range(k.seats)]
    for i, seat in enumerate(order):
        if seat == k.seat or k.bids[seat] is not None:
            continue
        options = list(range(k.cards + 1))
        if i == k.seats - 1:
            hook = k.cards - sum(bids[s] for s in order[:i])
            options = [b for b in options if b != hook]
        bids[seat] = heuristics.choose_bid(hands[seat], options)
    return bids


def chooser(k: Knowledge, bids: Sequence[int]) -> int:
    """The highest bidder, the earliest in bidding order of several."""
    order = [(k.first + i) % k.seats for i in range(k.seats)]
    return max(order, key=lambda seat: (bids[seat], -order.index(seat)))


def start(k: Knowledge) -> Knowledge:
    """``k`` at the first trick: nothing played, nobody has taken a trick."""
    return replace(k, tricks=(0,) * k.seats, trick=(), played=())


class Search:
    def __init__(self, rng: random.Random, worlds: int = WORLDS) -> None:
        self.rng = rng
        self.worlds = worlds

    def choose(self, k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
        bids = [a.bid for a in legal if isinstance(a, ac.MakeBid)]
        if len(bids) > 1:
            return ac.MakeBid(self.choose_bid(k, bids))
        trumps = [a.suit for a in legal if isinstance(a, ac.ChooseTrump)]
        if len(trumps) > 1:
            return ac.ChooseTrump(self.choose_trump(k, trumps))
        cards = [a.card for a in legal if isinstance(a, ac.PlayCard)]
        if len(cards) < 2 or any(b is None for b in k.bids):
            return heuristics.choose(k, legal)
        totals = dict.fromkeys(cards, 0)
        for _ in range(self.worlds):
            world = sample_world(k, self.rng)
            for card in cards:
                totals[card] += playout(k, [list(h) for h in world], card)
        best = max(cards, key=lambda card: (totals[card], -card))
        return ac.PlayCard(best)

    def choose_bid(self, k: Knowledge, legal: Sequence[int]) -> int:
        """The legal bid (within ``BID_SPREAD`` of the medium bot's) whose worlds scored best."""
        medium = heuristics.choose_bid(k.hand, legal)
        candidates = [b for b in legal if abs(b - medium) <= BID_SPREAD]
        at_start = start(k)
        totals = dict.fromkeys(candidates, 0)
        for _ in range(self.worlds):
            world = sample_world(k, self.rng)
            for bid in candidates:
                bids = world_bids(k, world, bid)
                named = chooser(k, bids)
                trump = heuristics.choose_trump(world[named])
                hands = [list(h) for h in world]
                totals[bid] += finish(at_start, hands, bids, trump, k.first)
        return max(
            candidates,
            key=lambda b: (totals[b], b == medium, -abs(b - medium), -b),
        )

    def choose_trump(self, k: Knowledge, legal: Sequence[int | None]) -> int | None:
        """The suit, or no trumps, whose worlds scored best with the bids as made."""
        medium = heuristics.choose_trump(k.hand)
        at_start = start(k)
        bids = [b or 0 for b in k.bids]
        totals = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            world = sample_world(k, self.rng)
            for trump in legal:
                hands = [list(h) for h in world]
                totals[trump] += finish(at_start, hands, bids, trump, k.first)
        order = {suit: i for i, suit in enumerate((*SUITS, None))}
        return max(legal, key=lambda t: (totals[t], t == medium, -order.get(t, 5)))
