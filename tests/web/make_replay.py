"""Replays of short games of each game, built by the gateway's ``build_replay`` from a log of
the game module's own events, for the node tests of ``web/js/replay-games.js``.

``.venv/bin/python -m tests.web.make_replay [OUT]`` rewrites ``tests/web/fixtures/replay.json``:
``{"swick": replay, "euchre": replay, "contract-whist": replay}``, each game played at its
default seats by uniform random legal choices (seeded): Euchre to 1 point, Contract Whist for
one round, Swick for two hands and then ended by its host.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import EndGame, Player, StartGame, TakeSeat
from shared.games.registry import game
from shared.games.replays import build_replay

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "replay.json"
SEED = "5eed" * 16
SETTINGS: dict[str, dict[str, Any]] = {
    "swick": {"seats": 3},
    "euchre": {"seats": 4, "target": 1},
    "contract-whist": {"seats": 4, "rounds": 1},
}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def replay(name: str, seed: int = 3) -> dict[str, Any]:
    g = game(name)
    settings = {"timer_ms": None, "private": True, **SETTINGS[name]}
    config = g.make_config(settings)
    state = g.new_table(config)
    batches: list[tuple[int, list[Any]]] = []
    ids = itertools.count()
    rng = random.Random(seed)

    def command(actor: int | None, action: object) -> None:
        nonlocal state
        request = Command(actor=actor, action=action, action_id=f"a{next(ids)}", seq=g.seq(state))
        state, events = g.step(state, request)
        batches.append((g.seq(state), [g.dump_event(event) for event in events]))

    seats = int(settings["seats"])
    for seat in range(seats):
        command(None, TakeSeat(seat, Player(f"p{seat}", NAMES[seat]), 10_000))
    command(0, StartGame(SEED))
    hands_ended = 0
    while g.phase(state) != "ended":
        pending = g.to_act(state)
        if name == "swick" and g.phase(state) in ("ante", "ready") and hands_ended >= 2:
            with contextlib.suppress(IllegalCommand):  # not while set money is carried
                command(0, EndGame())
                continue
        seat = pending[0]
        options = [o.action for o in g.legal_actions(state, seat) if o.legal]
        kept = [o for o in options if type(o).__name__ not in ("SkipHand", "SitOut", "Leave")]
        options = kept or options
        before = g.phase(state)
        command(seat, rng.choice(options))
        if before not in ("ante", "ready") and g.phase(state) in ("ante", "ready"):
            hands_ended += 1
    text = build_replay("t-fixture", name, settings, batches, 1)
    assert text is not None
    return dict(json.loads(text))


def fixture() -> dict[str, Any]:
    return {name: replay(name) for name in SETTINGS}


def main() -> None:
    data = fixture()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURE
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    for name, made in data.items():
        print(name, len(made["frames"]), "frames", file=sys.stderr)


if __name__ == "__main__":
    main()
