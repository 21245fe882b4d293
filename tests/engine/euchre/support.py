"""A small driver for the pure Euchre engine, for tests: seat four players, start, rig deals."""

from __future__ import annotations

import copy
import hashlib
import itertools
import re
from collections.abc import Sequence
from typing import Any

import pytest

from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK, code, parse
from shared.games.euchre.dealing import first_dealer
from shared.games.euchre.decide import step
from shared.games.euchre.evolve import evolve
from shared.games.euchre.legal import legal_actions, to_act
from shared.games.euchre.state import Phase, State, TableConfig, new_table
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import AddBot, Player, StartGame, TakeSeat, Timeout

NAMES = ("South", "West", "North", "East")


def cards(text: str) -> tuple[int, ...]:
    """``"JH AS 10D"`` as cards."""
    return tuple(parse(code) for code in text.split())


def seed_with_first_dealer(dealer: int) -> str:
    """A deterministic seed whose first dealer is ``dealer``."""
    for i in itertools.count():
        seed = hashlib.sha256(f"euchre-test-seed-{i}".encode()).digest()
        if first_dealer(seed) == dealer:
            return seed.hex()
    raise AssertionError("unreachable")


class Table:
    """One table driven command by command. Seat 0 deals the first hand unless told otherwise."""

    def __init__(
        self,
        *,
        target: int = 10,
        timer_ms: int | None = None,
        first_dealer: int = 0,
        interlude_ms: int | None = None,
        stake: int = 0,
        stacks: Sequence[int] = (0, 0, 0, 0),
        bots: Sequence[int] = (),
    ) -> None:
        config = TableConfig(
            target=target,
            timer_ms=timer_ms,
            private=True,
            interlude_ms=interlude_ms,
            stake=stake,
        )
        self.state: State = new_table(config)
        self.events: list[ev.Event] = []
        self._ids = itertools.count(1)
        self.now = 0
        for seat in range(4):
            if seat not in bots:
                self.act(None, TakeSeat(seat, Player(f"p{seat}", NAMES[seat]), stacks[seat]))
        for seat in bots:  # seated by the host, seat 0
            self.act(0, AddBot(seat, Player(f"b{seat}", NAMES[seat], "medium"), stacks[seat]))
        self.seed = seed_with_first_dealer(first_dealer)

    def command(
        self, actor: int | None, action: ac.Action, *, seq: int | None = None, action_id: str = ""
    ) -> Command[ac.Action]:
        return Command(
            actor=actor,
            action=action,
            action_id=action_id or f"a{next(self._ids)}",
            seq=self.state.seq if seq is None else seq,
            at=self.now,
        )

    def act(
        self, actor: int | None, action: ac.Action, *, seq: int | None = None, action_id: str = ""
    ) -> list[ev.Event]:
        command = self.command(actor, action, seq=seq, action_id=action_id)
        self.state, events = step(self.state, command)
        self.events.extend(events)
        return events

    def start(self) -> list[ev.Event]:
        return self.act(0, StartGame(self.seed))

    def rig(self, hands: dict[int, str], turn_up: str, kitty: str = "") -> None:
        """Replace the deal of the hand just dealt with these cards (the kitty gets ``kitty``
        then the unnamed cards in deck order), rebuilding the state through ``evolve``."""
        index = max(i for i, e in enumerate(self.events) if isinstance(e, ev.HandDealt))
        dealt = self.events[index]
        assert isinstance(dealt, ev.HandDealt)
        assert self.state.phase is Phase.ORDER and not self.state.calls, "rig a fresh deal"
        held = {seat: cards(text) for seat, text in hands.items()}
        assert set(held) == {0, 1, 2, 3} and all(len(h) == 5 for h in held.values())
        named = [*itertools.chain.from_iterable(held.values()), parse(turn_up), *cards(kitty)]
        assert len(set(named)) == len(named), "a card named twice"
        rest = [card for card in DECK if card not in named]
        kitty_cards = (*cards(kitty), *rest)
        assert len(kitty_cards) == 3
        rigged = ev.HandDealt(
            dealt.hand_no,
            dealt.dealer,
            tuple(held[seat] for seat in range(4)),
            parse(turn_up),
            kitty_cards,
        )
        self.events[index] = rigged
        self.state = self.replay(self.events)

    def replay(self, events: Sequence[ev.Event]) -> State:
        state = new_table(self.state.config)
        for event in events:
            state = evolve(state, event)
        return state

    def play(self, *moves: tuple[int, str]) -> None:
        """Play cards: ``(seat, "AS")``, ..."""
        for seat, text in moves:
            self.act(seat, ac.PlayCard(parse(text)))

    def refuse(
        self,
        actor: int | None,
        action: ac.Action,
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

    def expire(self) -> list[ev.Event]:
        """Let the pending decision's deadline pass; the table decides by the default."""
        deadline = self.state.deadline
        assert deadline is not None, "no deadline is armed"
        self.now = max(self.now, deadline + 1)
        return self.act(None, Timeout())

    def turn(self) -> int:
        pending = to_act(self.state)
        assert len(pending) == 1, pending
        return pending[0]

    def legal_cards(self, seat: int) -> set[int]:
        return {
            o.action.card
            for o in legal_actions(self.state, seat)
            if o.legal and isinstance(o.action, ac.PlayCard)
        }

    def reason(self, seat: int, card: str) -> str:
        for option in legal_actions(self.state, seat):
            if isinstance(option.action, ac.PlayCard) and option.action.card == parse(card):
                return option.reason
        raise AssertionError(f"{card} is not in seat {seat}'s hand")

    def phase(self) -> Phase:
        """The phase now; a call, so that type checkers don't narrow it across actions."""
        return self.state.phase


_CODES = {code(card): card for card in DECK}
_LABEL = re.compile(r"(?:10|[9JQKA])[♣♦♥♠]")
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in_json(data: Any) -> set[int]:
    """Every card a JSON document names, as a code (``"10D"``) or inside a text (``"10♦"``)."""
    found: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if item in _CODES:
                found.add(_CODES[item])
            for match in _LABEL.findall(item):
                found.add(parse(match[:-1] + _SYMBOLS[match[-1]]))
    return found
