"""Asking the lobby for a table over HTTP, as the browser's lobby page does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.services.client import Player


async def new_table(player: Player, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lobby's answer to ``player`` opening a table with the settings ``body``."""
    reply = await player.http("POST", "/api/tables", json=body)
    assert reply.status_code == 200, reply.text
    created: dict[str, Any] = reply.json()
    return created


async def quick_play(player: Player, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lobby's answer to ``player`` asking for quick play (of the game ``body`` names)."""
    reply = await player.http("POST", "/api/quickplay", json=body)
    assert reply.status_code == 200, reply.text
    seated: dict[str, Any] = reply.json()
    return seated


async def settings_refused(player: Player, path: str, body: object, words: Sequence[str]) -> None:
    """The lobby refuses ``player``'s table (``path``: the tables' or quick play's) with the
    settings ``body``, in a message that has each of ``words``."""
    reply = await player.http("POST", path, json=body)
    assert reply.status_code == 422, (body, reply.text)
    detail = reply.json()["detail"]
    assert all(word in detail for word in words), (body, detail)
