"""A database row, whichever database the store that read it keeps."""

from __future__ import annotations

from typing import Any, Protocol


class Row(Protocol):
    """A database row read by column name (asyncpg's ``Record``, sqlite's ``Row``)."""

    def __getitem__(self, key: str) -> Any: ...
