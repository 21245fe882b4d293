"""Euchre as a ``GameModule``: the one object the services use to run a Euchre table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from shared.games.euchre import actions as ac
from shared.games.euchre import codec, record
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK, code
from shared.games.euchre.decide import decide, step
from shared.games.euchre.evolve import evolve
from shared.games.euchre.legal import default_action, legal_actions, to_act
from shared.games.euchre.money import transfers
from shared.games.euchre.state import (
    DEFAULT_TARGET,
    DEFAULT_TIMER_MS,
    IN_HAND,
    INTERLUDE_MAX_MS,
    MAX_STAKE,
    SEATS,
    TARGET_RANGE,
    TIMER_RANGE_MS,
    Phase,
    State,
    TableConfig,
    new_table,
)
from shared.games.euchre.views import EuchreView, view_for
from shared.games.interface import Command, IllegalCommand, Option, TableForm, Transfer
from shared.games.lifecycle import Player, Timeout


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class EuchreGame:
    name = "euchre"
    form = TableForm(
        title="Euchre",
        defaults={
            "seats": SEATS,
            "timer_ms": DEFAULT_TIMER_MS,
            "target": DEFAULT_TARGET,
            "stake": 0,
        },
        own=("target", "stake"),
        played_for="it is played for points, or for a stake a player",
        quick_play=("medium", "medium", "medium"),
        bot_fills_left_seat=True,
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        """``target`` (1 to 10 points, default 10), ``stake`` (0 to 300 cents, default 0: points
        only), ``timer_ms`` (10 to 120 s, default 20 s; ``None`` only at a private table),
        ``private``, ``interlude_ms``; ``seats`` is 4 if given. Other settings (a Swick table's
        antes...) are ignored."""
        seats = settings.get("seats", SEATS)
        target = settings.get("target", DEFAULT_TARGET)
        private = bool(settings.get("private", False))
        timer_ms = settings.get("timer_ms", DEFAULT_TIMER_MS)
        stake = settings.get("stake", 0)
        if seats != SEATS or not _whole(seats):
            raise IllegalCommand("bad_config", "A Euchre table has 4 seats")
        low, high = TARGET_RANGE
        if not _whole(target) or not low <= target <= high:
            raise IllegalCommand("bad_config", f"A game is played to {low} to {high} points")
        if not _whole(stake) or not 0 <= stake <= MAX_STAKE:
            raise IllegalCommand("bad_config", f"The stake is 0 to {MAX_STAKE} cents")
        low, high = TIMER_RANGE_MS
        if timer_ms is None:
            if not private:
                raise IllegalCommand("bad_config", "Only a private table may play without a timer")
        elif not _whole(timer_ms) or not low <= timer_ms <= high:
            raise IllegalCommand(
                "bad_config", f"The decision timer is {low // 1000} to {high // 1000} seconds"
            )
        interlude_ms = settings.get("interlude_ms")
        if interlude_ms is not None and (
            not _whole(interlude_ms) or not 0 <= interlude_ms <= INTERLUDE_MAX_MS
        ):
            raise IllegalCommand(
                "bad_config", f"A hand's result shows 0 to {INTERLUDE_MAX_MS // 1000} seconds"
            )
        return TableConfig(
            target=target,
            timer_ms=timer_ms,
            private=private,
            interlude_ms=interlude_ms or None,
            stake=stake,
        )

    def new_table(self, config: TableConfig) -> State:
        return new_table(config)

    def decide(self, state: State, command: Command[ac.Action]) -> list[ev.Event]:
        return decide(state, command)

    def evolve(self, state: State, event: ev.Event) -> State:
        return evolve(state, event)

    def step(self, state: State, command: Command[ac.Action]) -> tuple[State, list[ev.Event]]:
        return step(state, command)

    def seq(self, state: State) -> int:
        return state.seq

    def to_act(self, state: State) -> tuple[int, ...]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Option[ac.Action]]:
        return legal_actions(state, seat)

    def players(self, state: State) -> tuple[Player | None, ...]:
        return state.players

    def stacks(self, state: State) -> tuple[int, ...]:
        return state.stacks

    def phase(self, state: State) -> str:
        return state.phase.value

    def checkpoint(self, event: ev.Event) -> bool:
        return isinstance(event, ev.HandScored | ev.GameEnded)

    def transfers(self, state: State, events: Sequence[ev.Event]) -> list[Transfer]:
        """The stakes paid in when a game starts and the pot paid out when it ends (none at a
        points-only table)."""
        return transfers(state, events)

    def deadline(self, state: State) -> int | None:
        return state.deadline

    def away(self, state: State) -> tuple[bool, ...]:
        return tuple(state.away(seat) for seat in range(len(state.players)))

    def left_by_bots(self, state: State) -> tuple[int, ...]:
        return state.left_by_bots

    def unattended_since(self, state: State) -> int | None:
        if state.closing or state.phase is Phase.CLOSED:
            return None
        return state.unattended_since

    def timeout(self, state: State, action_id: str, at: int) -> Command[ac.Action]:
        return Command(actor=None, action=Timeout(), action_id=action_id, seq=state.seq, at=at)

    def view_for(self, state: State, seat: int | None) -> EuchreView:
        return view_for(state, seat)

    # The deals, the dealer taking the turn-up and the discard.
    recorded = frozenset(
        {"game_started", "hand_dealt", "turn_up_taken", "dealer_discarded", "game_ended"}
    )

    def record(self, events: Sequence[Any], seats: int) -> Any:
        loaded = (codec.load_event(data) for data in events)
        return record.dump_record(record.game_record(loaded))

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        # The target reached, or the other partnership forfeited (rules §12.5).
        if isinstance(ended, ev.GameEnded) and ended.winner is not None:
            return tuple(seat for seat in range(SEATS) if seat % 2 == ended.winner)
        return ()

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"target": 1, "stake": 20},
        {"target": 3, "interlude_ms": 5_000},
        {"target": 10, "stake": 300},
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if s.phase not in IN_HAND:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.kitty, *(card for _, card in s.trick))
        places += (card for trick in s.played for _, card in trick)
        if s.discard is not None:
            places.append(s.discard)
        if s.turn_up is not None and s.turn_up_at in ("up", "down", "kitty"):
            places.append(s.turn_up)  # else the dealer took it into their hand
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §8: the turn-up wherever it went, the tricks; a player's own hand and, the
        # dealer, their own discard.
        s = state
        seen: set[int] = {card for trick in (s.trick, *s.played) for _, card in trick}
        if s.turn_up is not None:
            seen.add(s.turn_up)
        if seat is not None and 0 <= seat < len(s.players) and s.players[seat] is not None:
            seen.update(s.hands[seat])
            if seat == s.dealer and s.discard is not None:
                seen.add(s.discard)
        return frozenset(code(card) for card in seen)

    def default_action(self, state: State, seat: int) -> ac.Action:
        return default_action(state, seat)

    def verify_record(self, data: Any) -> str:
        verdict = record.verify(record.load_record(data))
        return "" if verdict.ok else verdict.mismatch or "the record does not verify"

    def dump_state(self, state: State) -> Any:
        return codec.dump_state(state)

    def load_state(self, data: Any) -> State:
        return codec.load_state(data)

    def dump_event(self, event: ev.Event) -> Any:
        return codec.dump_event(event)

    def load_event(self, data: Any) -> ev.Event:
        return codec.load_event(data)

    def dump_action(self, action: ac.Action) -> Any:
        return codec.dump_action(action)

    def load_action(self, data: Any) -> ac.Action:
        return codec.load_action(data)

    def dump_view(self, view: EuchreView) -> Any:
        return codec.dump_view(view)

    def view_json(self, view: EuchreView) -> str:
        return codec.view_json(view)

    def views_json(self, state: State, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        return codec.views_json(state, seats)


EUCHRE = EuchreGame()
