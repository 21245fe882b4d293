"""Swick as a ``GameModule``: the one object the services use to run a Swick table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from shared.games.interface import Command, IllegalCommand, Option, TableForm, Transfer
from shared.games.lifecycle import Player, Timeout
from shared.games.swick import actions as ac
from shared.games.swick import codec, record
from shared.games.swick import events as ev
from shared.games.swick.cards import DECK, code
from shared.games.swick.decide import decide, step
from shared.games.swick.evolve import evolve
from shared.games.swick.legal import default_action, legal_actions, to_act
from shared.games.swick.money import transfers
from shared.games.swick.state import (
    DEFAULT_ANTES,
    DEFAULT_TIMER_MS,
    INTERLUDE_MAX_MS,
    MAX_SEATS,
    MIN_SEATS,
    TIMER_RANGE_MS,
    Phase,
    State,
    TableConfig,
    new_table,
)
from shared.games.swick.views import SwickView, dealer_sees_own_cards, view_for

MAX_ANTE = 300


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class SwickGame:
    name = "swick"
    form = TableForm(
        title="Swick",
        defaults={"seats": MIN_SEATS, "timer_ms": DEFAULT_TIMER_MS, "antes": list(DEFAULT_ANTES)},
        own=("antes",),
        played_for="it is played for chips",
        quick_play=("medium", "medium"),
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        seats = settings.get("seats", MIN_SEATS)
        antes = tuple(settings.get("antes", DEFAULT_ANTES))
        private = bool(settings.get("private", False))
        timer_ms = settings.get("timer_ms", DEFAULT_TIMER_MS)
        if not _whole(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise IllegalCommand("bad_config", f"A table has {MIN_SEATS} to {MAX_SEATS} seats")
        if not antes or any(not _whole(a) or a <= 0 or a % 3 or a > MAX_ANTE for a in antes):
            raise IllegalCommand(
                "bad_config", f"Antes are multiples of 3 cents, from 3 to {MAX_ANTE}"
            )
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
            seats=seats,
            antes=tuple(sorted(set(antes))),
            timer_ms=timer_ms,
            private=private,
            interlude_ms=interlude_ms or None,
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
        return isinstance(event, ev.HandSettled | ev.GameEnded)

    def transfers(self, state: State, events: Sequence[ev.Event]) -> list[Transfer]:
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

    def view_for(self, state: State, seat: int | None) -> SwickView:
        return view_for(state, seat)

    # The deals, the antes and readiness that decide who is dealt in, the trump, the draws and
    # the discards.
    recorded = frozenset(
        {
            "game_started",
            "hand_opened",
            "ante_chosen",
            "readied",
            "hand_dealt",
            "trump_decided",
            "drew",
            "dealer_discarded",
            "waiting",
            "game_ended",
        }
    )

    def record(self, events: Sequence[Any], seats: int) -> Any:
        return record.dump_record(
            record.game_record((codec.load_event(data) for data in events), seats)
        )

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        return ()  # a pot game: chips are won hand by hand, not the game

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"seats": 3},
        {"seats": 4, "antes": [3, 6, 9], "interlude_ms": 5_000},
        {"seats": 6, "antes": [3, 30, 300]},  # six seats run the stock dry
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if not s.order:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.stock, *s.discards, *(card for _, card in s.trick))
        places += (card for trick in s.played for _, card in trick)
        if s.trump_card is not None and not s.kept:
            places.append(s.trump_card)  # a kept one is in the dealer's hand or a trick
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §4: the trump card, the tricks, a winning special hand; a player's own cards
        # (a dealer's not until their knock turn, but a kept trump card) and own discards.
        s = state
        seen: set[int] = {card for trick in (s.trick, *s.played) for _, card in trick}
        if s.trump_card is not None:
            seen.add(s.trump_card)
        if s.result is not None and s.result.special is not None:
            seen.update(s.result.special.cards)
        if seat is not None and 0 <= seat < len(s.players) and s.players[seat] is not None:
            blind = seat == s.dealer and not dealer_sees_own_cards(s)
            seen.update(() if blind else s.hands[seat])
            seen.update(s.discarded[seat])
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

    def dump_view(self, view: SwickView) -> Any:
        return codec.dump_view(view)

    def view_json(self, view: SwickView) -> str:
        return codec.view_json(view)

    def views_json(self, state: State, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        return codec.views_json(state, seats)


SWICK = SwickGame()
