"""Contract Whist as a ``GameModule``: the protocol (checked by mypy), its settings
and actions in JSON (checked in ``tests/engine/test_modules.py``), and a game through it."""

from __future__ import annotations

from typing import Any

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import parse
from shared.games.contract_whist.state import Phase, TableConfig
from shared.games.interface import GameModule
from tests.engine.contract_whist.support import seed_with_first_bidder
from tests.engine.module_table import ModuleTable

MODULE: GameModule[Any, Any, Any, Any, Any] = CONTRACT_WHIST  # mypy checks the protocol here


def test_name_and_defaults() -> None:
    assert MODULE.name == "contract-whist"
    config = CONTRACT_WHIST.make_config({})
    assert config == TableConfig(seats=4, rounds=17, stake=0, timer_ms=30_000, private=False)
    short = CONTRACT_WHIST.make_config({"seats": 2, "rounds": 3, "stake": 300, "antes": [3]})
    assert (short.seats, short.rounds, short.stake) == (2, 3, 300)
    assert CONTRACT_WHIST.make_config({"timer_ms": None, "private": True}).timer_ms is None
    assert CONTRACT_WHIST.make_config({"seats": 5, "interlude_ms": 5_000}).interlude_ms == 5_000


BAD_SETTINGS: list[dict[str, Any]] = [
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
]


ACTIONS: list[tuple[dict[str, Any], ac.Action]] = [
    ({"kind": "bid", "bid": 3}, ac.MakeBid(3)),
    ({"kind": "bid", "bid": 0}, ac.MakeBid(0)),
    ({"kind": "choose_trump", "suit": "S"}, ac.ChooseTrump(3)),
    ({"kind": "choose_trump", "suit": None}, ac.ChooseTrump(None)),
    ({"kind": "play", "card": "10H"}, ac.PlayCard(parse("10H"))),
    ({"kind": "play", "card": "2C"}, ac.PlayCard(parse("2C"))),
    ({"kind": "next_hand"}, ac.NextHand()),
]


MALFORMED_ACTIONS: list[dict[str, Any]] = [
    {"kind": "bid", "bid": "3"},
    {"kind": "bid", "bid": True},
    {"kind": "bid"},
    {"kind": "choose_trump", "suit": "X"},
    {"kind": "choose_trump", "suit": 2},
    {"kind": "play", "card": "1H"},
    {"kind": "play", "card": 5},
    {"kind": "order_up"},
]


def test_a_game_through_the_module() -> None:
    """Drive a short staked game only through the protocol: timeouts play it to the end."""
    t = ModuleTable(MODULE, {"seats": 3, "rounds": 2, "stake": 25})
    t.start(3, 100, seed_with_first_bidder(2, 3))
    assert MODULE.phase(t.state) == "bid" and MODULE.to_act(t.state) == (2,)
    assert MODULE.stacks(t.state) == (75, 75, 75)
    assert [(m.debit, m.credit, m.amount, m.code) for m in t.moved] == [
        (f"wallet:p{seat}", "pot", 25, "stake") for seat in range(3)
    ]
    t.time_out_to_end()
    assert sum(MODULE.stacks(t.state)) == 300
    assert sum(m.amount for m in t.moved if m.credit == "pot") == 75
    assert sum(m.amount for m in t.moved if m.debit == "pot") == 75
    view = t.ended_view(3)
    assert view["game"] == "contract-whist" and view["phase"] == Phase.ENDED.value
    assert view["seed"] is not None and len(view["sheet"]) == 2
