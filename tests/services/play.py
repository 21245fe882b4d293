"""Driving a table through real WebSockets: seat players, then play random legal moves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tests.services.client import Player


async def open_table(players: Sequence[Player], seats: int | None = None, **settings: Any) -> str:
    """The first player opens a table (of ``seats``, by default one per player); the others
    join; everyone watches it."""
    host = players[0]
    body = {"seats": seats or len(players), "timer_seconds": 30, **settings}
    reply = await host.http("POST", "/api/tables", json=body)
    assert reply.status_code == 200, reply.text
    table: str = reply.json()["id"]
    for player in players:
        await watch_when_created(player, table)
    for player in players[1:]:
        answer = await player.request({"type": "join", "table": table})
        assert answer["type"] == "ack", answer
    await host.wait(
        lambda: sum(s["player"] is not None for s in host.views[table]["seats"]) == len(players)
    )
    return table


async def start_for_bots(host: Player, bots: dict[str, str], timer_seconds: int) -> str:
    """The host opens a 4-seat table with ``bots`` in the other seats, watches it, sits out
    and starts the game: the bots play every hand while the host watches."""
    body = {"seats": 4, "timer_seconds": timer_seconds, "bots": bots}
    reply = await host.http("POST", "/api/tables", json=body)
    assert reply.status_code == 200, reply.text
    table: str = reply.json()["id"]
    await watch_when_created(host, table)
    await host.until(table, lambda v: all(s["player"] for s in v["seats"]))
    assert (await act(host, table, {"kind": "sit_out", "sitting_out": True}))["type"] == "ack"
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    return table


async def watch_when_created(player: Player, table: str) -> None:
    """Watch a table that may still be on its way to its worker."""
    for _ in range(50):
        answer = await player.request({"type": "watch", "table": table})
        if answer["type"] == "ack":
            await player.wait(lambda: table in player.views)
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{table} never appeared")


async def act(
    player: Player, table: str, action: dict[str, Any], within: float = 10.0
) -> dict[str, Any]:
    """Act, waiting out the rate limit like a patient client."""
    while True:
        answer = await player.act(table, action, within)
        if answer.get("code") != "rate_limited":
            return answer
        await asyncio.sleep(0.2)


def seen_at_least(seq: int) -> Callable[[dict[str, Any]], bool]:
    return lambda view: bool(view["seq"] >= seq)


async def play(
    players: Sequence[Player],
    table: str,
    rng: random.Random,
    until: Callable[[dict[str, Any]], bool],
    max_actions: int = 2000,
    choose: Callable[[Player, dict[str, Any]], dict[str, Any] | None] | None = None,
    within: float = 10.0,
) -> int:
    """Whoever's turn it is plays a random legal option, until ``until(view)`` holds for the
    first player's view. Returns how many actions were taken."""
    watcher = players[0]
    taken = 0
    while not until(watcher.views[table]):
        assert taken < max_actions, "the game did not reach its goal"
        movers = [p for p in players if p.my_turn(table)]
        if not movers:
            await watcher.wait(
                lambda: any(p.my_turn(table) for p in players) or until(watcher.views[table])
            )
            continue
        player = rng.choice(movers)
        action = (choose or (lambda p, v: None))(player, player.views[table])
        if action is None:
            options = [o["action"] for o in player.views[table]["options"] if o["legal"]]
            ready_up = [a for a in options if a["kind"] == "ready"]
            action = ready_up[0] if ready_up else rng.choice(options)
        answer = await act(player, table, action, within)
        if answer["type"] == "reject":
            # Someone else's move may have arrived first: only a fresh view explains a refusal.
            assert answer["code"] in ("stale", "not_your_turn", "wrong_phase"), answer
        taken += 1
        await player.until(table, seen_at_least(player.views[table]["seq"]))
    return taken


def ended(view: dict[str, Any]) -> bool:
    return bool(view["phase"] == "ended")


def views_seen(player: Player, table: str) -> Iterator[dict[str, Any]]:
    """Every view of ``table`` the player was sent: snapshots, updates and histories."""
    for frame in player.frames:
        if frame.get("table") != table:
            continue
        if frame["type"] in ("snapshot", "update"):
            yield frame["view"]
        elif frame["type"] == "history":
            yield from frame["views"]


def cards_in(value: Any, parse: Callable[[str], int]) -> Iterator[int]:
    """Every card code anywhere in a JSON value, read with a game's ``parse``."""
    if isinstance(value, str):
        try:
            yield parse(value)
        except ValueError:
            return
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item, parse)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item, parse)
