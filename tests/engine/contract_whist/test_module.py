"""Contract Whist as a ``GameModule``: the protocol (checked by mypy), settings and JSON shapes."""

from __future__ import annotations

from typing import Any

import pytest

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import parse
from shared.games.contract_whist.legal import to_act
from shared.games.contract_whist.state import Phase, TableConfig
from shared.games.interface import Command, GameModule, IllegalCommand, Transfer
from shared.games.lifecycle import Player, StartGame, TakeSeat, Timeout
from tests.engine.contract_whist.support import seed_with_first_bidder

MODULE: GameModule[Any, Any, Any, Any, Any] = CONTRACT_WHIST  # mypy checks the protocol here


def test_name_and_defaults() -> None:
    assert MODULE.name == "contract-whist"
    config = CONTRACT_WHIST.make_config({})
    assert config == TableConfig(seats=4, rounds=17, stake=0, timer_ms=30_000, private=False)
    short = CONTRACT_WHIST.make_config({"seats": 2, "rounds": 3, "stake": 300, "antes": [3]})
    assert (short.seats, short.rounds, short.stake) == (2, 3, 300)
    assert CONTRACT_WHIST.make_config({"timer_ms": None, "private": True}).timer_ms is None
    assert CONTRACT_WHIST.make_config({"seats": 5, "interlude_ms": 5_000}).interlude_ms == 5_000


@pytest.mark.parametrize(
    "settings",
    [
        {"seats": 1},
        {"seats": 6},
        {"seats": True},
        {"rounds": 0},
        {"rounds": 18},
        {"stake": -1},
        {"stake": 301},
        {"stake": 1.5},
        {"timer_ms": 5_000},
        {"timer_ms": None},
        {"interlude_ms": 60_000},
    ],
)
def test_bad_settings(settings: dict[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        CONTRACT_WHIST.make_config(settings)
    assert refused.value.code == "bad_config"


ACTIONS: list[tuple[dict[str, Any], ac.Action]] = [
    ({"kind": "bid", "bid": 3}, ac.MakeBid(3)),
    ({"kind": "bid", "bid": 0}, ac.MakeBid(0)),
    ({"kind": "choose_trump", "suit": "S"}, ac.ChooseTrump(3)),
    ({"kind": "choose_trump", "suit": None}, ac.ChooseTrump(None)),
    ({"kind": "play", "card": "10H"}, ac.PlayCard(parse("10H"))),
    ({"kind": "play", "card": "2C"}, ac.PlayCard(parse("2C"))),
    ({"kind": "next_hand"}, ac.NextHand()),
]


@pytest.mark.parametrize(("data", "action"), ACTIONS)
def test_action_codec(data: dict[str, Any], action: ac.Action) -> None:
    assert CONTRACT_WHIST.load_action(data) == action
    assert CONTRACT_WHIST.dump_action(action) == data


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "bid", "bid": "3"},
        {"kind": "bid", "bid": True},
        {"kind": "bid"},
        {"kind": "choose_trump", "suit": "X"},
        {"kind": "choose_trump", "suit": 2},
        {"kind": "play", "card": "1H"},
        {"kind": "play", "card": 5},
        {"kind": "order_up"},
    ],
)
def test_malformed_actions(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalCommand) as refused:
        CONTRACT_WHIST.load_action(data)
    assert refused.value.code == "malformed"


def test_a_game_through_the_module() -> None:
    """Drive a short staked game only through the protocol: timeouts play it to the end."""
    state = MODULE.new_table(MODULE.make_config({"seats": 3, "rounds": 2, "stake": 25}))
    seq = 0
    moved: list[Transfer] = []

    def send(actor: int | None, action: Any, at: int = 0) -> None:
        nonlocal state, seq
        seq += 1
        command = Command(
            actor=actor, action=action, action_id=f"id{seq}", seq=MODULE.seq(state), at=at
        )
        events = MODULE.decide(state, command)
        stepped, same = MODULE.step(state, command)
        assert same == events
        moved.extend(MODULE.transfers(state, events))
        for event in events:
            assert MODULE.load_event(MODULE.dump_event(event)) == event
            state = MODULE.evolve(state, event)
        assert state == stepped

    for seat in range(3):
        send(None, TakeSeat(seat, Player(f"p{seat}", f"P{seat}"), 100))
    send(0, StartGame(seed_with_first_bidder(2, 3)))
    assert MODULE.phase(state) == "bid" and MODULE.to_act(state) == (2,)
    assert MODULE.stacks(state) == (75, 75, 75)
    assert [(t.debit, t.credit, t.amount, t.code) for t in moved] == [
        (f"wallet:p{seat}", "pot", 25, "stake") for seat in range(3)
    ]
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
    assert sum(MODULE.stacks(state)) == 300
    assert sum(t.amount for t in moved if t.credit == "pot") == 75
    assert sum(t.amount for t in moved if t.debit == "pot") == 75
    assert MODULE.load_state(MODULE.dump_state(state)) == state
    spectator, views = MODULE.views_json(state, range(3))
    assert spectator == MODULE.view_json(MODULE.view_for(state, None))
    assert views[1] == MODULE.view_json(MODULE.view_for(state, 1))
    view = MODULE.dump_view(MODULE.view_for(state, 1))
    assert view["game"] == "contract-whist" and view["phase"] == Phase.ENDED.value
    assert view["seed"] is not None and len(view["sheet"]) == 2
    assert not to_act(state)
