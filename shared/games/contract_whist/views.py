"""What one seat may see (rules §9), built fresh from the state for every update.

A seat sees its own hand and everything public: every bid and who made it, the bid the last
bidder may not make, trump (or no trumps) and who chose it, the cards played to tricks and who
played them, tricks per seat, the score sheet and totals, the pot, whose turn it is and the
deadline. Nobody sees another seat's hand or the undealt cards; spectators (seat ``None``) see
no hand at all. The seed appears only once the game has ended.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Literal

from shared.games.contract_whist.actions import Action
from shared.games.contract_whist.cards import Card, Suit
from shared.games.contract_whist.legal import forbidden_bid, legal_actions, to_act
from shared.games.contract_whist.state import (
    Bid,
    GameEndReason,
    Phase,
    RoundResult,
    State,
    TableConfig,
)
from shared.games.interface import Option
from shared.games.lifecycle import Player
from shared.games.views import ViewHead, header, presence, viewer

Trick = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: int
    player: Player | None
    cards: int  # how many cards the seat holds
    bid: int | None  # its bid this round, once made
    tricks: int  # tricks the seat took this round
    score: int  # its total
    # its presence (shared.games.views.presence): not keyword-only, so first in __init__
    connected: bool = field(kw_only=False)
    away: bool = field(kw_only=False)
    # decisions in a row the table took for the seat when its time ran out
    timeouts: int = field(kw_only=False)
    sitting_out: bool = field(kw_only=False)
    leaving: bool = field(kw_only=False)


@dataclass(frozen=True, slots=True)
class WhistView(ViewHead):
    phase: Phase
    config: TableConfig
    round_no: int = field(kw_only=True)  # of config.rounds
    rounds: int = field(kw_only=True)
    cards: int = field(kw_only=True)  # cards each player was dealt this round
    fingerprint: str
    seed: str | None  # revealed when the game ends
    # this round's first bidder, who leads the first trick
    first_bidder: int | None = field(kw_only=True)
    to_act: tuple[int, ...]
    deadline: int | None
    _: KW_ONLY
    bids: tuple[Bid, ...]  # in bidding order
    bid_total: int  # the bids so far, against ``cards``
    forbidden_bid: int | None  # the bid the last bidder may not make, while they are to bid
    chooser: int | None  # the highest bidder, who chooses trump
    trump: Suit | None
    no_trumps: bool
    scores: tuple[int, ...]  # each seat's total
    sheet: tuple[RoundResult, ...]  # every scored round: bids, tricks, points, totals
    pot: int
    seats: tuple[SeatView, ...]
    hand: tuple[Card, ...]
    options: tuple[Option[Action], ...]
    trick: Trick
    played: tuple[Trick, ...]  # the finished tricks of the round, the last one last
    takers: tuple[int, ...]  # who took each finished trick
    result: RoundResult | None
    winners: tuple[int, ...]  # the seats with the highest total, once the game ended
    payouts: tuple[int, ...]
    forfeited: tuple[int, ...]  # the seats that ended the game early and lost their stakes
    end_reason: GameEndReason | None
    game: Literal["contract-whist"] = "contract-whist"


@dataclass(frozen=True, slots=True)
class Private:
    """What only one seat sees: its hand and its options."""

    hand: tuple[Card, ...] = ()
    options: tuple[Option[Action], ...] = ()


def private_part(s: State, seat: int) -> Private:
    return Private(s.hands[seat], tuple(legal_actions(s, seat)))


def view_for(s: State, seat: int | None) -> WhistView:
    seat = viewer(s, seat)
    private = Private() if seat is None else private_part(s, seat)
    taken = s.tricks_taken()
    seats = tuple(
        SeatView(
            *presence(s, i, player),
            seat=i,
            player=player,
            cards=len(s.hands[i]),
            bid=s.bid_of(i),
            tricks=taken[i],
            score=s.scores[i],
        )
        for i, player in enumerate(s.players)
    )
    bids = [b.bid for b in s.bids]
    return WhistView(
        *header(s, seat, to_act(s)),
        round_no=s.round_no,
        rounds=s.config.rounds,
        cards=s.cards,
        first_bidder=s.bidder,
        bids=s.bids,
        bid_total=sum(bids),
        forbidden_bid=forbidden_bid(s.cards, bids, s.n) if s.phase is Phase.BID else None,
        chooser=s.chooser,
        trump=s.trump,
        no_trumps=s.no_trumps,
        scores=s.scores,
        sheet=s.sheet,
        pot=s.pot,
        seats=seats,
        hand=private.hand,
        options=private.options,
        trick=s.trick,
        played=s.played,
        takers=s.takers,
        result=s.result,
        winners=s.winners,
        payouts=s.payouts,
        forfeited=s.forfeited,
        end_reason=s.end_reason,
    )
