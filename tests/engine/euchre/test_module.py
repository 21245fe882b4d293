"""Euchre as a ``GameModule``: the protocol (checked by mypy), its settings and
actions in JSON (checked in ``tests/engine/test_modules.py``), and a game through it."""

from __future__ import annotations

from typing import Any

from shared.games.euchre import EUCHRE
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import parse
from shared.games.euchre.state import Phase, TableConfig
from shared.games.interface import GameModule
from tests.engine.euchre.support import seed_with_first_dealer
from tests.engine.module_table import ModuleTable

MODULE: GameModule[Any, Any, Any, Any, Any] = EUCHRE  # mypy checks the protocol here


def test_name_and_defaults() -> None:
    assert MODULE.name == "euchre"
    config = EUCHRE.make_config({})
    assert config == TableConfig(target=10, timer_ms=20_000, private=False)
    assert EUCHRE.make_config({"target": 1, "seats": 4, "antes": [3]}).target == 1
    assert EUCHRE.make_config({"timer_ms": None, "private": True}).timer_ms is None


BAD_SETTINGS: list[dict[str, Any]] = [
    {"target": 0},
    {"target": 11},
    {"target": True},
    {"seats": 3},
    {"timer_ms": 5_000},
    {"timer_ms": None},
    {"interlude_ms": 60_000},
]


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


MALFORMED_ACTIONS: list[dict[str, Any]] = [
    {"kind": "order_up", "alone": "yes"},
    {"kind": "name_trump", "suit": "X"},
    {"kind": "name_trump", "suit": 3},
    {"kind": "play", "card": "7H"},
    {"kind": "play", "card": 5},
    {"kind": "knock"},
]


def test_a_game_through_the_module() -> None:
    """Drive a game only through the protocol: timeouts play it to the end."""
    t = ModuleTable(MODULE, {"target": 2})
    t.start(4, 100, seed_with_first_dealer(2))
    assert MODULE.phase(t.state) == "order" and MODULE.to_act(t.state) == (3,)
    t.time_out_to_end()
    assert t.moved == []
    assert MODULE.stacks(t.state) == (100, 100, 100, 100)
    view = t.ended_view(4)
    assert view["game"] == "euchre" and view["phase"] == Phase.ENDED.value
    assert view["seed"] is not None and max(view["scores"]) >= 2
