"""A player's history of finished games over the real gateway, table workers and bots."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.play import act, ended, finished_with_bots, play


async def history(player: Player, query: str = "") -> dict[str, Any]:
    reply = await player.http("GET", f"/api/games/mine{query}")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


async def test_a_finished_euchre_game_is_in_the_players_history_with_everyones_result(
    cluster: Cluster,
) -> None:
    async with signed_up(cluster.base, "Hana") as (person,):
        table = (await finished_with_bots(person, seed=3, game="euchre", target=2))["id"]
        view = await person.until(table, ended)
        # The record is stored once the game has ended (by its worker, or built on asking):
        # the results are stored with it.
        reply = await person.http("GET", f"/api/tables/{table}/games/1/record")
        assert reply.status_code == 200, reply.text
        mine = await history(person)
        assert mine["next"] is None and len(mine["games"]) == 1, mine
        game = mine["games"][0]
        assert (game["table_id"], game["game_no"], game["game"]) == (table, 1, "euchre")
        assert game["places"] == 2 and game["ended_at"].endswith("Z")
        seats = game["seats"]
        assert [s["seat"] for s in seats] == [0, 1, 2, 3]
        assert [s["me"] for s in seats] == [True, False, False, False]
        assert [s["bot"] for s in seats] == [None, "medium", "hard", "easy"]
        assert game["me"] == seats[0] and seats[0]["name"] == "Hana"
        winner = view["winner"]
        for s in seats:
            team = s["seat"] % 2
            assert s["points"] == view["scores"][team] and s["chips"] == 0, s
            assert s["place"] == (1 if team == winner else 2) and not s["left"], s
        # What each seat did: every hand counted once, by whoever made trump in it.
        hands = view["hand_no"]
        assert all(s["stats"]["hands"] == hands for s in seats), seats
        assert sum(s["stats"]["made"] + s["stats"]["euchred"] for s in seats) == hands
        stats = (await person.http("GET", "/api/games/mine/stats?game=euchre")).json()
        assert (stats["games"], stats["first"], stats["left"]) == (
            1,
            int(game["me"]["place"] == 1),
            0,
        )
        assert stats["counts"] == seats[0]["stats"] and stats["net_per_hand"] is None
        # Nobody is named by account id.
        assert person.id not in reply.text + str(mine)
        # The same game, asked of one game only; none of another.
        assert (await history(person, "?game=euchre"))["games"] == mine["games"]
        assert (await history(person, "?game=swick"))["games"] == []

        # It was rated: a first game, provisional; up for a win, down for a loss.
        (rating,) = (await person.http("GET", "/api/ratings/mine")).json()
        assert rating["game"] == "euchre" and rating["games"] == 1 and rating["provisional"]
        assert (rating["rating"] > 1500) == (game["me"]["place"] == 1), rating
        # The board lists people on one ladder and the bots on their own.
        board = (await person.http("GET", "/api/leaderboard?game=euchre&limit=100")).json()
        assert "Hana" in [r["name"] for r in board["ratings"]]
        assert not {"medium", "hard", "easy"} & {r["name"] for r in board["ratings"]}
        assert {"medium", "hard", "easy"} <= {r["name"] for r in board["bots"]}
        assert all(not p["bot"] for p in board["games_won"])


async def test_a_new_players_history_is_empty_and_bad_asks_are_refused(cluster: Cluster) -> None:
    person = await registered(cluster.base, "Iker")
    assert await history(person) == {"games": [], "next": None}
    for query in ("?game=chess", "?limit=0", "?limit=51", "?before=yesterday", "/stats"):
        reply = await person.http("GET", f"/api/games/mine{query}")
        assert reply.status_code == 422, (query, reply.text)
    stats = (await person.http("GET", "/api/games/mine/stats?game=swick")).json()
    assert (stats["games"], stats["counts"], stats["net_per_hand"]) == (0, {}, None)
    async with httpx.AsyncClient(base_url=cluster.base) as anonymous:
        assert (await anonymous.get("/api/games/mine")).status_code == 401


async def test_a_rematch_at_the_same_table_is_the_next_game_in_the_history(
    cluster: Cluster,
) -> None:
    async with signed_up(cluster.base, "Juno") as (person,):
        table = (await finished_with_bots(person, seed=8, game="euchre", target=1))["id"]
        first = (await person.until(table, ended))["seed"]
        # Play again: the host deals a new game at the table.
        assert (await act(person, table, {"kind": "start_game"}))["type"] == "ack"
        await play(
            [person],
            table,
            random.Random(9),
            lambda view: ended(view) and view["seed"] != first,
            within=60,
        )
        for game_no in (1, 2):
            reply = await person.http("GET", f"/api/tables/{table}/games/{game_no}/record")
            assert reply.status_code == 200, reply.text
        games = (await history(person))["games"]
        assert [(g["table_id"], g["game_no"]) for g in games] == [(table, 2), (table, 1)]
        assert games[0]["ended_at"] >= games[1]["ended_at"]
        (rating,) = (await person.http("GET", "/api/ratings/mine")).json()
        assert rating["games"] == 2
