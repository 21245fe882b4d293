"""The points of a round (docs/rules/contract-whist.md §6).

A player who takes exactly the tricks they bid scores ``cards + bid`` for a bid above 0; for a
bid of 0, ``cards // 2`` when the bids totalled more than the cards and ``ceil(cards / 2)``
when they totalled fewer (they never total exactly the cards). A player who misses scores
``-|tricks - bid|``.
"""

from __future__ import annotations

from shared.games.contract_whist.state import RoundResult, State


def points(cards: int, bid: int, tricks: int, total_bids: int) -> int:
    if tricks != bid:
        return -abs(tricks - bid)
    if bid > 0:
        return cards + bid
    if total_bids > cards:
        return cards // 2
    return (cards + 1) // 2


def score(s: State) -> RoundResult:
    """The result of the round just played out (every trick taken)."""
    assert s.bidder is not None and s.chooser is not None
    n = s.n
    bids = tuple(s.bid_of(seat) or 0 for seat in range(n))
    total = sum(bids)
    tricks = s.tricks_taken()
    gained = tuple(points(s.cards, bids[seat], tricks[seat], total) for seat in range(n))
    totals = tuple(s.scores[seat] + gained[seat] for seat in range(n))
    return RoundResult(
        round_no=s.round_no,
        cards=s.cards,
        first_bidder=s.bidder,
        chooser=s.chooser,
        trump=s.trump,
        no_trumps=s.no_trumps,
        bids=bids,
        tricks=tricks,
        points=gained,
        totals=totals,
    )
