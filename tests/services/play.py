"""Driving a table through real WebSockets: seat players, then play random legal moves."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from tests.services.client import PATIENCE, Player, signed_up
from tests.services.lobby import new_table, quick_play


async def quick_seated(player: Player) -> str:
    """The table quick play seats ``player`` (connected) at, once they watch it."""
    table: str = (await quick_play(player))["id"]
    await watch_when_created(player, table)
    return table


async def open_table(players: Sequence[Player], seats: int | None = None, **settings: Any) -> str:
    """The first player opens a table (of ``seats``, by default one per player); the others
    join; everyone watches it."""
    host = players[0]
    body = {"seats": seats or len(players), "timer_seconds": 30, **settings}
    table: str = (await new_table(host, body))["id"]
    for player in players:
        await watch_when_created(player, table)
    for player in players[1:]:
        answer = await player.request({"type": "join", "table": table})
        assert answer["type"] == "ack", answer
    await host.wait(
        lambda: sum(s["player"] is not None for s in host.views[table]["seats"]) == len(players)
    )
    return table


async def two_and_bots(host: Player, guest: Player, body: dict[str, Any]) -> str:
    """The host opens a table with ``body`` (bots in the seats after the first two), both
    watch it, and the guest sits down in seat 1."""
    table: str = (await new_table(host, body))["id"]
    await host.watch(table)
    await guest.watch(table)
    assert (await guest.request({"type": "join", "table": table}))["type"] == "ack"
    await host.until(table, lambda v: v["seats"][1]["player"] is not None)
    return table


async def started(players: Sequence[Player], **settings: Any) -> str:
    """A table opened as ``open_table`` does, its game started by the host."""
    table = await open_table(players, **settings)
    assert (await act(players[0], table, {"kind": "start_game"}))["type"] == "ack"
    return table


async def start_for_bots(host: Player, bots: dict[str, str], timer_seconds: int) -> str:
    """The host opens a 4-seat table with ``bots`` in the other seats, watches it, sits out
    and starts the game: the bots play every hand while the host watches."""
    body = {"seats": 4, "timer_seconds": timer_seconds, "bots": bots}
    table: str = (await new_table(host, body))["id"]
    await watch_when_created(host, table)
    await host.until(table, lambda v: all(s["player"] for s in v["seats"]))
    assert (await act(host, table, {"kind": "sit_out", "sitting_out": True}))["type"] == "ack"
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    return table


@contextlib.asynccontextmanager
async def bots_playing(
    base: str, bots: dict[str, str], timer_seconds: int
) -> AsyncIterator[tuple[Player, str]]:
    """A host watching (as ``start_for_bots`` seats them) a table of ``bots`` that has played
    its first hands; the host leaves after the block."""
    async with signed_up(base, "Keeper") as (host,):
        table = await start_for_bots(host, bots, timer_seconds)
        # Deadlines are generous: they catch a table that stopped, not a slow machine.
        await host.until(table, lambda v: v["hand_no"] >= 3, within=300)
        yield host, table


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
    player: Player, table: str, action: dict[str, Any], within: float = PATIENCE
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
    within: float = PATIENCE,
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


async def finished_with_bots(person: Player, seed: int = 7, **settings: Any) -> dict[str, Any]:
    """A table of the person and three bots (medium, hard, easy), started at once and played
    to its end by random legal moves from ``seed``: the lobby's answer when it was opened."""
    body = {"bots": {"1": "medium", "2": "hard", "3": "easy"}, "start": True, **settings}
    created = await new_table(person, body)
    table = created["id"]
    await person.watch(table)
    await play([person], table, random.Random(seed), ended, within=60)
    await person.until(table, ended)
    return created


def between_hands(after: int) -> Callable[[dict[str, Any]], bool]:
    """Between hands (of Swick), once hand ``after`` was played."""
    return lambda view: bool(view["hand_no"] >= after and view["phase"] in ("ante", "ready"))


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
