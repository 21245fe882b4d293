"""Every game's view takes the fields all views fill alike first and by position: the header
(``shared.games.views.header``) and each seat's presence (``presence``). So each view's
``__init__`` must take those fields first, in the tuples' order, and a view must show in them
the state's own values, none in another's place."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import pytest

from shared.games.interface import Command
from shared.games.lifecycle import Player, StartGame, TakeSeat
from shared.games.registry import GAMES

HEADER = (
    "seat",
    "seq",
    "phase",
    "config",
    "host",
    "game_no",
    "fingerprint",
    "seed",
    "to_act",
    "deadline",
)
PRESENCE = ("connected", "away", "timeouts", "sitting_out", "leaving")
NAMES = sorted(GAMES)


def positional(cls: type) -> tuple[str, ...]:
    """The names ``cls(...)`` takes by position."""
    parameters = inspect.signature(cls).parameters.values()
    return tuple(p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD)


def started(name: str) -> Any:
    """A table of ``name`` at its default seats, its game started."""
    game = GAMES[name]
    state = game.new_table(game.make_config({"timer_ms": None, "private": True}))
    seats = int(game.form.defaults["seats"])
    commands: list[tuple[int | None, Any]] = [
        (None, TakeSeat(seat, Player(f"p{seat}", f"P{seat}"), 10**6)) for seat in range(seats)
    ]
    for n, (actor, action) in enumerate([*commands, (0, StartGame(bytes(32).hex()))]):
        command = Command(actor=actor, action=action, action_id=f"a{n}", seq=game.seq(state))
        state, _ = game.step(state, command)
    return state


def marked(state: Any) -> Any:
    """``state`` with a different value in each field the header and presence show, so one
    shown in another's place does not pass for it."""
    n = len(state.players)
    return replace(
        state,
        seq=101,
        host=n - 1,
        game_no=7,
        fingerprint="f" * 64,
        seed="5" * 64,
        deadline=1_700_000_000_000,
        connected=tuple(i % 2 == 0 for i in range(n)),  # T F T ...
        timeouts=tuple(3 if i == 2 else 0 for i in range(n)),  # away: F T T ...
        sitting_out=tuple(i == 1 for i in range(n)),  # F T F ...
        leaving=tuple(i == 2 for i in range(n)),  # F F T ...
    )


@pytest.mark.parametrize("name", NAMES)
def test_views_take_the_shared_fields_first(name: str) -> None:
    view = GAMES[name].view_for(started(name), 0)
    assert positional(type(view)) == HEADER
    assert positional(type(view.seats[0])) == PRESENCE


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("ended", [False, True], ids=["playing", "ended"])
def test_views_show_the_state_in_the_shared_fields(name: str, ended: bool) -> None:
    game = GAMES[name]
    state = marked(started(name))
    if ended:
        state = replace(state, phase=type(state.phase)("ended"))
    for seat in (None, 0, 1):
        view = game.view_for(state, seat)
        assert view.seat == seat
        assert (view.seq, view.phase, view.config) == (state.seq, state.phase, state.config)
        assert (view.host, view.game_no) == (state.host, state.game_no)
        assert (view.fingerprint, view.deadline) == (state.fingerprint, state.deadline)
        assert view.seed == (state.seed if ended else None)
        assert view.to_act == game.to_act(state)
        for i, shown in enumerate(view.seats):
            assert shown.connected == state.connected[i]
            assert shown.away == state.away(i)
            assert shown.timeouts == state.timeouts[i]
            assert shown.sitting_out == state.sitting_out[i]
            assert shown.leaving == state.leaving[i]
