"""Requests to the tables, put on the bus for the shard that owns each table.

What a table makes of one comes back through the hub, as its views and outcomes. (A person's
join or action goes by ``Hub.send`` instead, which sends it again until it is answered.)
"""

from __future__ import annotations

import secrets

from services.gateway.identity import Identity
from services.gateway.state import Gateway
from shared import messages as m


async def report_presence(gw: Gateway, player: Identity, table_id: str, *, connected: bool) -> None:
    """Tell the table that the player's connection opened or closed."""
    request = m.Presence(
        table_id=table_id,
        request_id=new_request_id(player, "presence"),
        player_id=player.id,
        connected=connected,
    )
    await send_to_table(gw, request)


def new_request_id(player: Identity, what: str) -> str:
    return f"{player.id}/{what}-{secrets.token_hex(4)}"


async def send_to_table(
    gw: Gateway, request: m.CreateTable | m.Act | m.Join | m.Presence | m.Sync
) -> None:
    await gw.bus.request(request.table_id, request.model_dump_json().encode())
