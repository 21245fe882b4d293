"""A hand played out through a game's pure engine, every seat by the rules of thumb: the
search bots' playout (Euchre's, and Swick's reference and fallback)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from shared.games.interface import Command, GameModule

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
KnowledgeT = TypeVar("KnowledgeT")


@dataclass(frozen=True, slots=True)
class Engine(Generic[StateT, ActionT, EventT, KnowledgeT]):
    """What a playout needs of a game: its engine, its rules of thumb and a hand's result."""

    game: GameModule[Any, StateT, ActionT, EventT, Any]
    knowledge: Callable[[StateT, int], KnowledgeT]  # what a seat knows of a state
    choose: Callable[[KnowledgeT, Sequence[ActionT]], ActionT]  # the rules of thumb
    paid: Callable[[EventT, int], float | None]  # what a seat got, for the event ending a hand
    limit: int  # commands after the first: more than any hand takes


def play_out(
    engine: Engine[StateT, ActionT, EventT, Any],
    world: StateT,
    seat: int,
    action: ActionT,
    watch: Callable[[list[EventT]], None] | None = None,
) -> float:
    """What the hand pays ``seat`` if it takes ``action`` in ``world`` and every seat plays on
    by the rules of thumb (0 should the hand not end within the limit); ``watch`` is shown the
    events of every command until the hand ends."""
    game = engine.game
    command = Command(actor=seat, action=action, action_id="p0", seq=game.seq(world))
    state, events = game.step(world, command)
    for n in range(engine.limit):
        if watch is not None:
            watch(events)
        for event in events:
            paid = engine.paid(event, seat)
            if paid is not None:
                return paid
        actor = game.to_act(state)[0]
        options = [o.action for o in game.legal_actions(state, actor) if o.legal]
        choice = engine.choose(engine.knowledge(state, actor), options)
        command = Command(actor=actor, action=choice, action_id=f"p{n + 1}", seq=game.seq(state))
        state, events = game.step(state, command)
    return 0.0
