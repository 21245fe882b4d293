"""The parts of a ``GameModule`` that are the table's: running commands through the lifecycle,
the seats and their presence, deadlines, the timer settings, and the JSON of a game's types.

A game's module class derives from ``TableGame``, sets its ``rules`` and ``codec``, and adds
what is its own: its settings, its legal actions, its views, its money and its record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, Protocol, TypedDict, TypeGuard, TypeVar

from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import Player, Timeout
from shared.games.table import flow
from shared.games.table.codec import TableCodec
from shared.games.table.rules import Rules
from shared.games.table.state import INTERLUDE_MAX_MS, TIMER_RANGE_MS, TableState

S = TypeVar("S", bound=TableState)
A = TypeVar("A")
E = TypeVar("E")
V = TypeVar("V")


class Tricks(Protocol):
    """The tricks of a game's state: the one in progress and the hand's finished ones."""

    @property
    def trick(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def played(self) -> tuple[tuple[tuple[int, int], ...], ...]: ...


def trick_cards(s: Tricks) -> list[int]:
    """The cards on the table in tricks: the trick in progress, then the finished ones."""
    return [card for trick in (s.trick, *s.played) for _, card in trick]


def whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def ranged(
    settings: Mapping[str, Any], key: str, default: int, low: int, high: int, message: str
) -> int:
    """The setting ``key`` (``default`` when not given), an int from ``low`` to ``high``;
    raises ``IllegalCommand("bad_config", message)``."""
    value = settings.get(key, default)
    if not whole(value) or not low <= value <= high:
        raise IllegalCommand("bad_config", message)
    return value


def seat_count(settings: Mapping[str, Any], default: int, low: int, high: int) -> int:
    """``seats`` (``default`` when not given), from ``low`` to ``high``; raises
    ``IllegalCommand("bad_config")``."""
    return ranged(settings, "seats", default, low, high, f"A table has {low} to {high} seats")


def stake(settings: Mapping[str, Any], high: int) -> int:
    """``stake``, the cents each player pays into the pot at the start (0 when not given: points
    only), from 0 to ``high``; raises ``IllegalCommand("bad_config")``."""
    return ranged(settings, "stake", 0, 0, high, f"The stake is 0 to {high} cents")


class Timing(TypedDict):
    """A table's timer settings, checked: fields of every game's ``TableConfig``."""

    private: bool
    timer_ms: int | None
    interlude_ms: int | None


def timing(settings: Mapping[str, Any], default_timer_ms: int, hand: str = "hand") -> Timing:
    """``timer_ms`` (10 to 120 s; ``None`` only at a ``private`` table) and ``interlude_ms``
    (0 to 30 s a ``hand``'s result shows; 0 or none: the next hand at once); raises
    ``IllegalCommand("bad_config")``."""
    private = bool(settings.get("private", False))
    timer_ms = settings.get("timer_ms", default_timer_ms)
    low, high = TIMER_RANGE_MS
    if timer_ms is None:
        if not private:
            raise IllegalCommand("bad_config", "Only a private table may play without a timer")
    elif not whole(timer_ms) or not low <= timer_ms <= high:
        raise IllegalCommand(
            "bad_config", f"The decision timer is {low // 1000} to {high // 1000} seconds"
        )
    interlude_ms = settings.get("interlude_ms")
    if interlude_ms is not None and (
        not whole(interlude_ms) or not 0 <= interlude_ms <= INTERLUDE_MAX_MS
    ):
        raise IllegalCommand(
            "bad_config", f"A {hand}'s result shows 0 to {INTERLUDE_MAX_MS // 1000} seconds"
        )
    return Timing(private=private, timer_ms=timer_ms, interlude_ms=interlude_ms or None)


class TableGame(Generic[S, A, E, V]):
    """A game module's table part. Subclasses set ``rules``, ``codec`` and ``checkpoints``."""

    rules: Rules[S]
    codec: TableCodec[S, A, E, V]
    checkpoints: tuple[type[Any], ...]
    """The events after which the state is worth a snapshot: a hand scored, the game ended."""

    def checkpoint(self, event: E) -> bool:
        return isinstance(event, self.checkpoints)

    def decide(self, state: S, command: Command[A]) -> list[E]:
        return flow.step(self.rules, state, command)[1]

    def evolve(self, state: S, event: E) -> S:
        clone = state.copy()
        self.rules.apply(clone, event)
        return clone

    def step(self, state: S, command: Command[A]) -> tuple[S, list[E]]:
        return flow.step(self.rules, state, command)

    def seq(self, state: S) -> int:
        return state.seq

    def to_act(self, state: S) -> tuple[int, ...]:
        return self.rules.to_act(state)

    def players(self, state: S) -> tuple[Player | None, ...]:
        return state.players

    def stacks(self, state: S) -> tuple[int, ...]:
        return state.stacks

    def phase(self, state: S) -> str:
        return state.phase.value

    def deadline(self, state: S) -> int | None:
        return state.deadline

    def away(self, state: S) -> tuple[bool, ...]:
        return tuple(state.away(seat) for seat in range(len(state.players)))

    def left_by_bots(self, state: S) -> tuple[int, ...]:
        return state.left_by_bots

    def unattended_since(self, state: S) -> int | None:
        if state.closing or state.phase is self.rules.closed:
            return None
        return state.unattended_since

    def default_action(self, state: S, seat: int) -> A:
        action: A = self.rules.default_action(state, seat)
        return action

    def timeout(self, state: S, action_id: str, at: int) -> Command[A]:
        action: Any = Timeout()  # a lifecycle action: one of every game's actions
        return Command(actor=None, action=action, action_id=action_id, seq=state.seq, at=at)

    def dump_state(self, state: S) -> Any:
        return self.codec.dump_state(state)

    def load_state(self, data: Any) -> S:
        return self.codec.load_state(data)

    def dump_event(self, event: E) -> Any:
        return self.codec.dump_event(event)

    def load_event(self, data: Any) -> E:
        return self.codec.load_event(data)

    def dump_action(self, action: A) -> Any:
        return self.codec.dump_action(action)

    def load_action(self, data: Any) -> A:
        return self.codec.load_action(data)

    def dump_view(self, view: V) -> Any:
        return self.codec.dump_view(view)

    def view_json(self, view: V) -> str:
        return self.codec.view_json(view)

    def views_json(self, state: S, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        return self.codec.views_json(state, seats)
