"""The HTTP APIs take input as strictly as the socket does, and ids in URLs are checked before
use: against the real services (``cluster``). A wrong type is a 422, never coerced; a field an
action or a body does not have is malformed; a token whose id is a path changes no path."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from services.gateway.identity import Identity, Tokens
from shared.games.contract_whist.codec import CODEC as WHIST_CODEC
from shared.games.euchre.codec import CODEC as EUCHRE_CODEC
from shared.games.interface import IllegalCommand
from shared.games.swick.codec import CODEC as SWICK_CODEC
from tests.services.client import registered
from tests.services.cluster import Cluster

pytestmark = pytest.mark.usefixtures("whole_platform")


def refused_clearly(reply: httpx.Response, field: str) -> None:
    """A 422 whose message names the field, without a traceback."""
    assert reply.status_code == 422, reply.text
    assert field in reply.text and "Traceback" not in reply.text


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/players", {"name": 3}, "name"),
        ("/api/players", {"name": "Quinn", "admin": True}, "admin"),
        ("/api/tables", {"game": "euchre", "target": "3"}, "target"),
        ("/api/tables", {"seats": True}, "seats"),
        ("/api/tables", {"seats": 3.0}, "seats"),
        ("/api/tables", {"private": "yes"}, "private"),
        ("/api/tables", {"private": 1}, "private"),
        ("/api/tables", {"bots": {"1": 2}}, "bots"),
        ("/api/tables", {"bots": {"one": "easy"}}, "bots"),
        ("/api/tables", {"antes": ["3"]}, "antes"),
        ("/api/tables", {"seat": 3}, "seat"),
        ("/api/quickplay", {"game": 1}, "game"),
        ("/api/quickplay", {"game": "euchre", "bots": 2}, "bots"),
    ],
)
async def test_http_bodies_are_not_coerced(
    cluster: Cluster, path: str, body: dict[str, Any], field: str
) -> None:
    host = await registered(cluster.base, "Strict Host")
    reply = await host.http("POST", path, json=body)
    refused_clearly(reply, field)
    assert (await host.http("GET", "/api/me")).json()["seated"] is None  # nothing opened


async def test_a_strict_table_still_opens_with_bots_by_seat(cluster: Cluster) -> None:
    """JSON keys are text: ``{"1": "easy"}`` is seat 1, as the web client sends it."""
    host = await registered(cluster.base, "Keyed Host")
    reply = await host.http("POST", "/api/tables", json={"seats": 3, "bots": {"1": "easy"}})
    assert reply.status_code == 200, reply.text
    assert reply.json()["seats"][1]["bot"] == "easy"


@pytest.mark.parametrize(
    ("codec", "data", "field"),
    [
        (EUCHRE_CODEC, {"kind": "order_up"}, "alone"),  # was taken as alone=False
        (EUCHRE_CODEC, {"kind": "name_trump", "suit": "S"}, "alone"),
        (EUCHRE_CODEC, {"kind": "order_up", "alone": True, "alon": False}, "alon"),
        (EUCHRE_CODEC, {"kind": "pass", "alone": True}, "alone"),
        (SWICK_CODEC, {"kind": "ready", "entropy": "", "seed": "x"}, "seed"),
        (SWICK_CODEC, {"kind": "knock", "knock": True, "seat": 2}, "seat"),
        (SWICK_CODEC, {"kind": "play", "card": "AS", "cards": ["KS"]}, "cards"),
        (WHIST_CODEC, {"kind": "bid", "bid": 2, "double": True}, "double"),
        (WHIST_CODEC, {"kind": "sit_out"}, "sitting_out"),
    ],
)
def test_actions_name_exactly_their_fields(codec: Any, data: dict[str, Any], field: str) -> None:
    with pytest.raises(IllegalCommand) as refused:
        codec.load_action(data)
    assert refused.value.code == "malformed" and field in refused.value.message


def test_an_optional_field_may_be_left_out() -> None:
    """Swick's ``entropy`` is a player's optional addition to the shuffle (protocol.md)."""
    assert SWICK_CODEC.load_action({"kind": "ready"}) == SWICK_CODEC.load_action(
        {"kind": "ready", "entropy": ""}
    )
    ante = SWICK_CODEC.load_action({"kind": "ante", "amount": 5})
    assert ante == SWICK_CODEC.load_action({"kind": "ante", "amount": 5, "entropy": ""})


async def test_an_incomplete_action_over_the_socket_is_malformed(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Lone Caller")
    table = (await host.http("POST", "/api/quickplay", json={"game": "euchre"})).json()["id"]
    await host.connect()
    try:
        await host.watch(table)
        answer = await host.act(table, {"kind": "order_up"})
        assert answer["type"] == "reject" and answer["code"] == "malformed", answer
        assert "alone" in answer["message"]
    finally:
        await host.close()


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/tables/t-a%00", 422),  # was a 500: the NUL reached PostgreSQL
        ("/api/tables/t-a%00/games/1/record", 422),
        ("/api/tables/x%3Bdrop", 422),
        ("/api/tables/t-1/games/1.5/record", 422),
        ("/api/tables/t-1/games/true/replay", 422),
        ("/api/invites/%00", 422),
        ("/api/tables/t-1%2F..%2Fx", 404),  # a path of its own: no route takes it
    ],
)
async def test_ids_in_gateway_urls_are_checked(cluster: Cluster, path: str, status: int) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        reply = await http.get(path)
    assert reply.status_code == status, reply.text
    assert "Traceback" not in reply.text


@pytest.mark.parametrize("forged_id", ["../leaderboard?x=", "p-1/../../leaderboard", "p-1%2F"])
async def test_a_token_whose_id_is_a_path_opens_nothing(cluster: Cluster, forged_id: str) -> None:
    """Even signed with the platform's key, an id of the wrong shape is no identity: the
    gateway never asks the ledger a path made of it (it was the whole leaderboard, or a 500)."""
    tokens = Tokens(cluster.settings.secret)
    token = tokens.sign(Identity(forged_id, "Mallory"))
    async with httpx.AsyncClient(
        base_url=cluster.base, headers={"Authorization": f"Bearer {token}"}
    ) as http:
        for path in ("/api/me/balance", "/api/me/transfers", "/api/me"):
            reply = await http.get(path)
            assert reply.status_code == 401, (path, reply.text)
            assert "players" not in reply.text


def ledger(cluster: Cluster) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=cluster.settings.ledger_url, headers=cluster.settings.ledger_auth(write=True)
    )


@pytest.mark.parametrize(
    "after",
    [
        {},
        {"table_id": "t-1"},
        {"posting_no": 3},
        {"table_id": 1, "posting_no": 3},
        {"table_id": "t-1", "posting_no": "3"},
        {"table_id": "t-1", "posting_no": True},
        {"table_id": "t-1", "posting_no": 3, "extra": 1},
        {"table_id": "../x", "posting_no": 3},
        [1, 2],
        "t-1",
    ],
)
async def test_a_malformed_after_is_a_422_not_a_500(cluster: Cluster, after: object) -> None:
    async with ledger(cluster) as http:
        reply = await http.post(
            "/wallets/p-strict-after/seat", json={"name": "Strict", "after": after}
        )
        assert reply.status_code == 422, reply.text
        assert "Traceback" not in reply.text
        read = cluster.settings.ledger_auth()
        balance = await http.get("/players/p-strict-after/balance", headers=read)
        assert balance.status_code == 404  # no wallet was opened


@pytest.mark.parametrize(
    "path",
    [
        "/players/..%3Fx%3D/balance",
        "/players/p-1%3Fx%3D/transfers",
        "/players/p%201/balance",
        "/tables/t-1%00/reconciliation",
        "/players/p-1/transfers?before=%00",
    ],
)
async def test_ids_in_ledger_urls_are_checked(cluster: Cluster, path: str) -> None:
    async with ledger(cluster) as http:
        reply = await http.get(path, headers=cluster.settings.ledger_auth())
    assert reply.status_code == 422, reply.text
