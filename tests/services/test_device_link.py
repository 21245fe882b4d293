"""A device link over the real services: a second device that enters the code a signed-in
phone shows is the same account, with the chips the ledger holds for it and its seat."""

from __future__ import annotations

from typing import Any

import httpx

from tests.eventually import eventually
from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster
from tests.services.lobby import new_table

DESKTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


async def balance(player: Player) -> int | None:
    reply = await player.http("GET", "/api/me/balance")
    assert reply.status_code == 200, reply.text
    chips: int | None = reply.json()["balance"]
    return chips


async def test_a_linked_device_has_the_accounts_chips_and_seat(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Linda") as (phone,):
        table = (await new_table(phone, {"seats": 3}))["id"]  # its host sits in it
        chips = await eventually(lambda: balance(phone), "the phone's wallet opened")
        link = await phone.http("POST", "/api/account/link")
        assert link.status_code == 200, link.text
        async with httpx.AsyncClient(base_url=cluster.base, headers={"User-Agent": DESKTOP}) as h:
            reply = await h.post("/api/sign-in/link", json={"code": link.json()["code"]})
        assert reply.status_code == 200, reply.text
        joined: dict[str, Any] = reply.json()
        assert joined["id"] == phone.id and joined["seated"] == table

        desktop = Player(cluster.base, "Linda")
        desktop.token, desktop.id = joined["token"], joined["id"]
        assert await balance(desktop) == chips  # the ledger's wallet of the one account
        welcome = await desktop.connect()
        try:
            assert welcome["seated"] == table
            view = await desktop.wait(lambda: desktop.views.get(table))
            assert view["seat"] == 0  # the host's seat: the desktop plays it, not watches
        finally:
            await desktop.close()
