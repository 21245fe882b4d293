"""A game the engine plays out, watched after every command from seat 0 and from a spectator's
seat: the views of the node tests' fixtures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.engine.driver import GameTable
from tests.web.tamper import verdict

NOW = 1_700_000_000_000  # the table's clock, so that deadlines are real epoch times


def seen(table: GameTable[Any, Any, Any, Any], actor: int | None, after: str) -> dict[str, Any]:
    """What seat 0 and a spectator see after ``actor``'s command ``after``."""
    game = table.game
    return {
        "after": after,
        "actor": actor,
        "seat0": game.dump_view(game.view_for(table.state, 0)),
        "spectator": game.dump_view(game.view_for(table.state, None)),
    }


def play_to_the_end(
    table: GameTable[Any, Any, Any, Any], choose: Callable[[Any, int], Any]
) -> list[dict[str, Any]]:
    """Start ``table`` (an engine test's table) and let the first seat to act take ``choose``'s
    action, one second apart, until the game has ended; the views after each."""
    table.now = NOW
    table.start()
    out = [seen(table, 0, "start_game")]
    for _ in range(1000):
        s = table.state
        if table.game.phase(s) == "ended":
            return out
        seat = table.game.to_act(s)[0]
        action = choose(table, seat)
        table.now += 1000
        table.act(seat, action)
        out.append(seen(table, seat, action.kind))
    raise AssertionError("the game did not end")


def game_fixture(
    table: GameTable[Any, Any, Any, Any],
    choose: Callable[[Any, int], Any],
    *,
    tampered: Callable[[dict[str, Any]], list[dict[str, Any]]],
    deals: list[dict[str, Any]],
) -> dict[str, Any]:
    """A game's fixture: the views as ``table`` is played to the end, its public record with
    the verdict on it and on its ``tampered`` copies, and the ``deals``."""
    views = play_to_the_end(table, choose)
    game = table.game
    logged = [game.dump_event(event) for event in table.events]
    record: dict[str, Any] = game.record(logged, len(game.players(table.state)))
    return {
        "views": views,
        "record": record,
        "verdict": verdict(game, record),
        "tampered": tampered(record),
        "deals": deals,
    }
