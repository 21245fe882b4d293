"""Contract Whist as a ``GameModule``: the one object the services use to run a table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import codec, record
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import DECK, code
from shared.games.contract_whist.decide import decide, step
from shared.games.contract_whist.evolve import evolve
from shared.games.contract_whist.legal import default_action, legal_actions, to_act
from shared.games.contract_whist.money import transfers
from shared.games.contract_whist.state import (
    DEFAULT_SEATS,
    DEFAULT_TIMER_MS,
    FULL_GAME,
    IN_ROUND,
    INTERLUDE_MAX_MS,
    MAX_SEATS,
    MAX_STAKE,
    MIN_SEATS,
    TIMER_RANGE_MS,
    Phase,
    State,
    TableConfig,
    new_table,
)
from shared.games.contract_whist.views import WhistView, view_for
from shared.games.interface import Command, IllegalCommand, Option, TableForm, Transfer
from shared.games.lifecycle import Player, Timeout


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class ContractWhistGame:
    name = "contract-whist"
    form = TableForm(
        title="Contract Whist",
        defaults={
            "seats": DEFAULT_SEATS,
            "timer_ms": DEFAULT_TIMER_MS,
            "rounds": FULL_GAME,
            "stake": 0,
        },
        own=("rounds", "stake"),
        played_for="it is played for points and one stake a player",
        quick_play=("medium", "medium", "medium"),
        bot_fills_left_seat=True,
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        """``seats`` (2 to 5, default 4), ``rounds`` (1 to 17, default 17: the first rounds of
        the schedule), ``stake`` (0 to 300 cents, default 0), ``timer_ms`` (10 to 120 s, default
        30 s; ``None`` only at a private table), ``private``, ``interlude_ms``. Other settings
        (a Swick table's antes...) are ignored."""
        seats = settings.get("seats", DEFAULT_SEATS)
        rounds = settings.get("rounds", FULL_GAME)
        stake = settings.get("stake", 0)
        private = bool(settings.get("private", False))
        timer_ms = settings.get("timer_ms", DEFAULT_TIMER_MS)
        if not _whole(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise IllegalCommand("bad_config", f"A table has {MIN_SEATS} to {MAX_SEATS} seats")
        if not _whole(rounds) or not 1 <= rounds <= FULL_GAME:
            raise IllegalCommand("bad_config", f"A game is 1 to {FULL_GAME} rounds")
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
                "bad_config", f"A round's result shows 0 to {INTERLUDE_MAX_MS // 1000} seconds"
            )
        return TableConfig(
            seats=seats,
            rounds=rounds,
            stake=stake,
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
        return isinstance(event, ev.RoundScored | ev.GameEnded)

    def transfers(self, state: State, events: Sequence[ev.Event]) -> list[Transfer]:
        """The stakes paid in when a game starts and the pot paid out when it ends."""
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

    def view_for(self, state: State, seat: int | None) -> WhistView:
        return view_for(state, seat)

    # Each round's deal.
    recorded = frozenset({"game_started", "round_dealt", "game_ended"})

    def record(self, events: Sequence[Any], seats: int) -> Any:
        loaded = (codec.load_event(data) for data in events)
        return record.dump_record(record.game_record(loaded))

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        # The highest totals, or those who stayed when others ended the game (rules §8.4).
        if isinstance(ended, ev.GameEnded) and (ended.reason == "rounds" or ended.forfeited):
            return ended.winners
        return ()

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"seats": 2, "rounds": 2, "stake": 10},
        {"seats": 3, "rounds": 3, "interlude_ms": 5_000},
        {"seats": 5, "rounds": 4, "stake": 300},
        {"seats": 4, "rounds": FULL_GAME, "stake": 50},
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if s.phase not in IN_ROUND:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.undealt, *(card for _, card in s.trick))
        places += (card for trick in s.played for _, card in trick)
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §9: the tricks; a player's own hand.
        s = state
        seen: set[int] = {card for trick in (s.trick, *s.played) for _, card in trick}
        if seat is not None and 0 <= seat < s.n and s.players[seat] is not None:
            seen.update(s.hands[seat])
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

    def dump_view(self, view: WhistView) -> Any:
        return codec.dump_view(view)

    def view_json(self, view: WhistView) -> str:
        return codec.view_json(view)

    def views_json(self, state: State, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        return codec.views_json(state, seats)


CONTRACT_WHIST = ContractWhistGame()
