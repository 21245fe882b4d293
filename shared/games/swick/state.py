"""The state of one Swick table: its seats, the game, and the hand in play.

States are values. Engine functions never modify a state they are given: ``evolve`` copies it
and replaces whole fields, so every field holds an immutable value (tuples, strings, ints,
frozen dataclasses). Per-seat fields are tuples indexed by seat number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, TypeAlias

from shared.games.lifecycle import Player
from shared.games.seats import empty_seats
from shared.games.swick.cards import Card
from shared.games.table import state as table

DEFAULT_ANTES = (3, 6, 9, 12, 15)
DEALER_EXTRA = 3
MIN_SEATS, MAX_SEATS = 3, 6
DEFAULT_TIMER_MS = 30_000
AWAY_GRACE_MS = table.AWAY_GRACE_MS
RECENT_IDS = table.RECENT_IDS
replaced = table.replaced


class Phase(StrEnum):
    LOBBY = "lobby"  # no game yet
    WAITING = "waiting"  # a game, but fewer than 3 seats can be dealt in
    ANTE = "ante"  # the dealer sets the ante
    READY = "ready"  # players ready up (or sit out)
    TRUMP = "trump"  # the dealer keeps or leaves the trump card
    KNOCK = "knock"  # non-dealers knock in or pass
    DRAW = "draw"  # knocked-in non-dealers discard and draw
    DEALER_KNOCK = "dealer_knock"  # the dealer sees their cards and knocks or passes
    DEALER_DRAW = "dealer_draw"
    DEALER_DISCARD = "dealer_discard"  # a dealer with 4 cards discards one
    FACE_TRUMP = "face_trump"  # a dealer who kept a face trump: Play or Set single
    TRICKS = "tricks"
    INTERLUDE = "interlude"  # the hand's result shows; people press Next hand, or the pause ends
    ENDED = "ended"  # the game is over and its seed revealed
    CLOSED = "closed"  # the table closed: its game ended and every seat was vacated


BETWEEN_HANDS = frozenset(
    {Phase.LOBBY, Phase.WAITING, Phase.INTERLUDE, Phase.ANTE, Phase.READY, Phase.ENDED}
)

SeatStatus: TypeAlias = Literal["", "dealt", "in", "passed", "dropped"]
"""A seat's part in the hand: not dealt in, dealt in (undecided), in, passed, or dropped out
(a dealer who chose Set single)."""

SetKind: TypeAlias = Literal["", "single", "double"]
NOT_DEALT: tuple[SeatStatus] = ("",)
NOT_SET: tuple[SetKind] = ("",)
HandEnding: TypeAlias = Literal["tricks", "all_passed", "last_standing", "special"]
SpecialKind: TypeAlias = Literal["three_aces", "three_sevens", "ace_king_queen_of_trump"]
GameEndReason: TypeAlias = Literal["host", "no_dealer", "closed"]
"""Why a game ended: the host ended it; no player left at the table can pay what a dealer
pays, so no hand can start; or the table closed, with no person left to play at it."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    seats: int = MIN_SEATS
    antes: tuple[int, ...] = DEFAULT_ANTES
    timer_ms: int | None = DEFAULT_TIMER_MS
    away_grace_ms: int = AWAY_GRACE_MS
    private: bool = False
    # After each hand, its result shows this long before the next one opens (unless every
    # person present presses Next hand first); None opens the next hand at once.
    interlude_ms: int | None = None


@dataclass(frozen=True, slots=True)
class SpecialHand:
    seat: int
    kind: SpecialKind
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it did to every seat's money.

    ``delta`` is each seat's net change over the hand, antes included:
    ``delta = payout - ante - penalty``, and ``sum(delta) + carry_out - carry_in == 0``.
    """

    hand_no: int
    ending: HandEnding
    pot: int
    carry_in: int
    carry_out: int
    antes: tuple[int, ...]
    tricks: tuple[int, ...]
    payouts: tuple[int, ...]
    penalties: tuple[int, ...]
    sets: tuple[SetKind, ...]
    delta: tuple[int, ...]
    special: SpecialHand | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    name: str
    net: int
    stack: int


@dataclass(eq=True)
class State(table.SeatsHelpers):
    config: TableConfig
    # Commands: how many were accepted, since when the current decision is open, recent ids.
    seq: int = 0
    turn_seq: int = 0
    deadline: int | None = None
    recent_ids: tuple[str, ...] = ()
    # Seats.
    players: tuple[Player | None, ...] = ()
    stacks: tuple[int, ...] = ()
    nets: tuple[int, ...] = ()
    sitting_out: tuple[bool, ...] = ()
    leaving: tuple[bool, ...] = ()
    connected: tuple[bool, ...] = ()
    timeouts: tuple[int, ...] = ()
    # The empty seats a bot left during this game (only the table makes a bot leave, when
    # it stopped answering): the table seats a fresh bot in each.
    left_by_bots: tuple[int, ...] = ()
    host: int | None = None
    # Since when (ms) no seat holds a connected person; ``None`` while one does.
    unattended_since: int | None = None
    closing: bool = False  # the table closes at its next hand boundary
    interlude: tuple[int, ...] = ()  # the people yet to press Next hand, while a result shows
    # The game.
    game_no: int = 0
    seed: str = ""  # secret until the game ends
    fingerprint: str = ""
    hand_no: int = 0
    first_dealer: int | None = None  # chosen from the seed when the game starts
    button: int | None = None  # the seat that dealt the last hand; the deal passes clockwise
    dealer: int | None = None
    carry: int = 0
    phase: Phase = Phase.LOBBY
    standings: tuple[Standing, ...] = ()
    end_reason: GameEndReason | None = None  # once the game has ended
    # The hand.
    free_ride: bool = False
    ante: int = 0
    candidates: tuple[int, ...] = ()
    entropy: tuple[str | None, ...] = ()  # a seat's entropy once it readied
    context: str = ""  # the hand's entropy digest, hex
    order: tuple[int, ...] = ()  # seats dealt in, from the dealer's left; the dealer last
    antes: tuple[int, ...] = ()
    pot: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    trump_card: Card | None = None
    kept: bool = False
    status: tuple[SeatStatus, ...] = ()
    drawn: tuple[int, ...] = ()  # cards drawn per seat, -1 before the seat's draw
    stock: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()  # discarded this hand and not yet recycled
    discarded: tuple[tuple[Card, ...], ...] = ()  # each seat's own discards this hand
    recycles: int = 0
    turn: int | None = None
    face_play: bool = False
    early_sets: tuple[SetKind, ...] = ()  # sets paid at once, before any trick
    trick: tuple[tuple[int, Card], ...] = ()
    tricks_won: tuple[int, ...] = ()
    played: tuple[tuple[tuple[int, Card], ...], ...] = ()  # the finished tricks of the hand
    result: HandResult | None = field(default=None)

    @property
    def trump_suit(self) -> int | None:
        return None if self.trump_card is None else self.trump_card >> 3

    def in_hand(self) -> list[int]:
        """Seats still in the hand, in play order (from the dealer's left)."""
        status = self.status
        return [seat for seat in self.order if status[seat] == "in"]


def new_table(config: TableConfig) -> State:
    n = config.seats
    return State(
        config=config,
        **empty_seats(n),
        nets=(0,) * n,
        entropy=(None,) * n,
        antes=(0,) * n,
        status=NOT_DEALT * n,
        drawn=(-1,) * n,
        discarded=((),) * n,
        early_sets=NOT_SET * n,
        tricks_won=(0,) * n,
    )
