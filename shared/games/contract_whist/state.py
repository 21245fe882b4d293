"""The state of one Contract Whist table: its seats, the game, and the round in play.

States are values. Engine functions never modify a state they are given: ``evolve`` copies it
and replaces whole fields, so every field holds an immutable value (tuples, strings, ints,
frozen dataclasses). Per-seat fields are tuples indexed by seat number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, TypeAlias

from shared.games.contract_whist.cards import Card, Suit
from shared.games.forfeit_state import ForfeitTableState
from shared.games.seats import empty_seats
from shared.games.table import state as table

MIN_SEATS, MAX_SEATS = 2, 5
DEFAULT_SEATS = 4
SCHEDULE = (10, 9, 8, 7, 6, 5, 4, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10)
"""The cards each player holds in each round of a full game: 10 down to 2, then back up to 10."""
FULL_GAME = len(SCHEDULE)
MAX_STAKE = 300
DEFAULT_TIMER_MS = 30_000
AWAY_GRACE_MS = table.AWAY_GRACE_MS
RECENT_IDS = table.RECENT_IDS
replaced = table.replaced


class Phase(StrEnum):
    LOBBY = "lobby"  # no game yet
    WAITING = "waiting"  # a game, but not every seat can play
    BID = "bid"  # each seat in turn bids the tricks it will take
    TRUMP = "trump"  # the highest bidder chooses trump or no trumps
    TRICKS = "tricks"
    INTERLUDE = "interlude"  # the round's result shows; people press Next hand, or the pause ends
    ENDED = "ended"  # the game is over and its seed revealed
    CLOSED = "closed"  # the table closed: its game ended and every seat was vacated


BETWEEN_ROUNDS = frozenset({Phase.LOBBY, Phase.WAITING, Phase.INTERLUDE, Phase.ENDED})
IN_ROUND = frozenset({Phase.BID, Phase.TRUMP, Phase.TRICKS})

GameEndReason: TypeAlias = Literal["rounds", "host", "closed"]
"""Why a game ended: every round was played; the host ended it; or the table closed."""


def cards_in_round(round_no: int) -> int:
    """How many cards each player holds in round ``round_no`` (1-based) of the schedule."""
    return SCHEDULE[round_no - 1]


@dataclass(frozen=True, slots=True)
class TableConfig:
    seats: int = DEFAULT_SEATS
    rounds: int = FULL_GAME  # the game plays the first ``rounds`` rounds of SCHEDULE
    stake: int = 0  # cents each player pays into the pot at the start; 0: points only
    timer_ms: int | None = DEFAULT_TIMER_MS
    away_grace_ms: int = AWAY_GRACE_MS
    private: bool = False
    # After each round, its result shows this long before the next one is dealt (unless every
    # person present presses Next hand first); None deals the next round at once.
    interlude_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One line of the score sheet. ``bids``, ``tricks``, ``points`` and ``totals`` are per seat;
    ``totals`` after the round. ``trump`` is ``None`` with ``no_trumps``."""

    round_no: int
    cards: int
    first_bidder: int
    chooser: int
    trump: Suit | None
    no_trumps: bool
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(eq=True)
class State(ForfeitTableState):
    """The table's commands, seats and seed (``ForfeitTableState``: those who end a game early
    forfeit, rules §8.4), then the game and the round in play."""

    config: TableConfig
    first_bidder: int | None = None  # the first round's first bidder, drawn from the seed
    pot: int = 0  # the stakes paid in, until the game ends
    round_no: int = 0
    phase: Phase = Phase.LOBBY
    scores: tuple[int, ...] = ()  # each seat's total
    sheet: tuple[RoundResult, ...] = ()  # every scored round of the game
    winners: tuple[int, ...] = ()  # the seats with the highest total, once the game ended
    payouts: tuple[int, ...] = ()  # what each seat took from the pot at the end
    forfeited: tuple[int, ...] = ()  # the seats that ended the game early, forfeiting
    end_reason: GameEndReason | None = None
    # The round.
    cards: int = 0  # cards each player was dealt this round
    bidder: int | None = None  # this round's first bidder, who also leads the first trick
    hands: tuple[tuple[Card, ...], ...] = ()
    undealt: tuple[Card, ...] = ()  # never shown
    bids: tuple[Bid, ...] = ()  # in bidding order
    chooser: int | None = None  # the highest bidder, who chose trump
    trump: Suit | None = None
    no_trumps: bool = False
    turn: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    played: tuple[tuple[tuple[int, Card], ...], ...] = ()  # the finished tricks of the round
    takers: tuple[int, ...] = ()  # the seat that took each finished trick
    result: RoundResult | None = field(default=None)

    @property
    def n(self) -> int:
        return len(self.players)

    def order(self) -> list[int]:
        """Every seat, clockwise from this round's first bidder."""
        first = self.bidder or 0
        return [(first + k) % self.n for k in range(self.n)]

    def tricks_taken(self) -> tuple[int, ...]:
        return table.tricks_taken(self.takers, self.n)

    def bid_of(self, seat: int) -> int | None:
        return next((b.bid for b in self.bids if b.seat == seat), None)


def new_table(config: TableConfig) -> State:
    n = config.seats
    return State(
        config=config,
        **empty_seats(n),
        scores=(0,) * n,
    )
