"""The finished games' rows, read the same from either store."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from services.table.storage import GameRecordRow, Winner
from shared.rows import Row


def record_of(
    table_id: str, game_no: int, row: Row, decoded: Callable[[Any], Any]
) -> GameRecordRow:
    """A stored game record; ``decoded`` reads its JSON columns (players, winners) as the
    store keeps them. The opponents are text in both: compared whole, as the boards' key."""
    winners = tuple(Winner(str(w[0]), str(w[1]), bool(w[2])) for w in decoded(row["winners"]))
    return GameRecordRow(
        table_id,
        game_no,
        row["record"],
        tuple(decoded(row["players"])),
        winners,
        tuple(json.loads(row["opponents"])),
        bool(row["ranked"]),
    )
