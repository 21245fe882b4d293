"""A hand played out through a game's pure engine, every seat by the rules of thumb: the
search bots' playout (Euchre's, and Swick's reference and fallback)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from shared.games.interface import Command, Option


class Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


StateT = TypeVar("StateT", bound=Sequenced)
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")


@dataclass(frozen=True, slots=True)
class Engine(Generic[StateT, ActionT, EventT]):
    """What a playout needs of a game: its engine's rules and its rules of thumb."""

    step: Callable[[StateT, Command[ActionT]], tuple[StateT, list[EventT]]]
    to_act: Callable[[StateT], tuple[int, ...]]
    legal_actions: Callable[[StateT, int], Sequence[Option[ActionT]]]
    choose: Callable[[StateT, int, list[ActionT]], ActionT]  # the rules of thumb, for a seat
    paid: Callable[[EventT, int], float | None]  # what a seat got, for the event ending a hand
    limit: int  # commands after the first: more than any hand takes


def play_out(
    engine: Engine[StateT, ActionT, EventT],
    world: StateT,
    seat: int,
    action: ActionT,
    watch: Callable[[list[EventT]], None] | None = None,
) -> float:
    """What the hand pays ``seat`` if it takes ``action`` in ``world`` and every seat plays on
    by the rules of thumb (0 should the hand not end within the limit); ``watch`` is shown the
    events of every command until the hand ends."""
    state, events = engine.step(
        world, Command(actor=seat, action=action, action_id="p0", seq=world.seq)
    )
    for n in range(engine.limit):
        if watch is not None:
            watch(events)
        for event in events:
            paid = engine.paid(event, seat)
            if paid is not None:
                return paid
        actor = engine.to_act(state)[0]
        options = [o.action for o in engine.legal_actions(state, actor) if o.legal]
        choice = engine.choose(state, actor, options)
        state, events = engine.step(
            state, Command(actor=actor, action=choice, action_id=f"p{n + 1}", seq=state.seq)
        )
    return 0.0
