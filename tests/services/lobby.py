"""Asking the lobby for a table over HTTP, as the browser's lobby page does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.services.client import Player


async def new_table(player: Player, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lobby's answer to ``player`` opening a table with the settings ``body``."""
    return await granted(player, "/api/tables", body)


async def quick_play(player: Player, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lobby's answer to ``player`` asking for quick play (of the game ``body`` names)."""
    return await granted(player, "/api/quickplay", body)


async def granted(player: Player, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
    """The lobby's answer to ``player``'s request at ``path``, which it must grant."""
    reply = await player.http("POST", path, json=body)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


async def settings_refused(player: Player, path: str, body: object, words: Sequence[str]) -> None:
    """The lobby refuses ``player``'s table (``path``: the tables' or quick play's) with the
    settings ``body``, in a message that has each of ``words``."""
    reply = await player.http("POST", path, json=body)
    assert reply.status_code == 422, (body, reply.text)
    detail = reply.json()["detail"]
    assert all(word in detail for word in words), (body, detail)
