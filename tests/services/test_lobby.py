"""The lobby over HTTP: names, tokens, tables, invites, quick play."""

from __future__ import annotations

import asyncio

import httpx

from tests.services.client import registered, signed_up
from tests.services.cluster import Cluster
from tests.services.lobby import new_table, quick_play


async def test_names_are_checked(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        for name, ok in [
            ("Al", True),
            ("A", False),
            ("x" * 21, False),
            ("<script>", False),
            ("Sam the bot", False),
            ("  Zoë  O'Neil ", True),
        ]:
            reply = await http.post("/api/players", json={"name": name})
            assert (reply.status_code == 200) == ok, (name, reply.text)
            if not ok:
                assert reply.json()["detail"]
        assert (
            await http.get("/api/me", headers={"authorization": "Bearer nope"})
        ).status_code == 401


async def test_create_list_and_invite(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Lobby Host")
    body = {"seats": 5, "antes": [3, 9], "timer_seconds": 45, "bots": {"2": "easy", "4": "hard"}}
    created = await new_table(host, body)
    assert created["invite_code"]
    for _ in range(100):
        listed = {t["id"]: t for t in (await host.http("GET", "/api/tables")).json()}
        if created["id"] in listed and listed[created["id"]]["seats"][4]:
            break
        await asyncio.sleep(0.1)
    table = listed[created["id"]]
    assert table["antes"] == [3, 9] and table["timer_seconds"] == 45 and not table["in_progress"]
    assert [s and s["bot"] for s in table["seats"]] == [None, None, "easy", None, "hard"]
    by_code = (await host.http("GET", f"/api/invites/{created['invite_code']}")).json()
    assert by_code["id"] == created["id"]
    me = (await host.http("GET", "/api/me")).json()
    assert me["seated"] == created["id"]
    second = await host.http("POST", "/api/tables", json={})
    assert second.status_code == 409


async def test_bad_settings_are_refused(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Picky Host")
    for body in (
        {"seats": 7},
        {"timer_seconds": 5},
        {"antes": [4]},
        {"timer_seconds": None},
        {"bots": {"0": "easy"}},
        {"bots": {"1": "Not a name!"}},
    ):
        reply = await host.http("POST", "/api/tables", json=body)
        assert reply.status_code == 422, (body, reply.text)


async def test_quick_play_deals_at_once(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Quick") as (player,):
        table = (await quick_play(player))["id"]
        for _ in range(50):
            if (await player.request({"type": "watch", "table": table}))["type"] == "ack":
                break
        view = await player.wait(
            lambda: player.views.get(table, {}).get("game_no") == 1 and player.views[table]
        )
        assert view["seat"] == 0 and view["fingerprint"]
        assert [s["player"]["bot"] for s in view["seats"][1:]] == ["medium", "medium"]
