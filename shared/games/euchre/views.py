"""What one seat may see (rules §8), built fresh from the state for every update.

A seat sees its own hand, the dealer their own discard, and everything public: the turn-up (it
was shown face up, so it stays known wherever it went), every call, trump, the maker and who
sits out, the cards played to tricks and who played them, tricks per seat and team, the score,
the dealer, whose turn it is and the deadline, the pot and, once the game has ended, what
each seat took from it. Nobody sees another seat's hand, the kitty or
the dealer's discard; spectators (seat ``None``) see no hand at all. The seed appears only once
the game has ended.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Literal

from shared.games.euchre.actions import Action
from shared.games.euchre.cards import Card, Suit
from shared.games.euchre.legal import legal_actions, to_act
from shared.games.euchre.state import (
    Call,
    GameEndReason,
    HandResult,
    Phase,
    State,
    TableConfig,
    TurnUpAt,
    team_of,
)
from shared.games.interface import Option
from shared.games.lifecycle import Player
from shared.games.table.state import tricks_taken
from shared.games.views import HandViewHead, header, presence, viewer

Trick = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: int
    team: int  # 0 for seats 0 and 2, 1 for seats 1 and 3
    player: Player | None
    cards: int  # how many cards the seat holds
    tricks: int  # tricks the seat took this hand
    resting: bool  # the partner of a lone maker, sitting out this hand
    # its presence (shared.games.views.presence): not keyword-only, so first in __init__
    connected: bool = field(kw_only=False)
    away: bool = field(kw_only=False)
    # decisions in a row the table took for the seat when its time ran out
    timeouts: int = field(kw_only=False)
    sitting_out: bool = field(kw_only=False)
    leaving: bool = field(kw_only=False)


@dataclass(frozen=True, slots=True)
class EuchreView(HandViewHead):
    phase: Phase
    config: TableConfig
    _: KW_ONLY
    turn_up: Card | None
    turn_up_at: TurnUpAt
    calls: tuple[Call, ...]
    trump: Suit | None
    maker: int | None
    alone: bool
    resting: int | None
    scores: tuple[int, int]
    team_tricks: tuple[int, int]
    pot: int  # the stakes paid in this game (0 at a points-only table)
    seats: tuple[SeatView, ...]
    hand: tuple[Card, ...]
    discarded: tuple[Card, ...]  # the dealer's own discard, to the dealer only
    options: tuple[Option[Action], ...]
    trick: Trick
    played: tuple[Trick, ...]  # the finished tricks of the hand, the last one last
    winners: tuple[int, ...]  # who took each finished trick
    result: HandResult | None
    winner: int | None  # the team that reached the target, or won by the other's forfeit
    end_reason: GameEndReason | None
    payouts: tuple[int, ...]  # what each seat took from the pot when the game ended
    forfeited: tuple[int, ...]  # the seats whose side ended the game early and lost the pot
    game: Literal["euchre"] = "euchre"


@dataclass(frozen=True, slots=True)
class Private:
    """What only one seat sees: its hand, its discard and its options."""

    hand: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()
    options: tuple[Option[Action], ...] = ()


def private_part(s: State, seat: int) -> Private:
    discarded = (s.discard,) if seat == s.dealer and s.discard is not None else ()
    return Private(s.hands[seat], discarded, tuple(legal_actions(s, seat)))


def view_for(s: State, seat: int | None) -> EuchreView:
    seat = viewer(s, seat)
    private = Private() if seat is None else private_part(s, seat)
    taken = tricks_taken(s.winners, len(s.players))
    seats = tuple(
        SeatView(
            *presence(s, i, player),
            seat=i,
            team=team_of(i),
            player=player,
            cards=len(s.hands[i]),
            tricks=taken[i],
            resting=i == s.resting,
        )
        for i, player in enumerate(s.players)
    )
    return EuchreView(
        *header(s, seat, to_act(s)),
        hand_no=s.hand_no,
        dealer=s.dealer,
        turn_up=s.turn_up,
        turn_up_at=s.turn_up_at,
        calls=s.calls,
        trump=s.trump,
        maker=s.maker,
        alone=s.alone,
        resting=s.resting,
        scores=s.scores,
        team_tricks=s.team_tricks(),
        pot=s.pot,
        seats=seats,
        hand=private.hand,
        discarded=private.discarded,
        options=private.options,
        trick=s.trick,
        played=s.played,
        winners=s.winners,
        result=s.result,
        winner=s.winner,
        end_reason=s.end_reason,
        payouts=s.payouts,
        forfeited=s.forfeited,
    )
