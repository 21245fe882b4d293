"""The lobby over HTTP: names, tokens, tables, invites, quick play."""

from __future__ import annotations

import asyncio

import httpx

from tests.eventually import eventually
from tests.services.client import registered, signed_up
from tests.services.cluster import Cluster
from tests.services.lobby import new_table, quick_play
from tests.services.play import finished_with_bots, watch_when_created


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


async def test_a_finished_game_is_no_dead_end(cluster: Cluster) -> None:
    """Once a game is over its table leaves the lobby, and its player may quick play or join
    another table: going elsewhere leaves the finished seat, as Back to the lobby would. A seat
    at a table still in play is kept, and opening another is refused."""
    async with signed_up(cluster.base, "Rematcher", "Opener") as (person, opener):
        done = (await finished_with_bots(person, game="contract-whist", rounds=1))["id"]
        me = (await person.http("GET", "/api/me")).json()
        assert me["seated"] == done and me["seated_game_over"], me
        listed = {t["id"] for t in (await person.http("GET", "/api/tables")).json()}
        assert done not in listed

        # Another's table, with a free seat: joining it leaves the finished one.
        other = (await new_table(opener, {"seats": 3}))["id"]
        await watch_when_created(person, other)
        assert (await person.request({"type": "join", "table": other}))["type"] == "ack"
        view = await person.until(done, lambda v: v["seat"] is None)
        assert all(s["player"] is None or s["player"]["bot"] for s in view["seats"]), view
        me = (await person.http("GET", "/api/me")).json()
        assert me["seated"] == other and not me["seated_game_over"], me

        # At a table in play, the seat holds: no second table.
        refused = await person.http("POST", "/api/quickplay", json={"game": "euchre"})
        assert refused.status_code == 409 and "leave it first" in refused.json()["detail"]

        # Quick play from a finished table opens the new one at once.
        await watch_when_created(opener, other)
        assert (await opener.act(other, {"kind": "leave"}))["type"] == "ack"
        again = (await finished_with_bots(opener, game="euchre", target=1))["id"]
        fresh = (await quick_play(opener, {"game": "euchre"}))["id"]
        assert fresh != again
        me = (await opener.http("GET", "/api/me")).json()
        assert me["seated"] == fresh and not me["seated_game_over"], me


async def test_a_solo_game_against_bots_is_not_offered_to_others(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Soloist", "Browser") as (solo, browser):
        alone = (await quick_play(solo))["id"]
        with_room = (await new_table(browser, {"seats": 3, "bots": {"1": "easy"}}))["id"]

        async def offered() -> bool:
            listed = {t["id"] for t in (await browser.http("GET", "/api/tables")).json()}
            return with_room in listed and alone not in listed

        await eventually(offered, "the table with room is listed, the solo game is not", 30)
