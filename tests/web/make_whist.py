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

import hashlib
from pathlib import Path
from typing import Any

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import code
from shared.games.contract_whist.dealing import bidder_of_round, deal, first_bidder
from shared.games.contract_whist.legal import legal_actions
from shared.games.contract_whist.state import Phase, cards_in_round
from tests.engine.contract_whist.support import Table
from tests.web.fixture_file import write
from tests.web.tamper import Tampered
from tests.web.watch import game_fixture

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "whist.json"


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


def tampered(record: dict[str, Any]) -> list[dict[str, Any]]:
    made = Tampered(CONTRACT_WHIST, record)
    variant = made.variant
    made.dealt_swapped("rounds")
    made.swapped(
        "an undealt card swapped into a hand",
        ("rounds", 0, "dealt", 2, 1),
        ("rounds", 0, "undealt", 0),
    )
    made.reseeded()
    made.first_moved("another first bidder", "first_bidder", 3)
    v = variant("a round's first bidder changed")
    v["rounds"][-1]["first_bidder"] = (v["rounds"][-1]["first_bidder"] + 1) % 3
    v = variant("a round's cards changed")
    v["rounds"][1]["cards"] = 10
    v = variant("a round missing")
    del v["rounds"][1]
    v = variant("six seats")
    v["seats"] = 6
    v = variant("another algorithm")
    v["algorithm"] = "swick-fair-v1"
    return made.judged()


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
    table = Table(seats=3, rounds=3, stake=5, timer_ms=30_000, first=1, interlude_ms=10_000)
    return game_fixture(table, choose, tampered=tampered, deals=deals())


def main() -> None:
    write(fixture(), FIXTURE)


if __name__ == "__main__":
    main()
