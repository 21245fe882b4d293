"""The public game record, and ``swick verify`` re-dealing it from the revealed seed."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from services.cli import main
from shared.games.lifecycle import EndGame, StartGame
from shared.games.records import build_record, ended_games
from shared.games.swick import actions as ac
from shared.games.swick.cards import DECK
from shared.games.swick.codec import CODEC
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.record import (
    GameRecord,
    dump_record,
    game_record,
    load_record,
    verify,
)
from shared.games.swick.state import Phase
from tests.engine.support import Table


def finished_game(seats: int, hands: int, seed: int) -> GameRecord:
    """A game of random legal play, with entropy, draws and (with 6 seats) recycled stock."""
    t = Table(seats, stack=10**9)
    t.start()
    play_and_end(t, hands, random.Random(seed))
    return game_record(t.events, seats)


def play_and_end(t: Table, hands: int, rng: random.Random) -> None:
    """Play ``hands`` more hands of the table's game at least, then end it between hands."""
    first = t.state.hand_no
    while (
        t.state.hand_no < first + hands
        or t.state.phase not in (Phase.ANTE, Phase.READY)
        or t.state.carry
    ):
        seat = to_act(t.state)[0]
        if t.state.phase is Phase.READY:
            action: ac.Action = ac.Ready(entropy=f"{rng.random():.6f}")
        elif t.state.phase is Phase.DRAW or t.state.phase is Phase.DEALER_DRAW:
            draws = [o.action for o in legal_actions(t.state, seat) if o.legal]
            action = max(draws, key=lambda a: len(a.discards) if isinstance(a, ac.Draw) else 0)
        else:
            action = rng.choice([o.action for o in legal_actions(t.state, seat) if o.legal])
        t.act(seat, action)
    t.act(0, EndGame())


def test_a_tables_stored_record_is_built_from_the_record_events_alone() -> None:
    """The table service builds a game's record reading only the events a record needs: the
    same record as from every event, for each game of a table that played several."""
    rng = random.Random(7)
    t = Table(3, stack=10**9)
    t.start()
    play_and_end(t, 3, rng)
    first_end = len(t.events)
    t.act(0, StartGame(rng.randbytes(32).hex()))
    play_and_end(t, 2, rng)
    second_end = len(t.events)
    t.act(0, StartGame(rng.randbytes(32).hex()))  # a third game, still running
    log = json.loads(json.dumps([CODEC.dump_event(e) for e in t.events]))
    assert ended_games(log) == [1, 2]
    for game_no, end in ((1, first_end), (2, second_end)):
        built = build_record("t-1", log, 3, game_no)
        assert built is not None and built.game_no == game_no
        data = json.loads(built.data)
        # Beside the game's own record, who sat in each seat, by name alone.
        assert data.pop("players") == [{"name": n, "bot": None} for n in ("D", "L", "M")]
        assert data == dump_record(game_record(t.events[:end], 3))
        assert verify(load_record(json.loads(built.data))).ok
        assert built.players == ("p0", "p1", "p2")
    assert build_record("t-1", log, 3, 3) is None  # its seed is still secret
    assert build_record("t-1", log, 3, 4) is None


def test_an_honest_record_verifies() -> None:
    record = finished_game(6, 6, seed=1)
    assert any(len(draw.drawn) for hand in record.hands for draw in hand.draws)
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.hands == len(record.hands) >= 6


def test_recycled_stock_verifies() -> None:
    """With 6 players each discarding 3, the stock runs short and discards are reshuffled."""
    record = finished_game(6, 8, seed=2)
    drawn = sum(len(draw.drawn) for hand in record.hands for draw in hand.draws)
    assert drawn > 8 * 13  # more cards drawn than the stocks held: some came back recycled
    assert verify(record).ok


def test_a_tampered_deal_is_caught() -> None:
    record = finished_game(3, 4, seed=3)
    hand = record.hands[2]
    first = hand.dealt[0]
    other = next(card for card in DECK if card not in first)
    forged = replace(hand, dealt=((other, *first[1:]), *hand.dealt[1:]))
    tampered = replace(record, hands=(*record.hands[:2], forged, *record.hands[3:]))
    verdict = verify(tampered)
    assert not verdict.ok and verdict.hands == 2
    assert "hand 3" in verdict.mismatch and "was dealt" in verdict.mismatch


def test_a_tampered_draw_and_seed_are_caught() -> None:
    record = finished_game(4, 4, seed=4)
    index, hand = next((i, h) for i, h in enumerate(record.hands) if any(d.drawn for d in h.draws))
    draw_at = next(i for i, d in enumerate(hand.draws) if d.drawn)
    draw = hand.draws[draw_at]
    forged_draw = replace(
        draw,
        drawn=tuple(reversed(draw.drawn))
        if len(draw.drawn) > 1
        else (next(c for c in DECK if c not in draw.drawn),),
    )
    forged = replace(hand, draws=(*hand.draws[:draw_at], forged_draw, *hand.draws[draw_at + 1 :]))
    tampered = replace(record, hands=(*record.hands[:index], forged, *record.hands[index + 1 :]))
    assert "drew" in verify(tampered).mismatch
    wrong_seed = replace(record, seed="00" * 32)
    assert "fingerprint" in verify(wrong_seed).mismatch
    other_entropy = replace(
        record,
        hands=(
            replace(record.hands[0], entropy=("x",) * len(record.hands[0].order)),
            *record.hands[1:],
        ),
    )
    assert not verify(other_entropy).ok


def test_the_record_round_trips_and_the_command_verifies(tmp_path: Path) -> None:
    record = finished_game(3, 3, seed=5)
    assert load_record(json.loads(json.dumps(dump_record(record)))) == record
    good = tmp_path / "game.json"
    good.write_text(json.dumps(dump_record(record)))
    assert main(["verify", str(good)]) == 0
    data = dump_record(record)
    data["hands"][0]["trump_card"] = "AS" if data["hands"][0]["trump_card"] != "AS" else "KS"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    assert main(["verify", str(bad)]) == 1
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
