"""What every game's test table driver does the same way: step commands one by one, keep the
events, replay them, and check refusals and timeouts. Each game's ``support.py`` seats players,
starts and rigs deals its own way on top of ``GameTable``."""

from __future__ import annotations

import copy
import hashlib
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Generic, TypeVar

import pytest

from shared.games.interface import Command, GameModule, IllegalCommand
from shared.games.lifecycle import StartGame, Timeout
from shared.games.table.state import TableState

C = TypeVar("C")
S = TypeVar("S", bound=TableState)
A = TypeVar("A")
E = TypeVar("E")


def seed_where(salt: str, wanted: Callable[[bytes], bool]) -> str:
    """The first of the seeds ``sha256("salt-0")``, ``sha256("salt-1")``... that is ``wanted``:
    the same seed on every run."""
    for i in itertools.count():
        seed = hashlib.sha256(f"{salt}-{i}".encode()).digest()
        if wanted(seed):
            return seed.hex()
    raise AssertionError("unreachable")


@dataclass(eq=False)
class GameTable(Generic[C, S, A, E]):
    """One table of ``game`` driven command by command. ``play_card`` is the game's action
    class that plays a ``card``, and ``parse`` reads its card codes."""

    game: GameModule[C, S, A, E, Any]
    config: C
    seed: str
    _: KW_ONLY
    play_card: type[Any]
    parse: Callable[[str], int]
    state: S = field(init=False)
    events: list[E] = field(init=False, default_factory=list)
    _ids: Iterator[int] = field(init=False, default_factory=lambda: itertools.count(1))
    now: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.state = self.game.new_table(self.config)

    def command(
        self, actor: int | None, action: A, *, seq: int | None = None, action_id: str = ""
    ) -> Command[A]:
        return Command(
            actor=actor,
            action=action,
            action_id=action_id or f"a{next(self._ids)}",
            seq=self.state.seq if seq is None else seq,
            at=self.now,
        )

    def act(
        self, actor: int | None, action: A, *, seq: int | None = None, action_id: str = ""
    ) -> list[E]:
        command = self.command(actor, action, seq=seq, action_id=action_id)
        self.state, events = self.game.step(self.state, command)
        self.events.extend(events)
        return events

    def start(self) -> list[E]:
        start: Any = StartGame(self.seed)  # a lifecycle action: one of every game's actions
        return self.act(0, start)

    def replay(self, events: Sequence[E]) -> S:
        state = self.game.new_table(self.config)
        for event in events:
            state = self.game.evolve(state, event)
        return state

    def refuse(
        self,
        actor: int | None,
        action: A,
        code: str,
        *,
        seq: int | None = None,
        action_id: str = "",
    ) -> IllegalCommand:
        """Check that the command is refused with ``code`` and leaves the table as it was."""
        before = copy.deepcopy(self.state)
        logged = len(self.events)
        with pytest.raises(IllegalCommand) as refused:
            self.act(actor, action, seq=seq, action_id=action_id)
        assert refused.value.code == code, refused.value
        assert self.state == before
        assert len(self.events) == logged
        return refused.value

    def refuse_card(self, seat: int, card: str) -> IllegalCommand:
        """Check that ``seat`` may not play ``card`` now, as the rules of play forbid it."""
        return self.refuse(seat, self.play_card(self.parse(card)), "illegal_card")

    def must_play(self, seat: int, legal: str, *refused: str) -> None:
        """Each card of ``refused`` is refused, and ``seat`` may play only the cards ``legal``
        (``"QS 10S"``)."""
        for card in refused:
            self.refuse_card(seat, card)
        assert self.legal_cards(seat) == {self.parse(card) for card in legal.split()}

    def expire(self) -> list[E]:
        """Let the pending decision's deadline pass; the table decides by the default."""
        deadline = self.state.deadline
        assert deadline is not None, "no deadline is armed"
        self.now = max(self.now, deadline + 1)
        timeout: Any = Timeout()
        return self.act(None, timeout)

    def play(self, *moves: tuple[int, str]) -> None:
        """Play cards: ``(seat, "AS")``, ..."""
        for seat, text in moves:
            self.act(seat, self.play_card(self.parse(text)))

    def turn(self) -> int:
        pending = self.game.to_act(self.state)
        assert len(pending) == 1, pending
        return pending[0]

    def legal_cards(self, seat: int) -> set[int]:
        return {
            o.action.card
            for o in self.game.legal_actions(self.state, seat)
            if o.legal and isinstance(o.action, self.play_card)
        }

    def reason(self, seat: int, card: str) -> str:
        """Why ``seat`` may not play ``card`` (``""`` when it may)."""
        for option in self.game.legal_actions(self.state, seat):
            action = option.action
            if isinstance(action, self.play_card) and action.card == self.parse(card):
                return option.reason
        raise AssertionError(f"{card} is not in seat {seat}'s hand")
