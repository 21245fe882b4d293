"""Real Contract Whist views and a game record from the Python engine, for the node tests of
``web/js/whist-state.js`` and ``web/js/whist-fair.js``.

``.venv/bin/python -m tests.web.make_whist`` rewrites ``tests/web/fixtures/whist.json``:

- ``views``: the view of seat 0 (and a spectator's) after every command of a three-seat,
  three-round game staked at 5 cents. Seat 1 bids first in round 1, so seat 0 bids last there
  (with a forbidden bid) and bids highest, choosing hearts; in round 2 seat 0 bids 0 and the
  chooser names no trumps; in round 3 seat 0 bids first. Cards are the first legal ones. Each
  round's result shows (the interlude) until everyone presses Next hand.
- ``record``: that game's public record, with Python's verdict, and tampered copies with the
  verdict Python gives each.
- ``deals``: the deal of a few rounds for a few seeds and table sizes, as
  ``shared.games.contract_whist.dealing`` makes it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import code
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.dealing import bidder_of_round, deal, first_bidder
from shared.games.contract_whist.legal import legal_actions, to_act
from shared.games.contract_whist.record import dump_record, game_record, load_record, verify
from shared.games.contract_whist.state import Phase, cards_in_round
from shared.games.contract_whist.views import view_for
from tests.engine.contract_whist.support import Table

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "whist.json"
NOW = 1_700_000_000_000  # the table's clock, so that deadlines are real epoch times


def choose(table: Table, seat: int) -> ac.Action:
    s = table.state
    options = [o.action for o in legal_actions(s, seat) if o.legal]
    if s.phase is Phase.BID:
        bids = [o for o in options if isinstance(o, ac.MakeBid)]
        if s.round_no == 1:
            wanted = 5 if seat == 0 else 1
        elif s.round_no == 2:
            wanted = 0 if seat == 0 else 2
        else:
            wanted = 1
        legal = [b for b in bids if b.bid == wanted]
        return legal[0] if legal else bids[0]
    if s.phase is Phase.TRUMP:
        if s.round_no == 1:
            return ac.ChooseTrump(2)
        return ac.ChooseTrump(None if s.round_no == 2 else 3)
    if s.phase is Phase.INTERLUDE:
        return ac.NextHand()
    return options[0]


def play() -> tuple[list[dict[str, Any]], Table]:
    table = Table(seats=3, rounds=3, stake=5, timer_ms=30_000, first=1, interlude_ms=10_000)
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
    return {"ok": result.ok, "rounds": result.rounds, "mismatch": result.mismatch}


def tampered(record: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[tuple[str, dict[str, Any]]] = []

    def variant(name: str) -> dict[str, Any]:
        copied = copy.deepcopy(record)
        out.append((name, copied))
        return copied

    last = len(record["rounds"]) - 1
    v = variant("two dealt cards swapped between seats")
    dealt = v["rounds"][last]["dealt"]
    dealt[0][0], dealt[1][0] = dealt[1][0], dealt[0][0]
    v = variant("an undealt card swapped into a hand")
    v["rounds"][0]["dealt"][2][1], v["rounds"][0]["undealt"][0] = (
        v["rounds"][0]["undealt"][0],
        v["rounds"][0]["dealt"][2][1],
    )
    v = variant("another seed")
    v["seed"] = hashlib.sha256(b"not the seed").hexdigest()
    v = variant("another first bidder")
    v["first_bidder"] = (v["first_bidder"] + 1) % 3
    v = variant("a round's first bidder changed")
    v["rounds"][last]["first_bidder"] = (v["rounds"][last]["first_bidder"] + 1) % 3
    v = variant("a round's cards changed")
    v["rounds"][1]["cards"] = 10
    v = variant("a round missing")
    del v["rounds"][1]
    v = variant("six seats")
    v["seats"] = 6
    v = variant("another algorithm")
    v["algorithm"] = "swick-fair-v1"
    return [{"name": name, "record": r, "verdict": verdict_of(r)} for name, r in out]


def deals() -> list[dict[str, Any]]:
    out = []
    for i, seats in enumerate((2, 3, 4, 5)):
        seed = hashlib.sha256(f"whist web deals {i}".encode()).digest()
        first = first_bidder(seed, seats)
        for round_no in (1, 9, 17):
            bidder = bidder_of_round(first, round_no, seats)
            cards = cards_in_round(round_no)
            hands, undealt = deal(seed, round_no, bidder, seats, cards)
            out.append(
                {
                    "seed": seed.hex(),
                    "seats": seats,
                    "first_bidder": first,
                    "round_no": round_no,
                    "bidder": bidder,
                    "cards": cards,
                    "hands": [[code(card) for card in hand] for hand in hands],
                    "undealt": [code(card) for card in undealt],
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
