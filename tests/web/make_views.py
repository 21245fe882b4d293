"""Real views from the Python engine, for the tests of ``web/js/state.js``.

``.venv/bin/python -m tests.web.make_views`` rewrites ``tests/web/fixtures/views.json``: the view
of seat 0 (who deals the first hand and keeps a face trump) after every command of two hands of a
three-seat game, and the spectators' view at the same points. ``tests/web/state.test.mjs`` reads
it; ``tests/web/test_fair_js.py`` checks that it is what this script writes.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Any

from shared import fairness
from shared.games.lifecycle import StartGame
from shared.games.swick import actions as ac
from shared.games.swick.cards import is_face
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase
from tests.engine.support import Table
from tests.web.fixture_file import write
from tests.web.watch import NOW, seen

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "views.json"


def choose(table: Table, seat: int) -> ac.Action:
    s = table.state
    options = [o.action for o in legal_actions(s, seat) if o.legal]
    if s.phase is Phase.ANTE:
        return ac.ChooseAnte(3)
    if s.phase is Phase.TRUMP:
        return ac.DecideTrump(keep=True)
    if s.phase in (Phase.KNOCK, Phase.DEALER_KNOCK):
        return ac.Knock(knock=True)
    if s.phase is Phase.DRAW or s.phase is Phase.DEALER_DRAW:
        one = [o for o in options if isinstance(o, ac.Draw) and len(o.discards) == 1]
        return one[0]
    if s.phase is Phase.FACE_TRUMP:
        return ac.FaceTrump(play=True)
    return options[0]


def face_trump_seed() -> str:
    """A seed that makes seat 0 the first dealer and turns a face card for trump."""
    for i in itertools.count():
        seed = hashlib.sha256(f"swick web views {i}".encode()).digest()
        if fairness.choose_first_dealer(seed, [0, 1, 2]) != 0:
            continue
        table = Table(3, timer_ms=30_000)
        table.act(0, StartGame(seed.hex()))
        table.ready_all(3)
        trump = table.state.trump_card
        if trump is not None and is_face(trump):
            return seed.hex()
    raise AssertionError("unreachable")


def views() -> list[dict[str, Any]]:
    seed = face_trump_seed()
    table = Table(3, timer_ms=30_000)
    table.now = NOW
    table.act(0, StartGame(seed))
    out = [seen(table, 0, "start_game")]
    hands = 0
    for _ in range(400):
        s = table.state
        if s.result is not None and s.result.hand_no == 2 and s.phase in (Phase.ANTE, Phase.READY):
            break
        hands = s.hand_no
        seat = to_act(s)[0]
        action = choose(table, seat)
        table.now += 1000
        table.act(seat, action)
        out.append(seen(table, seat, action.kind))
    assert hands == 2
    return out


def main() -> None:
    write(views(), FIXTURE)


if __name__ == "__main__":
    main()
