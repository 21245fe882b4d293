"""A finished game's public record from the Python engine, for the JavaScript verifier's tests.

``.venv/bin/python -m tests.web.make_record`` rewrites ``tests/web/fixtures/record.json``: one
six-seat game (every player knocks and most discard three, so the stock is recycled), its
``swick verify`` verdict, and tampered copies with the verdict Python gives each.
``tests/web/fair.test.mjs`` checks that ``web/js/fair.js`` agrees; ``tests/web/test_fair_js.py``
does the same for a fresh game on every run.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

from shared.games.lifecycle import EndGame, StartGame
from shared.games.swick import SWICK
from shared.games.swick import actions as ac
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.record import dump_record, game_record
from shared.games.swick.state import Phase
from tests.engine.support import Table
from tests.web.fixture_file import write
from tests.web.tamper import Tampered, verdict

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "record.json"


def play_game(seed: bytes, rng: random.Random, seats: int = 6, hands: int = 4) -> dict[str, Any]:
    """Play a game to its end with choices that exercise every part of the record."""
    table = Table(seats, stack=1_000_000)
    table.act(0, StartGame(seed.hex()))
    for _ in range(5000):
        s = table.state
        between = s.phase in (Phase.ANTE, Phase.READY)
        if between and s.hand_no >= hands and s.carry == 0:
            break
        seat = to_act(s)[0]
        options = [o.action for o in legal_actions(s, seat) if o.legal]
        # The first hand: everyone knocks and throws three, so the discards are recycled. Once
        # there are enough hands, everyone passes until a hand ends with nobody set.
        knocking = 1.0 if s.hand_no <= 1 else 0.9 if s.hand_no < hands else 0.0
        table.act(seat, choose(options, rng, knocking))
    else:
        raise AssertionError("the game did not end")
    table.act(table.state.host, EndGame())
    record: dict[str, Any] = dump_record(game_record(table.events, seats))
    assert any(recycles(hand) for hand in record["hands"]), "no hand recycled its discards"
    return record


def recycles(hand: dict[str, Any]) -> bool:
    stock = 32 - 3 * len(hand["order"]) - 1
    return sum(len(draw["drawn"]) for draw in hand["draws"]) > stock


def choose(options: list[ac.Action], rng: random.Random, knocking: float) -> ac.Action:
    def pick(kind: type[ac.Action]) -> list[ac.Action]:
        return [o for o in options if isinstance(o, kind)]

    if pick(ac.Ready):
        return ac.Ready(entropy=rng.choice(("", "lucky", "ünïcødé ♠", f"{rng.getrandbits(64):x}")))
    if antes := pick(ac.ChooseAnte):
        return ac.ChooseAnte(rng.choice(antes).amount, entropy=f"{rng.getrandbits(32):x}")  # type: ignore[union-attr]
    if knocks := pick(ac.Knock):
        return knocks[0] if rng.random() < knocking else knocks[-1]
    if draws := pick(ac.Draw):
        most = max(len(d.discards) for d in draws)  # type: ignore[union-attr]
        wide = [d for d in draws if len(d.discards) == most]  # type: ignore[union-attr]
        return rng.choice(wide if rng.random() < 0.7 or knocking == 1.0 else draws)
    return rng.choice(options)


def tampered(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``record`` with one thing changed each, and Python's verdict on each."""
    made = Tampered(SWICK, record)
    variant = made.variant
    made.dealt_swapped("hands")
    v = variant("another trump card")
    hand = v["hands"][0]
    hand["trump_card"] = v["hands"][0]["dealt"][0][0]
    v = variant("a drawn card changed")
    for hand in v["hands"]:
        draw = next((d for d in hand["draws"] if d["drawn"]), None)
        if draw is not None:
            draw["drawn"][0] = hand["trump_card"]
            break
    v = variant("one player's entropy changed")
    v["hands"][-1]["entropy"][0] += "x"
    made.reseeded()
    made.first_moved("another first dealer", "first_dealer", record["seats"])
    return made.judged()


def fixture(seed: bytes, rng: random.Random) -> dict[str, Any]:
    record = play_game(seed, rng)
    return {"record": record, "verdict": verdict(SWICK, record), "tampered": tampered(record)}


def main() -> None:
    data = fixture(hashlib.sha256(b"swick web verifier fixture").digest(), random.Random(11))
    write(data, FIXTURE)


if __name__ == "__main__":
    main()
