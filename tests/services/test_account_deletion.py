"""An operator deletes an account (``DELETE /admin/accounts/{id}``) on the real platform:
refused while the player is seated; then their chips go to the house (the ledger's books still
balance), their sockets close (4401) and their token opens nothing, their finished game's
record still verifies but names them no more, nor does its replay; asking again changes
nothing and says so."""

from __future__ import annotations

from typing import Any

import httpx

from shared.games.registry import game
from shared.messages import DELETED_PLAYER
from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster
from tests.services.play import act, finished_with_bots

NAME = "Zebediah"


async def admin(cluster: Cluster, method: str, path: str) -> httpx.Response:
    headers = {"authorization": f"Bearer {cluster.settings.admin_token}"}
    async with httpx.AsyncClient(base_url=cluster.base, headers=headers, timeout=30) as http:
        return await http.request(method, path)


async def ledger(cluster: Cluster, path: str) -> Any:
    async with httpx.AsyncClient(
        base_url=cluster.settings.ledger_url, headers=cluster.settings.ledger_auth()
    ) as http:
        reply = await http.get(path)
    return reply.json()


async def record_and_replay(player: Player, table: str) -> tuple[dict[str, Any], str]:
    record = await player.http("GET", f"/api/tables/{table}/games/1/record")
    replay = await player.http("GET", f"/api/tables/{table}/games/1/replay")
    assert record.status_code == replay.status_code == 200
    return record.json(), replay.text


async def test_a_deleted_account_leaves_its_chips_and_no_name(cluster: Cluster) -> None:
    async with signed_up(cluster.base, NAME, "Watcher") as (person, watcher):
        table = (await finished_with_bots(person, game="euchre", target=1))["id"]
        said = await person.request({"type": "chat", "table": table, "text": "good game"})
        assert said["type"] == "ack"
        record, replay = await record_and_replay(watcher, table)
        assert NAME in [p and p["name"] for p in record["players"]]
        assert NAME in replay
        assert game("euchre").verify_record(record).ok

        # Seated: refused, and nothing changed.
        refused = await admin(cluster, "DELETE", f"/admin/accounts/{person.id}")
        assert refused.status_code == 409, refused.text
        assert "seated" in refused.json()["detail"]
        assert (await person.http("GET", "/api/me")).status_code == 200
        balance = (await ledger(cluster, f"/players/{person.id}/balance"))["balance"]

        codes = await person.http("POST", "/api/account/recovery-codes")
        assert codes.status_code == 200, codes.text
        code = codes.json()["codes"][0]

        assert (await act(person, table, {"kind": "leave"}))["type"] == "ack"
        await person.wait(lambda: person.views[table]["seat"] is None)
        deleted = await admin(cluster, "DELETE", f"/admin/accounts/{person.id}")
        assert deleted.status_code == 200, deleted.text
        answer = deleted.json()
        assert answer["already_deleted"] is False
        assert answer["returned_to_house"] == balance
        assert answer["tables_anonymised"] >= 1 and answer["chat_lines_dropped"] == 1

        # Its sessions are dead: the socket closed 4401, the token refused.
        await person.wait(lambda: person.ws is not None and person.ws.close_code is not None)
        assert person.ws is not None and person.ws.close_code == 4401
        assert (await person.http("GET", "/api/me")).status_code == 401
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            again_in = await http.post("/api/sign-in/recovery", json={"code": code})
        assert again_in.status_code == 401  # no way back in

        # Its chips are the house's, in books that balance; its wallet stays at 0.
        assert (await ledger(cluster, f"/players/{person.id}/balance"))["balance"] == 0
        health = await ledger(cluster, "/health")
        assert health["ok"] and health["issued_outside_grants"] == 0, health

        # The record still verifies, the same but for the name; the replay names them no more.
        after, replay_after = await record_and_replay(watcher, table)
        assert game("euchre").verify_record(after).ok
        names = [p and p["name"] for p in after["players"]]
        assert NAME not in names and DELETED_PLAYER in names
        assert {k: v for k, v in after.items() if k != "players"} == {
            k: v for k, v in record.items() if k != "players"
        }
        assert NAME not in replay_after and DELETED_PLAYER in replay_after

        # Asked again: nothing changes, and the answer says so.
        again = await admin(cluster, "DELETE", f"/admin/accounts/{person.id}")
        assert again.status_code == 200, again.text
        assert again.json()["already_deleted"] is True
        assert again.json()["returned_to_house"] == balance
        assert (await ledger(cluster, "/health"))["debits"] == health["debits"]


async def test_an_unknown_account_is_not_found(cluster: Cluster) -> None:
    missing = await admin(cluster, "DELETE", "/admin/accounts/p-0000000000000000")
    assert missing.status_code == 404
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        anonymous = await http.delete("/admin/accounts/p-0000000000000000")
    assert anonymous.status_code == 401
