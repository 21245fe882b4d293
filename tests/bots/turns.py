"""Every built-in level answers legally: a table played on with each level asked at every turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from shared.games.registry import game as game_module
from tests.engine.support import Table


class Played(Protocol):
    """A test table of the engine's suites: its state, and a seat's action taken."""

    @property
    def state(self) -> Any: ...

    def act(self, seat: int, action: Any) -> Any: ...


def started_swick(seats: int) -> Table:
    """A Swick table of ``seats`` started, each stack too deep for anyone to run short."""
    t = Table(seats, stack=10**6)
    t.start()
    return t


def ask_every_bot(game: str, t: Played, bots: Sequence[Any], decisions: int) -> None:
    """For ``decisions`` turns of ``t`` (fewer if its game ends), every bot is asked the turn
    and must choose a legal action; the bots' choices are taken in turn."""
    g = game_module(game)
    for turn in range(decisions):
        if g.phase(t.state) == "ended":
            break
        seat = g.to_act(t.state)[0]
        options = [o.action for o in g.legal_actions(t.state, seat) if o.legal]
        view = g.view_for(t.state, seat)
        choices = [bot.choose(view, options) for bot in bots]
        for choice in choices:
            assert choice in options, (t.state.phase, choice)
        t.act(seat, choices[turn % len(choices)])
