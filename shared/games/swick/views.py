"""What one seat may see (rules §4), built fresh from the state for every update.

A seat sees its own cards (a dealer: not the three dealt cards until the dealer's knock turn),
its own discards, how many cards everyone holds and drew, the trump card and who kept it, all
knocks and passes, the cards played to tricks, the pot, the carry and every balance. Nobody sees
another player's hand, the stock, or anyone else's discards; a winning special hand is shown in
the hand's result. Spectators (seat ``None``) see no hand at all. The seed appears only once the
game has ended.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Literal

from shared.games.interface import Option
from shared.games.lifecycle import Player
from shared.games.swick.actions import Action
from shared.games.swick.cards import Card
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import (
    GameEndReason,
    HandResult,
    Phase,
    SeatStatus,
    Standing,
    State,
    TableConfig,
)
from shared.games.views import HandViewHead, header, presence, viewer

Trick = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: int
    player: Player | None
    stack: int
    net: int  # won or lost this game
    ante: int  # paid into this hand
    status: SeatStatus
    cards: int  # how many cards the seat holds
    drew: int | None  # how many it drew, once it has
    tricks: int
    # its presence (shared.games.views.presence): not keyword-only, so first in __init__
    connected: bool = field(kw_only=False)
    away: bool = field(kw_only=False)
    # decisions in a row the table took for the seat when its time ran out
    timeouts: int = field(kw_only=False)
    sitting_out: bool = field(kw_only=False)
    ready: bool
    leaving: bool = field(kw_only=False)


@dataclass(frozen=True, slots=True)
class SwickView(HandViewHead):
    phase: Phase
    config: TableConfig
    _: KW_ONLY
    free_ride: bool
    ante: int
    pot: int
    carry: int
    trump_card: Card | None
    kept: bool
    stock: int
    seats: tuple[SeatView, ...]
    hand: tuple[Card | None, ...]  # None: a card the seat may not see yet (a blind dealer's)
    discarded: tuple[Card, ...]
    options: tuple[Option[Action], ...]
    trick: Trick
    played: tuple[Trick, ...]
    result: HandResult | None
    standings: tuple[Standing, ...]
    end_reason: GameEndReason | None = None  # why the game ended, once it has
    # The seats dealt in this hand, in play order: from the dealer's left, the dealer last
    # (empty between hands). Seats that passed or dropped stay listed: see their status.
    order: tuple[int, ...] = ()
    game: Literal["swick"] = "swick"


def dealer_sees_own_cards(s: State) -> bool:
    """The dealer is blind until their knock turn (rules §2.2)."""
    return s.phase is Phase.DEALER_KNOCK or (s.dealer is not None and s.status[s.dealer] != "dealt")


@dataclass(frozen=True, slots=True)
class Private:
    """What only one seat sees: its hand, its discards and its options."""

    hand: tuple[Card | None, ...] = ()
    discarded: tuple[Card, ...] = ()
    options: tuple[Option[Action], ...] = ()


def private_part(s: State, seat: int) -> Private:
    hand: tuple[Card | None, ...] = s.hands[seat]
    if seat == s.dealer and hand and not dealer_sees_own_cards(s):
        hand = tuple(card if s.kept and card == s.trump_card else None for card in hand)
    return Private(hand, s.discarded[seat], tuple(legal_actions(s, seat)))


def view_for(s: State, seat: int | None) -> SwickView:
    seat = viewer(s, seat)
    private = Private() if seat is None else private_part(s, seat)
    ready = set(s.candidates if s.phase is Phase.READY else ())
    seats = tuple(
        SeatView(
            *presence(s, i, player),
            seat=i,
            player=player,
            stack=s.stacks[i],
            net=s.nets[i],
            ante=s.antes[i],
            status=s.status[i],
            cards=len(s.hands[i]),
            drew=s.drawn[i] if s.drawn[i] >= 0 else None,
            tricks=s.tricks_won[i],
            ready=i in ready and s.entropy[i] is not None,
        )
        for i, player in enumerate(s.players)
    )
    return SwickView(
        *header(s, seat, to_act(s)),
        hand_no=s.hand_no,
        dealer=s.dealer,
        free_ride=s.free_ride,
        ante=s.ante,
        pot=s.pot if s.order else s.carry,
        carry=s.carry,
        trump_card=s.trump_card,
        kept=s.kept,
        stock=len(s.stock),
        seats=seats,
        hand=private.hand,
        discarded=private.discarded,
        options=private.options,
        trick=s.trick,
        played=s.played,
        result=s.result,
        standings=s.standings,
        end_reason=s.end_reason,
        order=s.order,
    )
