"""Euchre as a ``GameModule``: the protocol (checked by mypy), settings and the JSON shapes."""

from __future__ import annotations

from typing import Any

import pytest

from shared.games.euchre import EUCHRE
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import parse
from shared.games.euchre.legal import to_act
from shared.games.euchre.state import Phase, TableConfig
from shared.games.interface import Command, GameModule, IllegalCommand
from shared.games.lifecycle import Player, StartGame, TakeSeat, Timeout
from tests.engine.euchre.support import seed_with_first_dealer

MODULE: GameModule[Any, Any, Any, Any, Any] = EUCHRE  # mypy checks the protocol here


def test_name_and_defaults() -> None:
    assert MODULE.name == "euchre"
    config = EUCHRE.make_config({})
    assert config == TableConfig(target=10, timer_ms=20_000, private=False)
    assert EUCHRE.make_config({"target": 1, "seats": 4, "antes": [3]}).target == 1
    assert EUCHRE.make_config({"timer_ms": None, "private": True}).timer_ms is None


@pytest.mark.parametrize(
    "settings",
    [
        {"target": 0},
        {"target": 11},
        {"target": True},
        {"seats": 3},
        {"timer_ms": 5_000},
        {"timer_ms": None},
        {"interlude_ms": 60_000},
    ],
)
def test_bad_settings(settings: dict[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        EUCHRE.make_config(settings)
    assert refused.value.code == "bad_config"


ACTIONS: list[tuple[dict[str, Any], ac.Action]] = [
    ({"kind": "order_up", "alone": False}, ac.OrderUp()),
    ({"kind": "order_up", "alone": True}, ac.OrderUp(alone=True)),
    ({"kind": "name_trump", "suit": "S", "alone": False}, ac.NameTrump(3)),
    ({"kind": "name_trump", "suit": "D", "alone": True}, ac.NameTrump(1, alone=True)),
    ({"kind": "pass"}, ac.Pass()),
    ({"kind": "discard", "card": "9C"}, ac.Discard(parse("9C"))),
    ({"kind": "play", "card": "JH"}, ac.PlayCard(parse("JH"))),
    ({"kind": "next_hand"}, ac.NextHand()),
]


@pytest.mark.parametrize(("data", "action"), ACTIONS)
def test_action_codec(data: dict[str, Any], action: ac.Action) -> None:
    assert EUCHRE.load_action(data) == action
    assert EUCHRE.dump_action(action) == data


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "order_up", "alone": "yes"},
        {"kind": "name_trump", "suit": "X"},
        {"kind": "name_trump", "suit": 3},
        {"kind": "play", "card": "7H"},
        {"kind": "play", "card": 5},
        {"kind": "knock"},
    ],
)
def test_malformed_actions(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        EUCHRE.load_action(data)
    assert refused.value.code == "malformed"


def test_a_game_through_the_module() -> None:
    """Drive a game only through the protocol: timeouts play it to the end."""
    state = MODULE.new_table(MODULE.make_config({"target": 2}))
    seq = 0

    def send(actor: int | None, action: Any, at: int = 0) -> None:
        nonlocal state, seq
        seq += 1
        command = Command(
            actor=actor, action=action, action_id=f"id{seq}", seq=MODULE.seq(state), at=at
        )
        events = MODULE.decide(state, command)
        stepped, same = MODULE.step(state, command)
        assert same == events
        for event in events:
            assert MODULE.load_event(MODULE.dump_event(event)) == event
            state = MODULE.evolve(state, event)
        assert state == stepped
        assert MODULE.transfers(state, events) == []

    for seat in range(4):
        send(None, TakeSeat(seat, Player(f"p{seat}", f"P{seat}"), 100))
    send(0, StartGame(seed_with_first_dealer(2)))
    assert MODULE.phase(state) == "order" and MODULE.to_act(state) == (3,)
    at = 0
    while MODULE.phase(state) != "ended":
        deadline = MODULE.deadline(state)
        assert deadline is not None
        at = deadline
        waiting = MODULE.to_act(state)
        assert all(MODULE.legal_actions(state, seat) for seat in waiting)
        timeout = MODULE.timeout(state, f"t{at}", at)
        assert timeout.action == Timeout() and timeout.actor is None
        send(None, Timeout(), at)
    assert MODULE.stacks(state) == (100, 100, 100, 100)
    assert MODULE.load_state(MODULE.dump_state(state)) == state
    spectator, views = MODULE.views_json(state, range(4))
    assert spectator == MODULE.view_json(MODULE.view_for(state, None))
    assert views[1] == MODULE.view_json(MODULE.view_for(state, 1))
    view = MODULE.dump_view(MODULE.view_for(state, 1))
    assert view["game"] == "euchre" and view["phase"] == Phase.ENDED.value
    assert view["seed"] is not None and max(view["scores"]) >= 2
    assert not to_act(state)
