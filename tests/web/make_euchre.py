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

import hashlib
from pathlib import Path
from typing import Any

from shared.games.euchre import EUCHRE
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import code
from shared.games.euchre.dealing import deal, first_dealer
from shared.games.euchre.legal import legal_actions
from shared.games.euchre.state import Phase
from tests.engine.euchre.support import Table
from tests.web.fixture_file import write
from tests.web.tamper import Tampered
from tests.web.watch import game_fixture

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "euchre.json"


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


def tampered(record: dict[str, Any]) -> list[dict[str, Any]]:
    made = Tampered(EUCHRE, record)
    variant = made.variant
    made.dealt_swapped("hands")
    made.swapped("another turn-up", ("hands", 0, "turn_up"), ("hands", 0, "kitty", 0))
    v = variant("a kitty card changed")
    v["hands"][-1]["kitty"][2] = v["hands"][-1]["dealt"][1][4]
    made.reseeded()
    made.first_moved("another first dealer", "first_dealer", 4)
    v = variant("a hand's dealer changed")
    v["hands"][-1]["dealer"] = (v["hands"][-1]["dealer"] + 1) % 4
    return made.judged()


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
    table = Table(target=4, timer_ms=20_000, first_dealer=0, interlude_ms=10_000)
    return game_fixture(table, choose, tampered=tampered, deals=deals())


def main() -> None:
    write(fixture(), FIXTURE)


if __name__ == "__main__":
    main()
