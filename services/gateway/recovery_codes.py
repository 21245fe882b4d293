"""Recovery codes: ten one-time codes a player keeps somewhere safe, each of which signs them
back in to their account once, from any device, when nothing else can (docs/accounts.md).

Each code is sixteen characters (``code_format``: 80 bits, shown ``XXXX-XXXX-XXXX-XXXX``) and
is shown once, when the set is made; making a set replaces the whole earlier one. Redeeming
needs only the code: it names its account. The database keeps each code's SHA-256 and no
more: a code of 80 random bits cannot be found from its hash by trying (2^80 hashes), so
neither a slow hash nor a key is needed, and the codes outlive a rotation of the gateway's
secret. Taking a code is one statement (PostgreSQL) or one write transaction (SQLite): of
two devices entering it at once, one gets in.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from services.gateway.code_format import canonical, new_code, shown
from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.sqlite import first, run, run_many

COUNT = 10  # codes in a set
LENGTH = 16  # characters: 80 bits


class RecoveryCodeStore(Protocol):
    """Where the accounts' recovery codes' hashes are kept."""

    async def migrate(self) -> None: ...

    async def replace(self, account_id: str, hashes: Sequence[str], now_ms: int) -> None:
        """Make ``hashes`` the account's codes, forgetting all its earlier ones (one step)."""
        ...

    async def take(self, code_hash: str, now_ms: int) -> str | None:
        """The account of the code, now used, if it was unused; ``None`` otherwise. One step:
        of any number of takers at once, one gets it."""
        ...

    async def left(self, account_id: str) -> int:
        """How many of the account's codes are unused."""
        ...


class PostgresRecoveryCodes(InPostgres, RecoveryCodeStore):
    async def replace(self, account_id: str, hashes: Sequence[str], now_ms: int) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            # One account's sets are made one at a time: two at once leave one set, not both.
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1)", zlib.crc32(f"recovery:{account_id}".encode())
            )
            await conn.execute(
                "DELETE FROM gateway.recovery_codes WHERE account_id = $1", account_id
            )
            await conn.executemany(
                "INSERT INTO gateway.recovery_codes (code_hash, account_id, created_at)"
                " VALUES ($1, $2, $3)",
                [(code_hash, account_id, now_ms) for code_hash in hashes],
            )

    async def take(self, code_hash: str, now_ms: int) -> str | None:
        # Under READ COMMITTED a second taker waits for the first's row lock, then finds
        # used_at set and updates nothing.
        account: str | None = await self.pool.fetchval(
            "UPDATE gateway.recovery_codes SET used_at = $2"
            " WHERE code_hash = $1 AND used_at IS NULL RETURNING account_id",
            code_hash,
            now_ms,
        )
        return account

    async def left(self, account_id: str) -> int:
        count: int = await self.pool.fetchval(
            "SELECT count(*) FROM gateway.recovery_codes WHERE account_id = $1 AND used_at IS NULL",
            account_id,
        )
        return count


class SqliteRecoveryCodes(InSqlite, RecoveryCodeStore):
    async def replace(self, account_id: str, hashes: Sequence[str], now_ms: int) -> None:
        async with self.db.write() as conn:
            await run(conn, "DELETE FROM gateway_recovery_codes WHERE account_id = ?", account_id)
            await run_many(
                conn,
                "INSERT INTO gateway_recovery_codes (code_hash, account_id, created_at)"
                " VALUES (?, ?, ?)",
                [(code_hash, account_id, now_ms) for code_hash in hashes],
            )

    async def take(self, code_hash: str, now_ms: int) -> str | None:
        async with self.db.write() as conn:  # the write lock: one taker at a time
            row = await first(
                conn,
                "UPDATE gateway_recovery_codes SET used_at = ?"
                " WHERE code_hash = ? AND used_at IS NULL RETURNING account_id",
                now_ms,
                code_hash,
            )
        return None if row is None else str(row["account_id"])

    async def left(self, account_id: str) -> int:
        async with self.db.read() as conn:
            row = await first(
                conn,
                "SELECT count(*) AS n FROM gateway_recovery_codes"
                " WHERE account_id = ? AND used_at IS NULL",
                account_id,
            )
        return 0 if row is None else int(row["n"])


@dataclass
class _Kept:
    account_id: str
    used: bool = False


class MemoryRecoveryCodes(InMemory, RecoveryCodeStore):
    """One process's codes (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.codes: dict[str, _Kept] = {}

    async def replace(self, account_id: str, hashes: Sequence[str], now_ms: int) -> None:
        self.codes = {h: kept for h, kept in self.codes.items() if kept.account_id != account_id}
        self.codes.update({code_hash: _Kept(account_id) for code_hash in hashes})

    async def take(self, code_hash: str, now_ms: int) -> str | None:
        kept = self.codes.get(code_hash)
        if kept is None or kept.used:
            return None
        kept.used = True
        return kept.account_id

    async def left(self, account_id: str) -> int:
        return sum(1 for k in self.codes.values() if k.account_id == account_id and not k.used)


def recovery_code_store_for(store: object) -> RecoveryCodeStore:
    """The codes in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresRecoveryCodes, SqliteRecoveryCodes, MemoryRecoveryCodes)


def code_hash(code: str) -> str:
    """What the database keeps of a canonical code."""
    return hashlib.sha256(code.encode()).hexdigest()


class RecoveryCodes:
    """Makes accounts' sets of recovery codes and takes them, timed by ``clock``."""

    def __init__(self, store: RecoveryCodeStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def generate(self, account_id: str) -> list[str]:
        """A new set of ``COUNT`` codes for the account, as shown, in place of its earlier set:
        the only time they are seen."""
        codes = [new_code(LENGTH) for _ in range(COUNT)]
        await self.store.replace(
            account_id, [code_hash(code) for code in codes], int(self.clock() * 1000)
        )
        return [shown(code) for code in codes]

    async def redeem(self, typed: str) -> str | None:
        """The account whose unused code ``typed`` is: it is used now. ``None`` for anything
        else (not a code, unknown or used)."""
        code = canonical(typed, LENGTH)
        if code is None:
            return None
        return await self.store.take(code_hash(code), int(self.clock() * 1000))

    async def left(self, account_id: str) -> int:
        return await self.store.left(account_id)
