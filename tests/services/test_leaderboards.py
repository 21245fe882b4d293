"""Per-game leaderboards over the real services: ``GET /api/leaderboard?game=...`` lists the net
chips won at that game's tables (from the ledger, whose postings name their game) and, for
Euchre and Contract Whist, the games each player won (from the finished games' records)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster, platform_of_its_own
from tests.services.play import act, ended, open_table, play

STAKE = 40


@pytest.fixture(autouse=True)
async def whole_platform() -> AsyncIterator[None]:
    """This module runs its own platform, not the session's: a board ranks every player of
    its database, and the session's other tests fill that one with theirs."""
    yield


cluster = platform_of_its_own("boards", workers=1, bots=1)


@pytest.fixture
async def four(cluster: Cluster) -> AsyncIterator[list[Player]]:
    async with signed_up(cluster.base, "Alice", "Bob", "Carol", "Dave") as made:
        yield made


async def euchre_game(players: list[Player], table: str, seed: int) -> dict[str, Any]:
    """Start a game at ``table`` and play it to its end: the host's last view."""
    host = players[0]
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await host.until(table, lambda v: v["phase"] != "ended")
    await play(players, table, random.Random(seed), ended)
    return await host.until(table, ended)


def winners_of(view: dict[str, Any]) -> list[str]:
    return [s["player"]["id"] for s in view["seats"] if s["seat"] % 2 == view["winner"]]


async def board(player: Player, game: str | None = None, **expect: Any) -> dict[str, Any]:
    """The leaderboard (of ``game``), asked until ``expect`` holds: the table worker stores a
    game's record and the ledger applies postings a moment after the game ends."""
    params = {"days": "1", "limit": "100", **({} if game is None else {"game": game})}
    query = "&".join(f"{key}={value}" for key, value in params.items())
    for _ in range(100):
        reply = await player.http("GET", f"/api/leaderboard?{query}")
        assert reply.status_code == 200, reply.text
        body: dict[str, Any] = reply.json()
        if all(check(body) for check in expect.values()):
            return body
        await asyncio.sleep(0.2)
    raise AssertionError(f"the board never showed what was expected: {body}")


def rows(body: dict[str, Any], key: str, ids: set[str]) -> dict[str, int]:
    """``{player id: value}`` of ``body[key]`` for the players ``ids``."""
    value = "won" if key == "games_won" else "net"
    return {row["player_id"]: row[value] for row in body[key] if row["player_id"] in ids}


async def test_boards_per_game(cluster: Cluster, four: list[Player]) -> None:
    ids = {p.id for p in four}
    # Two points-only Euchre games to one point (too short to rank: they count on no board),
    # then one for a stake, which counts.
    table = await open_table(four, game="euchre", target=1, interlude_seconds=0)
    won: Counter[str] = Counter()
    for seed in (1, 2):
        await euchre_game(four, table, seed)
    staked = await open_table_after(four, table, game="euchre", target=1, stake=STAKE)
    view = await euchre_game(four, staked, 3)
    won.update(winners_of(view))
    net = {p.id: (STAKE if p.id in winners_of(view) else -STAKE) for p in four}

    euchre = await board(
        four[0],
        "euchre",
        won=lambda b: rows(b, "games_won", ids) == dict(won),
        net=lambda b: rows(b, "players", ids) == net,
    )
    assert euchre["game"] == "euchre" and euchre["days"] == 1
    names = {row["player_id"]: row["name"] for row in euchre["games_won"]}
    assert {names[pid] for pid in won} <= {"Alice", "Bob", "Carol", "Dave"}
    assert all(set(row) == {"player_id", "name", "bot", "won"} for row in euchre["games_won"])

    # A Swick hand: three of them play, and the Swick board shows what each won or lost.
    swick_players = four[:3]
    await leave(four, staked)
    swick = await open_table(swick_players, game="swick")
    host = swick_players[0]
    assert (await act(host, swick, {"kind": "start_game"}))["type"] == "ack"
    await play(
        swick_players,
        swick,
        random.Random(4),
        lambda v: v["hand_no"] >= 2 and v["phase"] in ("ante", "ready") and v["carry"] == 0,
    )
    assert (await act(host, swick, {"kind": "end_game"}))["type"] == "ack"
    view = await host.until(swick, ended)
    final = {s["player"]["id"]: s["stack"] for s in view["seats"] if s["player"]}
    grant = cluster.settings.starting_grant
    swick_ids = {p.id for p in swick_players}
    expected = {pid: final[pid] - (grant + net[pid]) for pid in swick_ids}
    swick_board = await board(
        host, "swick", net=lambda b: rows(b, "players", swick_ids) == expected
    )
    assert "games_won" not in swick_board and swick_board["game"] == "swick"
    swick_net = rows(swick_board, "players", swick_ids)
    # Euchre's board is unchanged by the Swick hand; Dave never sat at a Swick table.
    assert rows((await board(host, "euchre")), "players", ids) == net
    assert four[3].id not in swick_net

    # Contract Whist's board answers (nobody here played it); the default board is as before.
    whist = await board(host, "contract-whist")
    assert set(whist) == {"days", "game", "players", "games_won", "ratings", "bots"}
    assert not rows(whist, "players", ids) and not rows(whist, "games_won", ids)
    default = await board(host)
    assert set(default) == {"days", "players"}
    assert set(default["players"][0]) == {"player_id", "name", "bot", "net"}

    # A game that does not exist is a clear 422.
    reply = await host.http("GET", "/api/leaderboard?game=chess")
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert "chess" in detail and "euchre" in detail and "contract-whist" in detail


async def leave(players: list[Player], table: str) -> None:
    for player in players:
        answer = await act(player, table, {"kind": "leave"})
        assert answer["type"] in ("ack", "reject"), answer


async def open_table_after(players: list[Player], table: str, **settings: Any) -> str:
    """Everyone leaves ``table``, then a new one is opened with ``settings``."""
    await leave(players, table)
    for _ in range(50):
        reply = await players[0].http("GET", "/api/me")
        if reply.status_code != 200 or not reply.json().get("seated"):
            break
        await asyncio.sleep(0.1)
    return await open_table(players, **settings)
