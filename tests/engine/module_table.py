"""A table driven only through the ``GameModule`` protocol, as the services drive one, for each
game's ``test_module.py``."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pytest

from shared.games.interface import Command, GameModule, IllegalCommand, Transfer
from shared.games.lifecycle import Player, StartGame, TakeSeat, Timeout

AnyModule = GameModule[Any, Any, Any, Any, Any]


def check_bad_config(module: AnyModule, settings: Mapping[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        module.make_config(settings)
    assert refused.value.code == "bad_config"


def check_malformed_action(module: AnyModule, data: Mapping[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        module.load_action(data)
    assert refused.value.code == "malformed"


def check_action_codec(module: AnyModule, data: Mapping[str, Any], action: Any) -> None:
    assert module.load_action(data) == action
    assert module.dump_action(action) == data


class ModuleTable:
    """A table of ``module`` at ``settings``; every command is checked on its way: ``decide``
    and ``step`` agree, the events survive their codec and fold into the stepped state. The
    chips the transfers move are kept in ``moved``."""

    def __init__(self, module: AnyModule, settings: Mapping[str, Any]) -> None:
        self.module = module
        self.state: Any = module.new_table(module.make_config(settings))
        self.moved: list[Transfer] = []
        self._ids = itertools.count(1)

    def send(self, actor: int | None, action: Any, at: int = 0) -> None:
        module = self.module
        command = Command(
            actor=actor,
            action=action,
            action_id=f"id{next(self._ids)}",
            seq=module.seq(self.state),
            at=at,
        )
        events = module.decide(self.state, command)
        stepped, same = module.step(self.state, command)
        assert same == events
        self.moved.extend(module.transfers(self.state, events))
        for event in events:
            assert module.load_event(module.dump_event(event)) == event
            self.state = module.evolve(self.state, event)
        assert self.state == stepped

    def start(self, seats: int, stack: int, seed: str) -> None:
        """Seat ``seats`` players bringing ``stack`` each, and start a game."""
        for seat in range(seats):
            self.send(None, TakeSeat(seat, Player(f"p{seat}", f"P{seat}"), stack))
        self.send(0, StartGame(seed))

    def time_out_to_end(self) -> None:
        """Let every deadline pass until the game ends: the table decides everything."""
        module, at = self.module, 0
        while module.phase(self.state) != "ended":
            deadline = module.deadline(self.state)
            assert deadline is not None
            at = deadline
            waiting = module.to_act(self.state)
            assert all(module.legal_actions(self.state, seat) for seat in waiting)
            timeout = module.timeout(self.state, f"t{at}", at)
            assert timeout.action == Timeout() and timeout.actor is None
            self.send(None, Timeout(), at)

    def ended_view(self, seats: int) -> Any:
        """Seat 1's dumped view of the ended game, once the state and the views survive their
        codecs."""
        module, state = self.module, self.state
        assert module.load_state(module.dump_state(state)) == state
        spectator, views = module.views_json(state, range(seats))
        assert spectator == module.view_json(module.view_for(state, None))
        assert views[1] == module.view_json(module.view_for(state, 1))
        assert not module.to_act(state)
        return module.dump_view(module.view_for(state, 1))
