"""When a worker must wake a table: at its pending decision's deadline, or to close it once no
person has been present at it for the abandon time.

The game keeps since when its table is unattended (as of the worker's clock in the commands);
the abandon time is the worker's setting, so a worker taking a table over re-arms both.
"""

from __future__ import annotations

from typing import Any

from shared.games.registry import AnyGame


def close_at(game: AnyGame, state: Any, abandon_ms: int) -> int | None:
    """When the table may be closed as abandoned (ms), or ``None`` while someone is present."""
    since = game.unattended_since(state)
    return None if since is None else since + abandon_ms


def wake_at(game: AnyGame, state: Any, abandon_ms: int) -> int | None:
    """The earliest time the table has something to do on its own (ms), or ``None``."""
    times = [t for t in (game.deadline(state), close_at(game, state, abandon_ms)) if t is not None]
    return min(times, default=None)
