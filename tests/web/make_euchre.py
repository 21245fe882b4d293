"""Real Euchre views and a Euchre game record from the Python engine, for the node tests of
``web/js/euchre-state.js`` and ``web/js/euchre-fair.js``.

``.venv/bin/python -m tests.web.make_euchre`` rewrites ``tests/web/fixtures/euchre.json``:

- ``views``: the view of seat 0 (and a spectator's) after every command of a short game to a
  target of 4: in hand 1 seat 0 deals and picks the turn-up up, then discards; in hand 2 all
  four pass the turn-up and seat 0 names a suit alone in the second round; later hands are
  ordered up by the dealer's left. Each hand's result shows (the interlude) until everyone
  presses Next hand.
- ``record``: that game's public record, with Python's verdict, and tampered copies with the
  verdict Python gives each.
- ``deals``: the deal of a few hands for a few seeds, as ``shared.games.euchre.dealing`` makes it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from shared.games.euchre import actions as ac
from shared.games.euchre.cards import code
from shared.games.euchre.codec import CODEC
from shared.games.euchre.dealing import deal, first_dealer
from shared.games.euchre.legal import legal_actions, to_act
from shared.games.euchre.record import dump_record, game_record, load_record, verify
from shared.games.euchre.state import Phase
from shared.games.euchre.views import view_for
from tests.engine.euchre.support import Table

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "euchre.json"
NOW = 1_700_000_000_000  # the table's clock, so that deadlines are real epoch times


def choose(table: Table, seat: int) -> ac.Action:
    s = table.state
    options = [o.action for o in legal_actions(s, seat) if o.legal]
    if s.phase is Phase.ORDER:
        if s.hand_no == 1:
            return ac.OrderUp(alone=False) if seat == s.dealer else ac.Pass()
        if s.hand_no == 2:
            return ac.Pass()
        first = ((s.dealer or 0) + 1) % 4
        return ac.OrderUp(alone=False) if seat == first else ac.Pass()
    if s.phase is Phase.NAME:
        if seat in (0, s.dealer):
            alone = seat == 0
            return next(o for o in options if isinstance(o, ac.NameTrump) and o.alone == alone)
        return ac.Pass()
    if s.phase is Phase.INTERLUDE:
        return ac.NextHand()
    return options[0]


def play() -> tuple[list[dict[str, Any]], Table]:
    table = Table(target=4, timer_ms=20_000, first_dealer=0, interlude_ms=10_000)
    table.now = NOW
    out: list[dict[str, Any]] = []

    def record(actor: int | None, action: str) -> None:
        out.append(
            {
                "after": action,
                "actor": actor,
                "seat0": CODEC.dump_view(view_for(table.state, 0)),
                "spectator": CODEC.dump_view(view_for(table.state, None)),
            }
        )

    table.start()
    record(0, "start_game")
    for _ in range(1000):
        s = table.state
        if s.phase is Phase.ENDED:
            break
        seat = to_act(s)[0]
        action = choose(table, seat)
        table.now += 1000
        table.act(seat, action)
        record(seat, action.kind)
    else:
        raise AssertionError("the game did not end")
    return out, table


def verdict_of(record: dict[str, Any]) -> dict[str, Any]:
    result = verify(load_record(record))
    return {"ok": result.ok, "hands": result.hands, "mismatch": result.mismatch}


def tampered(record: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[tuple[str, dict[str, Any]]] = []

    def variant(name: str) -> dict[str, Any]:
        copied = copy.deepcopy(record)
        out.append((name, copied))
        return copied

    last = len(record["hands"]) - 1
    v = variant("two dealt cards swapped between seats")
    dealt = v["hands"][last]["dealt"]
    dealt[0][0], dealt[1][0] = dealt[1][0], dealt[0][0]
    v = variant("another turn-up")
    v["hands"][0]["turn_up"], v["hands"][0]["kitty"][0] = (
        v["hands"][0]["kitty"][0],
        v["hands"][0]["turn_up"],
    )
    v = variant("a kitty card changed")
    v["hands"][last]["kitty"][2] = v["hands"][last]["dealt"][1][4]
    v = variant("another seed")
    v["seed"] = hashlib.sha256(b"not the seed").hexdigest()
    v = variant("another first dealer")
    v["first_dealer"] = (v["first_dealer"] + 1) % 4
    v = variant("a hand's dealer changed")
    v["hands"][last]["dealer"] = (v["hands"][last]["dealer"] + 1) % 4
    return [{"name": name, "record": r, "verdict": verdict_of(r)} for name, r in out]


def deals() -> list[dict[str, Any]]:
    out = []
    for i in range(3):
        seed = hashlib.sha256(f"euchre web deals {i}".encode()).digest()
        first = first_dealer(seed)
        for hand_no in (1, 2, 7):
            dealer = (first + hand_no - 1) % 4
            hands, turn_up, kitty = deal(seed, hand_no, dealer)
            out.append(
                {
                    "seed": seed.hex(),
                    "first_dealer": first,
                    "hand_no": hand_no,
                    "dealer": dealer,
                    "hands": [[code(card) for card in hand] for hand in hands],
                    "turn_up": code(turn_up),
                    "kitty": [code(card) for card in kitty],
                }
            )
    return out


def fixture() -> dict[str, Any]:
    views, table = play()
    record: dict[str, Any] = dump_record(game_record(table.events))
    return {
        "views": views,
        "record": record,
        "verdict": verdict_of(record),
        "tampered": tampered(record),
        "deals": deals(),
    }


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(fixture(), ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
