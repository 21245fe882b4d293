"""Device links: a signed-in device shows a short one-time code, and a new device that enters
it within ``settings.link_code_minutes`` joins the same account (docs/accounts.md).

A code is eight characters (``code_format``: 40 bits), good once, and a device has one at a
time: asking again replaces its earlier code. Taking a code is one statement (PostgreSQL) or
one write transaction (SQLite), so of two devices entering it at once exactly one gets in.
The database keeps only a keyed hash of each code: 40 bits could be tried through in hours by
whoever copied the database, but not without the key, which lives in the gateway's secret and
never in the database. (Rotating the secret ends the codes still out: they last minutes.)
Guessing codes online is throttled per client address (``routes_codes``).
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import asyncpg

from services.gateway.code_format import canonical, new_code, shown
from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.sqlite import first, run

LENGTH = 8  # characters: 40 bits, shown as K7QF-9M2X
DRAWS = 5  # codes drawn until one is not already out (each is, 1 in 2^40 per code out)


@dataclass(frozen=True, slots=True)
class Linked:
    """Whose a code was: the account it joins, and the device that showed it."""

    account_id: str
    device_id: str


class LinkCodeStore(Protocol):
    """Where the codes' hashes wait for the device that enters them."""

    async def migrate(self) -> None: ...

    async def put(
        self, code_hash: str, account_id: str, device_id: str, now_ms: int, expires_ms: int
    ) -> bool:
        """Keep ``device_id``'s new code in place of any earlier one (and forget the codes
        expired by ``now_ms``); ``False``, keeping nothing, if that hash is another device's."""
        ...

    async def take(self, code_hash: str, now_ms: int) -> Linked | None:
        """The account and device of the code, now used, if it was unused and unexpired at
        ``now_ms``; ``None`` otherwise. One step: of any number of takers at once, one gets it."""
        ...


def _replacing(table: str, marks: str) -> str:
    """The statement that keeps a device's new code in ``table`` in place of its earlier one
    (``marks``: the database's five placeholders), in either database's SQL."""
    return (
        f"INSERT INTO {table} (code_hash, account_id, device_id, created_at, expires_at)"
        f" VALUES ({marks}) ON CONFLICT (device_id) DO UPDATE"
        " SET code_hash = excluded.code_hash, account_id = excluded.account_id,"
        " created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = NULL"
    )


class PostgresLinkCodes(InPostgres, LinkCodeStore):
    async def put(
        self, code_hash: str, account_id: str, device_id: str, now_ms: int, expires_ms: int
    ) -> bool:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute("DELETE FROM gateway.link_codes WHERE expires_at <= $1", now_ms)
                await conn.execute(
                    _replacing("gateway.link_codes", "$1, $2, $3, $4, $5"),
                    code_hash,
                    account_id,
                    device_id,
                    now_ms,
                    expires_ms,
                )
        except asyncpg.UniqueViolationError:  # the code's hash: another device's code
            return False
        return True

    async def take(self, code_hash: str, now_ms: int) -> Linked | None:
        # Under READ COMMITTED a second taker waits for the first's row lock, then finds
        # used_at set and updates nothing.
        row = await self.pool.fetchrow(
            "UPDATE gateway.link_codes SET used_at = $2 WHERE code_hash = $1"
            " AND used_at IS NULL AND expires_at > $2 RETURNING account_id, device_id",
            code_hash,
            now_ms,
        )
        return None if row is None else Linked(row["account_id"], row["device_id"])


class SqliteLinkCodes(InSqlite, LinkCodeStore):
    async def put(
        self, code_hash: str, account_id: str, device_id: str, now_ms: int, expires_ms: int
    ) -> bool:
        try:
            async with self.db.write() as conn:
                await run(conn, "DELETE FROM gateway_link_codes WHERE expires_at <= ?", now_ms)
                await run(
                    conn,
                    _replacing("gateway_link_codes", "?, ?, ?, ?, ?"),
                    code_hash,
                    account_id,
                    device_id,
                    now_ms,
                    expires_ms,
                )
        except sqlite3.IntegrityError:  # the code's hash: another device's code
            return False
        return True

    async def take(self, code_hash: str, now_ms: int) -> Linked | None:
        async with self.db.write() as conn:  # the write lock: one taker at a time
            row = await first(
                conn,
                "UPDATE gateway_link_codes SET used_at = ? WHERE code_hash = ?"
                " AND used_at IS NULL AND expires_at > ? RETURNING account_id, device_id",
                now_ms,
                code_hash,
                now_ms,
            )
        return None if row is None else Linked(row["account_id"], row["device_id"])


@dataclass
class _Kept:
    account_id: str
    device_id: str
    expires_ms: int
    used: bool = False


class MemoryLinkCodes(InMemory, LinkCodeStore):
    """One process's codes (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.codes: dict[str, _Kept] = {}

    async def put(
        self, code_hash: str, account_id: str, device_id: str, now_ms: int, expires_ms: int
    ) -> bool:
        held = self.codes.get(code_hash)
        if held is not None and held.device_id != device_id and held.expires_ms > now_ms:
            return False
        self.codes = {
            h: kept
            for h, kept in self.codes.items()
            if kept.expires_ms > now_ms and kept.device_id != device_id
        }
        self.codes[code_hash] = _Kept(account_id, device_id, expires_ms)
        return True

    async def take(self, code_hash: str, now_ms: int) -> Linked | None:
        kept = self.codes.get(code_hash)
        if kept is None or kept.used or kept.expires_ms <= now_ms:
            return None
        kept.used = True
        return Linked(kept.account_id, kept.device_id)


def link_code_store_for(store: object) -> LinkCodeStore:
    """The codes in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresLinkCodes, SqliteLinkCodes, MemoryLinkCodes)


@dataclass(frozen=True, slots=True)
class LinkCode:
    code: str  # as shown: K7QF-9M2X
    expires_at: int  # ms since the epoch


class LinkCodes:
    """Issues and takes device links' codes: each good for ``lifetime`` seconds on ``clock``."""

    def __init__(
        self,
        store: LinkCodeStore,
        secret: str,
        lifetime: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if lifetime <= 0:
            raise ValueError("a link code lasts a positive time (SWICK_LINK_CODE_MINUTES)")
        self.store = store
        self._key = hashlib.sha256(b"swick-link-code:" + secret.encode()).digest()
        self.lifetime = lifetime
        self.clock = clock

    def hash(self, code: str) -> str:
        """What the database keeps of a canonical code."""
        return hmac.digest(self._key, code.encode(), "sha256").hex()

    async def issue(self, account_id: str, device_id: str) -> LinkCode:
        """A fresh code for ``device_id`` of ``account_id``, in place of its earlier one."""
        now_ms = int(self.clock() * 1000)
        expires_ms = now_ms + int(self.lifetime * 1000)
        for _ in range(DRAWS):
            code = new_code(LENGTH)
            if await self.store.put(self.hash(code), account_id, device_id, now_ms, expires_ms):
                return LinkCode(shown(code), expires_ms)
        raise RuntimeError("no free link code after several draws")  # not with < 2^30 out

    async def redeem(self, typed: str) -> Linked | None:
        """The account and device whose code ``typed`` is, if still good: it is good no more.
        ``None`` for anything else (not a code, unknown, expired or used)."""
        code = canonical(typed, LENGTH)
        if code is None:
            return None
        return await self.store.take(self.hash(code), int(self.clock() * 1000))
