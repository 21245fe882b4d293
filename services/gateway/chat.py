"""A table's recent chat, kept so that a page reloaded (or served by another gateway) shows it.

The gateways keep the last ``KEPT`` lines of each table in the database they share (the
gateway's own schema, ``gateway``, in PostgreSQL, or ``gateway_`` tables in the embedded SQLite
file), write a line there before publishing it, and send a watcher the kept lines with the
table's history (``services.gateway.history``). A line that cannot be kept is still said: the
table hears it, a reload does not.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict, deque
from typing import Any, Protocol

from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared import messages as m
from shared.sqlite import run

KEPT = 50  # lines kept per table
# The characters that reorder text around them (embeddings, overrides, isolates, marks): in a
# chat line they would make it read backwards or spill into the names beside it.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def clean_text(text: str) -> str:
    """``text`` as a chat line says it: without control or bidi characters, its whitespace
    collapsed to single spaces ("" when nothing is left)."""
    kept = "".join(
        char
        for char in text
        if char not in BIDI_CONTROLS and (char.isspace() or unicodedata.category(char) != "Cc")
    )
    return " ".join(kept.split())


class ChatLog(Protocol):
    """Where the gateways keep each table's recent chat."""

    async def migrate(self) -> None:
        """Create or update the schema; safe to call again, and from several processes."""
        ...

    async def add(self, line: m.ChatLine) -> None:
        """Keep ``line``; a table keeps its last ``KEPT`` lines."""
        ...

    async def recent(self, table_id: str) -> list[m.ChatLine]:
        """The table's kept lines, oldest first."""
        ...

    async def forget(self, player_id: str) -> int:
        """Drop every kept line of the player (a deleted account: what they wrote is theirs,
        and a name beside it would name them): how many."""
        ...


class PostgresChat(InPostgres, ChatLog):
    async def add(self, line: m.ChatLine) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO gateway.chat (table_id, line_id, player_id, name, text, at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                *_columns(line),
            )
            await conn.execute(
                "DELETE FROM gateway.chat WHERE table_id = $1 AND n <= ("
                " SELECT n FROM gateway.chat WHERE table_id = $1"
                " ORDER BY n DESC OFFSET $2 LIMIT 1)",
                line.table_id,
                KEPT,
            )

    async def recent(self, table_id: str) -> list[m.ChatLine]:
        rows = await self.pool.fetch(
            "SELECT line_id, player_id, name, text, at FROM gateway.chat WHERE table_id = $1"
            " ORDER BY n DESC LIMIT $2",
            table_id,
            KEPT,
        )
        return [_line(table_id, row) for row in reversed(rows)]

    async def forget(self, player_id: str) -> int:
        done: str = await self.pool.execute(
            "DELETE FROM gateway.chat WHERE player_id = $1", player_id
        )
        return int(done.rsplit(maxsplit=1)[-1])


class SqliteChat(InSqlite, ChatLog):
    async def add(self, line: m.ChatLine) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO gateway_chat (table_id, line_id, player_id, name, text, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                *_columns(line),
            )
            await run(
                conn,
                "DELETE FROM gateway_chat WHERE table_id = ? AND n <= ("
                " SELECT n FROM gateway_chat WHERE table_id = ?"
                " ORDER BY n DESC LIMIT 1 OFFSET ?)",
                line.table_id,
                line.table_id,
                KEPT,
            )

    async def recent(self, table_id: str) -> list[m.ChatLine]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT line_id, player_id, name, text, at FROM gateway_chat WHERE table_id = ?"
                " ORDER BY n DESC LIMIT ?",
                (table_id, KEPT),
            )
        return [_line(table_id, row) for row in reversed(list(rows))]

    async def forget(self, player_id: str) -> int:
        async with self.db.write() as conn:
            return await run(conn, "DELETE FROM gateway_chat WHERE player_id = ?", player_id)


class MemoryChat(InMemory, ChatLog):
    """One process's chat (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.lines: defaultdict[str, deque[m.ChatLine]] = defaultdict(lambda: deque(maxlen=KEPT))

    async def add(self, line: m.ChatLine) -> None:
        self.lines[line.table_id].append(line)

    async def recent(self, table_id: str) -> list[m.ChatLine]:
        return list(self.lines.get(table_id, ()))

    async def forget(self, player_id: str) -> int:
        dropped = 0
        for table_id, lines in self.lines.items():
            kept = [line for line in lines if line.player_id != player_id]
            dropped += len(lines) - len(kept)
            self.lines[table_id] = deque(kept, maxlen=KEPT)
        return dropped


def _columns(line: m.ChatLine) -> tuple[str, str, str, str, str, int]:
    """A line's columns, in the order the stores insert them."""
    return line.table_id, line.id, line.player_id, line.name, line.text, line.at


def _line(table_id: str, row: Any) -> m.ChatLine:
    return m.ChatLine(
        table_id=table_id,
        id=row["line_id"],
        player_id=row["player_id"],
        name=row["name"],
        text=row["text"],
        at=row["at"],
    )


def chat_for(store: object) -> ChatLog:
    """The chat log in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresChat, SqliteChat, MemoryChat)
