"""A database row, whichever database the store that read it keeps."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class Row(Protocol):
    """A database row read by column name (asyncpg's ``Record``, sqlite's ``Row``)."""

    def __getitem__(self, key: str) -> Any: ...


def board(rows: Iterable[Row], figure: str) -> list[dict[str, Any]]:
    """A board's rows (a player's id, name, whether a bot, and the ``figure`` they are ranked
    by) as the APIs show every board: the chips won, the games won."""
    return [
        {
            "player_id": r["player_id"],
            "name": r["name"],
            "bot": bool(r["bot"]),
            figure: int(r[figure]),
        }
        for r in rows
    ]
