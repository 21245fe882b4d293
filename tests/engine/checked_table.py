"""A table played command by command with every step checked, for the property tests that play
whole random games: the chips the transfers move, each event against the state before it, the
events rebuilding the state, and the game's invariants after every command."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from shared.games import lifecycle as lc
from shared.games.interface import Command, GameModule
from shared.games.table.state import TableState
from tests.engine.books import Books, Staked


class PlayedState(TableState, Staked, Protocol):
    """A staked table's state."""


S = TypeVar("S", bound=PlayedState)


class CheckedTable(Generic[S]):
    """A table of ``game`` at ``config``; ``check_event`` sees each event with the state it
    applies to, ``check_state`` every state a command leads to."""

    def __init__(
        self,
        game: GameModule[Any, S, Any, Any, Any],
        config: Any,
        check_state: Callable[[S], None],
        check_event: Callable[[S, Any], None],
    ) -> None:
        self.game = game
        self.state: S = game.new_table(config)
        self.replayed = self.state
        self.events: list[Any] = []
        self.books = Books()
        self._check_state = check_state
        self._check_event = check_event
        self._ids = itertools.count(1)

    def send(self, actor: int | None, action: Any) -> None:
        command = Command(
            actor=actor, action=action, action_id=f"id{next(self._ids)}", seq=self.state.seq
        )
        if isinstance(action, lc.TakeSeat):
            self.books.seat(action.player, action.stack)
        before = self.state
        self.state, new = self.game.step(before, command)
        self.books.book(self.game.transfers(before, new), self.state)
        for event in new:
            self._check_event(self.replayed, event)
            self.replayed = self.game.evolve(self.replayed, event)
        assert self.replayed == self.state, "the events do not rebuild the state"
        self.events.extend(new)
        self._check_state(self.state)

    def start(self, stacks: list[int], seed: bytes) -> None:
        """Seat a player with each of ``stacks`` and start a game."""
        for seat, stack in enumerate(stacks):
            self.send(None, lc.TakeSeat(seat, lc.Player(f"p{seat}", f"P{seat}"), stack))
        self.send(0, lc.StartGame(seed.hex()))

    def play(
        self,
        rng: random.Random,
        moves: int,
        default: Callable[[S, int], Any] | None = None,
        defaults: float = 0.0,
    ) -> None:
        """Random legal decisions (a ``defaults`` share of them the table's ``default``) until
        the game ends or ``moves`` were made."""
        for _ in range(moves):
            if self.state.phase == "ended":
                return
            seat = self.game.to_act(self.state)[0]
            if default is not None and rng.random() < defaults:
                self.send(seat, default(self.state, seat))
            else:
                options = [o.action for o in self.game.legal_actions(self.state, seat) if o.legal]
                self.send(seat, rng.choice(options))
