"""The player's guide's worked examples (services/gateway/web/js/guide-data.js) are real hands:
each is played through the engine card by card, and every figure the guide shows is the engine's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shared.games.swick.state import Phase
from tests.engine.support import Table, cards

DATA = Path(__file__).resolve().parents[2] / "services/gateway/web/js/guide-data.js"


def example(name: str) -> dict[str, Any]:
    text = DATA.read_text(encoding="utf-8")
    found = re.search(
        rf"export const {name} = /\* JSON \*/ (\{{.*?\}}); // end {name}", text, re.DOTALL
    )
    assert found, f"{name} is not in guide-data.js"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def per_seat(data: dict[str, Any], key: str, seats: list[str] | None = None) -> tuple[int, ...]:
    return tuple(data[key][name] for name in seats or data["seats"])


def play(data: dict[str, Any]) -> Table:
    seats: list[str] = data["seats"]
    assert data["dealer"] == seats[0]
    seat = {name: k for k, name in enumerate(seats)}
    t = Table(len(seats), 10_000)
    t.start()
    draws = " ".join(" ".join(c) for c in data.get("drawn", {}).values())
    t.rig(
        {seat[name]: " ".join(hand) for name, hand in data["dealt"].items()},
        trump=data["trump"],
        stock=draws,
        ante=data["ante"],
    )
    assert t.state.antes == per_seat(data, "antes")
    assert t.state.pot == data["pot"]
    assert data["pot"] % 3 == 0 and data["pot"] // 3 == data["trickValue"]
    t.to_tricks(
        keep=data["keepTrump"],
        passes={seat[name] for name in data["passes"]},
        discards={seat[name]: " ".join(c) for name, c in data["discards"].items()},
        fourth=data.get("fourth"),
        face_play=data.get("facePlay", True),
    )
    assert t.state.phase is Phase.TRICKS
    assert t.state.face_play is bool(data.get("facePlay") and data["keepTrump"])
    for name, hand in data["final"].items():
        assert sorted(t.state.hands[seat[name]]) == sorted(cards(" ".join(hand))), name
    for trick in data["tricks"]:
        before = t.state.tricks_won
        t.play(*[(seat[name], code) for name, code in trick["plays"]])
        if t.state.result is None:  # the trick's winner has one trick more
            gained = [b - a for a, b in zip(before, t.state.tricks_won, strict=True)]
            assert gained.index(1) == seat[trick["winner"]]
    return t


@pytest.mark.parametrize("name", ["EXAMPLE", "DOUBLE"])
def test_guide_example_is_the_engine_s(name: str) -> None:
    data = example(name)
    t = play(data)
    result = t.state.result
    assert result is not None and result.ending == "tricks"
    assert result.pot == data["pot"]
    assert result.antes == per_seat(data, "antes")
    assert result.tricks == per_seat(data, "tricksWon")
    won = [0] * len(data["seats"])
    for trick in data["tricks"]:
        won[data["seats"].index(trick["winner"])] += 1
    assert tuple(won) == result.tricks
    assert result.payouts == per_seat(data, "payouts")
    assert result.penalties == per_seat(data, "penalties")
    assert result.delta == per_seat(data, "delta")
    assert result.carry_out == data["carry"]
    assert sum(result.delta) + result.carry_out - result.carry_in == 0
    if "next" in data:
        t.ready_all(None)
        nxt = data["next"]
        assert t.state.free_ride
        assert data["seats"][t.state.dealer] == nxt["dealer"]
        assert t.state.antes == per_seat(nxt, "antes", data["seats"])
        assert t.state.pot == nxt["pot"] == data["carry"] + 3
        assert nxt["pot"] // 3 == nxt["trickValue"]
