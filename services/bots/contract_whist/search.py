"""The hard bot: at each card it may play, a fixed number of sampled worlds (the hidden cards
dealt to the other seats as their hand sizes and shown voids allow), each played out to the
end of the round by the medium bot's rules of thumb; the card with the best average points
for its seat. Bids and trump are the medium bot's. The same generator gives the same choices."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots.contract_whist import heuristics
from services.bots.contract_whist.knowledge import Knowledge, voids
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import DECK, suit_of
from shared.games.contract_whist.play import legal_cards, trick_winner
from shared.games.contract_whist.scoring import points

WORLDS = 16  # per decision: fixed, so a seed gives the same choice on any machine


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


def playout(k: Knowledge, hands: list[list[int]], first: int) -> int:
    """``k``'s seat's points for the round when it plays ``first`` now and every seat then
    follows the medium rules of thumb in the world ``hands``."""
    trick = list(k.trick)
    tricks = list(k.tricks)
    bids = [b or 0 for b in k.bids]
    played = list(k.played)
    seat, card = k.seat, first
    while True:
        hands[seat].remove(card)
        trick.append((seat, card))
        if len(trick) == k.seats:
            seat = trick_winner(tuple(trick), k.trump)
            tricks[seat] += 1
            played.append(tuple(trick))
            trick = []
            if not hands[seat]:
                break
        else:
            seat = (seat + 1) % k.seats
        view = Knowledge(
            seat=seat,
            seats=k.seats,
            cards=k.cards,
            hand=tuple(hands[seat]),
            held=tuple(len(h) for h in hands),
            bids=tuple(bids),
            tricks=tuple(tricks),
            trump=k.trump,
            trick=tuple(trick),
            played=tuple(played),
        )
        card = heuristics.choose_card(view, legal_cards(hands[seat], tuple(trick)))
    return points(k.cards, bids[k.seat], tricks[k.seat], sum(bids))


class Search:
    def __init__(self, rng: random.Random, worlds: int = WORLDS) -> None:
        self.rng = rng
        self.worlds = worlds

    def choose(self, k: Knowledge, legal: Sequence[ac.Action]) -> ac.Action:
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
