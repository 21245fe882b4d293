"""The operators' overview of the tables, shaped the same from either store's rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from shared.rows import Row


def overview_report(
    tables: Iterable[Row],
    leases: Iterable[Row],
    workers: Iterable[Row],
    seats: Callable[[Any], list[Any]],
    at: Callable[[Any], str],
) -> dict[str, Any]:
    """Live tables, shard ownership and workers from a store's rows; ``seats`` reads a
    table's stored seats and ``at`` writes a stored time in ISO 8601."""
    return {
        "tables": [
            {
                "table_id": r["table_id"],
                "phase": r["phase"],
                "seq": r["seq"],
                "shard": r["shard"],
                "private": bool(r["private"]),
                "players": [s["name"] for s in seats(r["seats"]) if s],
                "updated_at": at(r["updated_at"]),
            }
            for r in tables
        ],
        "shards": [
            {
                "shard": r["shard"],
                "owner": r["owner"],
                "epoch": r["epoch"],
                "live": bool(r["live"]),
            }
            for r in leases
        ],
        "workers": [{"worker_id": r["worker_id"], "seen_s_ago": float(r["age"])} for r in workers],
    }
