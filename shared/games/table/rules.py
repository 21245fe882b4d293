"""What a game supplies to the table's lifecycle: its phases, its decisions and a few hooks.

The lifecycle (``flow``) runs every table command and calls these where a game's rules decide:
whether a game can start, how the next hand opens, how a game cut short ends, and what the table
decides for a seat that let its deadline pass. A hook with a default here is one most games
share; a game overrides it only where its rules differ.

The hooks act on a command's ``Work``: the lifecycle builds it and carries out the lifecycle's
steps it names (opening a hand, vacating a seat...), so the rules need nothing of the lifecycle
but this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, Generic, Literal, TypeVar

from shared.games.table import events as ev
from shared.games.table.state import ForfeitState, TableState

S = TypeVar("S", bound=TableState)
F = TypeVar("F", bound=ForfeitState)

Handler = Callable[["Work[Any]", int | None, Any, int], None]
"""A command's handler: the work in hand, the actor, the action and the seq it was sent at."""


class Work(Generic[S]):
    """The working copy of one command: emitting an event applies it at once. The lifecycle
    runs the command on its own kind of ``Work``, which carries out the steps below."""

    __slots__ = ("_apply", "at", "events", "rules", "state", "timeouts_before")

    def __init__(self, rules: Rules[S], state: S, at: int) -> None:
        self.rules = rules
        self.state = state
        self.at = at
        self.events: list[Any] = []
        self.timeouts_before = state.timeouts  # an accepted command clears its actor's count
        self._apply = rules.apply

    def emit(self, event: Any) -> None:
        self._apply(self.state, event)
        self.events.append(event)

    def handle(self, seat: int | None, action: Any) -> None:
        """Decide ``action`` for ``seat`` within this command (a default, a follow-on)."""
        raise NotImplementedError

    def open_hand(self) -> None:
        """Open the next hand, or close a table that is closing."""
        raise NotImplementedError

    def vacate(self, seat: int) -> None:
        raise NotImplementedError

    def end_interlude(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


CutShort = Literal["host", "closed"]
"""Why a game ends before its rules end it: the host ended it, or the table closed."""


class Rules(Generic[S]):
    """One game's part in the lifecycle. Subclasses give ``__init__`` the game's phases and
    functions, and define the hooks without a default."""

    hand: str
    """What the game calls one deal, in messages ("round")."""
    # The lifecycle's phases, as the game's ``Phase`` names them.
    lobby: StrEnum
    waiting: StrEnum
    interlude: StrEnum
    ended: StrEnum
    closed: StrEnum

    def __init__(
        self,
        phase: type[StrEnum],
        *,
        apply: Callable[[S, Any], None],
        to_act: Callable[[S], tuple[int, ...]],
        default_action: Callable[[S, int], Any],
        phase_names: Mapping[Any, str],
        between_hands: frozenset[Any],
        host_may_end: frozenset[Any] | None = None,
        handlers: Mapping[type[Any], Handler],
        hand: str = "hand",
    ) -> None:
        """``phase`` is the game's phase enum, naming the lifecycle's phases as ``"lobby"``,
        ``"waiting"``, ``"interlude"``, ``"ended"`` and ``"closed"``; ``apply``, ``to_act`` and
        ``default_action`` are its engine functions (kept as attributes, so calling one costs
        one call); ``between_hands``, where seats may be taken (and a closing table closes);
        ``host_may_end``, where the host may end the game (by default while a hand's result
        shows or the table waits for players); ``handlers``, those of the game's
        own decisions (the lifecycle has its own for the table's actions)."""
        self.lobby, self.waiting, self.interlude, self.ended, self.closed = (
            phase(name) for name in ("lobby", "waiting", "interlude", "ended", "closed")
        )
        self.apply = apply
        self.to_act = to_act
        self.default_action = default_action
        self.phase_names = phase_names
        self.between_hands = between_hands
        self.host_may_end = (
            frozenset({self.interlude, self.waiting}) if host_may_end is None else host_may_end
        )
        self.handlers = handlers
        self.hand = hand

    def dealt_in(self, s: S, seat: int) -> bool:
        """Whether ``seat`` plays in the hand under way: leaving, it plays on to the hand's end
        by the defaults."""
        raise NotImplementedError

    def start(self, s: S, seed_hex: str, seed: bytes) -> Any:
        """The ``game_started`` event of a game the host starts with ``seed``, its first hand
        opened next; raises ``IllegalCommand`` when the seats cannot start one."""
        raise NotImplementedError

    def begin_hand(self, w: Work[S]) -> None:
        """Open the next hand (deal it, or ask for its ante), or wait (``Waiting``) when too
        few can play; the table is not closing."""
        raise NotImplementedError

    def check_end(self, s: S) -> None:
        """Raises ``IllegalCommand`` when the host may not end the game now."""

    def cut_short(self, w: Work[S], reason: CutShort, quitters: tuple[int, ...]) -> None:
        """End the game (``game_ended``) before its rules end it; ``quitters`` ended it."""
        raise NotImplementedError

    def close_game(self, w: Work[S]) -> None:
        """The table closes (between hands): end its game, if one is on."""
        raise NotImplementedError

    def closing(self, quitters: tuple[int, ...]) -> Any:
        """The ``table_closing`` event; ``quitters`` close it (the last to leave, or all who
        abandoned it)."""
        raise NotImplementedError

    forfeits = False
    """Whether a game the last person leaves ends at once, forfeited by those who left."""

    def leave_between_hands(self, w: Work[S], seat: int) -> None:
        """``seat`` leaves while it plays in no hand: it is vacated."""
        w.vacate(seat)
        s = w.state
        if s.phase is self.interlude and not s.interlude:
            w.end_interlude()  # the last person looking at the result left

    def sat_out(self, w: Work[S], seat: int, sitting_out: bool) -> None:
        """After ``seat`` sat out or came back: a waiting game may now open a hand."""
        if w.state.phase is self.waiting and not sitting_out:
            w.open_hand()

    def decide_by_default(self, w: Work[S], seat: int) -> None:
        """Decide for ``seat``, whose deadline passed."""
        action = self.default_action(w.state, seat)
        w.handle(seat, action)


class ForfeitRules(Rules[F]):
    """A game whose table, closed or left while a game is on, ends it forfeited by those who
    closed or left it (their stakes go to the others)."""

    forfeits = True

    def close_game(self, w: Work[F]) -> None:
        s = w.state
        if s.phase is not self.lobby and s.phase is not self.ended:
            self.cut_short(w, "closed", s.quitters)

    def closing(self, quitters: tuple[int, ...]) -> ev.TableClosing:
        return ev.TableClosing(quitters)
