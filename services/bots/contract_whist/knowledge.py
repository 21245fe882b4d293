"""What one Contract Whist seat knows, read from its view (a live bot) or from a simulated
round (a search's playouts), so that the same rules of thumb serve both."""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.contract_whist.play import power
from shared.games.contract_whist.views import WhistView

Trick = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    seats: int
    cards: int  # cards each player was dealt this round
    first: int  # this round's first bidder, who leads the first trick
    hand: tuple[int, ...]
    held: tuple[int, ...]  # per seat, the cards it holds now
    bids: tuple[int | None, ...]  # per seat, once made
    tricks: tuple[int, ...]  # per seat, taken this round
    trump: int | None
    trick: Trick
    played: tuple[Trick, ...]

    def need(self) -> int:
        """Tricks this seat still needs to make its bid (below 0: it is already over)."""
        return (self.bids[self.seat] or 0) - self.tricks[self.seat]


def from_view(view: WhistView) -> Knowledge:
    assert view.seat is not None
    return Knowledge(
        seat=view.seat,
        seats=len(view.seats),
        cards=view.cards,
        first=view.first_bidder or 0,
        hand=tuple(view.hand),
        held=tuple(s.cards for s in view.seats),
        bids=tuple(s.bid for s in view.seats),
        tricks=tuple(s.tricks for s in view.seats),
        trump=view.trump,
        trick=tuple(view.trick),
        played=tuple(tuple(t) for t in view.played),
    )


def winning_power(trick: Trick, trump: int | None) -> int:
    """The power of the card now taking ``trick`` (-1 for an empty trick)."""
    if not trick:
        return -1
    led = trick[0][1] // 13
    return max(power(card, trump, led) for _, card in trick)


def voids(k: Knowledge) -> list[set[int]]:
    """Per seat, the suits it has shown it holds none of: it did not follow them."""
    out: list[set[int]] = [set() for _ in range(k.seats)]
    for trick in (*k.played, k.trick):
        if not trick:
            continue
        led = trick[0][1] // 13
        for seat, card in trick[1:]:
            if card // 13 != led:
                out[seat].add(led)
    return out
