"""The state of one Euchre table: its four seats, the game, and the hand in play.

States are values. Engine functions never modify a state they are given: ``evolve`` copies it
and replaces whole fields, so every field holds an immutable value (tuples, strings, ints,
frozen dataclasses). Per-seat fields are tuples indexed by seat number; per-team fields by team
(seats 0 and 2 are team 0, seats 1 and 3 team 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, TypeAlias

from shared.games.euchre.cards import Card, Suit
from shared.games.forfeit_state import ForfeitTableState
from shared.games.seats import empty_seats
from shared.games.table import state as table

SEATS = 4
DEFAULT_TARGET = 10
TARGET_RANGE = (1, 10)
DEFAULT_TIMER_MS = 20_000
MAX_STAKE = 300  # cents each player may pay into the pot at the start
AWAY_GRACE_MS = table.AWAY_GRACE_MS
RECENT_IDS = table.RECENT_IDS
replaced = table.replaced
TRICKS_PER_HAND = 5


class Phase(StrEnum):
    LOBBY = "lobby"  # no game yet
    WAITING = "waiting"  # a game, but not four seats that can play
    ORDER = "order"  # first round of making trump: order it up (the dealer: pick it up) or pass
    DISCARD = "discard"  # the dealer took the turn-up and discards one card face down
    NAME = "name"  # second round: name a suit other than the turned-down one, or pass
    TRICKS = "tricks"
    INTERLUDE = "interlude"  # the hand's result shows; people press Next hand, or the pause ends
    ENDED = "ended"  # the game is over and its seed revealed
    CLOSED = "closed"  # the table closed: its game ended and every seat was vacated


BETWEEN_HANDS = frozenset({Phase.LOBBY, Phase.WAITING, Phase.INTERLUDE, Phase.ENDED})
IN_HAND = frozenset({Phase.ORDER, Phase.DISCARD, Phase.NAME, Phase.TRICKS})

TurnUpAt: TypeAlias = Literal["", "up", "taken", "down", "kitty"]
"""Where the turn-up is: face up on the kitty; taken by the dealer; turned down (second round);
left face up on the kitty because the dealer sits out the hand. It was shown to everyone, so
the card stays public information for the whole hand."""

CallKind: TypeAlias = Literal["pass", "order_up", "name"]
Outcome: TypeAlias = Literal["made", "march", "alone_made", "alone_march", "euchred"]
GameEndReason: TypeAlias = Literal["target", "host", "closed"]
"""Why a game ended: a team reached the target; the host ended it; or the table closed."""


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


@dataclass(frozen=True, slots=True)
class TableConfig:
    target: int = DEFAULT_TARGET
    timer_ms: int | None = DEFAULT_TIMER_MS
    away_grace_ms: int = AWAY_GRACE_MS
    private: bool = False
    # After each hand, its result shows this long before the next one is dealt (unless every
    # person present presses Next hand first); None deals the next hand at once.
    interlude_ms: int | None = None
    seats: int = SEATS
    stake: int = 0  # cents each player pays into the pot at the start; 0: points only


@dataclass(frozen=True, slots=True)
class Call:
    """One call while trump is made: ``round`` 1 (the turn-up) or 2 (naming a suit)."""

    seat: int
    round: int
    call: CallKind
    suit: Suit | None = None
    alone: bool = False


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand was scored. ``tricks``, ``points`` and ``scores`` are per team; ``scores``
    after the hand."""

    hand_no: int
    dealer: int
    maker: int
    trump: Suit
    alone: bool
    tricks: tuple[int, int]
    outcome: Outcome
    points: tuple[int, int]
    scores: tuple[int, int]


@dataclass(eq=True)
class State(ForfeitTableState):
    """The table's commands, seats and seed (``ForfeitTableState``: those who end a game early
    forfeit, rules §12.5), then the game and the hand in play."""

    config: TableConfig
    hand_no: int = 0
    first_dealer: int | None = None
    button: int | None = None  # the seat that dealt the last hand; the deal passes to its left
    dealer: int | None = None
    phase: Phase = Phase.LOBBY
    scores: tuple[int, int] = (0, 0)
    winner: int | None = None  # the team that reached the target, once it has
    end_reason: GameEndReason | None = None
    pot: int = 0  # the stakes paid in, until the game ends
    payouts: tuple[int, ...] = ()  # what each seat took from the pot at the end
    forfeited: tuple[int, ...] = ()  # the seats whose side ended the game early, forfeiting
    # The hand.
    hands: tuple[tuple[Card, ...], ...] = ()
    turn_up: Card | None = None
    turn_up_at: TurnUpAt = ""
    kitty: tuple[Card, ...] = ()  # the three undealt cards, never shown
    discard: Card | None = None  # the dealer's discard, seen by the dealer only
    calls: tuple[Call, ...] = ()
    trump: Suit | None = None
    maker: int | None = None
    alone: bool = False
    resting: int | None = None  # the partner of a lone maker, sitting out this hand
    turn: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    played: tuple[tuple[tuple[int, Card], ...], ...] = ()  # the finished tricks of the hand
    winners: tuple[int, ...] = ()  # the seat that took each finished trick
    result: HandResult | None = field(default=None)

    def active(self) -> list[int]:
        """The seats playing this hand, clockwise from the dealer's left."""
        dealer = self.dealer or 0
        seats = [(dealer + k) % SEATS for k in range(1, SEATS + 1)]
        return [seat for seat in seats if seat != self.resting]

    def team_tricks(self) -> tuple[int, int]:
        taken = [0, 0]
        for seat in self.winners:
            taken[team_of(seat)] += 1
        return taken[0], taken[1]


def new_table(config: TableConfig) -> State:
    return State(config=config, **empty_seats(SEATS))
