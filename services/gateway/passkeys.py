"""Where passkeys live: each account's WebAuthn credentials, and the single-use challenges of
the ceremonies that add them and sign in with them (``passkey_ceremonies.py`` runs those).

Both live in the database every gateway shares (the ``gateway`` schema in PostgreSQL,
``gateway_`` tables in the embedded SQLite file), so a sign-in may finish on another gateway
than the one that handed out its options. A challenge is taken (deleted) as it is checked, so
it serves one answer, right or wrong; storing a new one clears the expired, which keeps the
table as small as the ceremonies under way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.rows import Row
from shared.sqlite import first, run

Purpose = Literal["register", "sign-in"]


@dataclass(frozen=True)
class Passkey:
    id: str  # the credential id, base64url, as the browser names it
    account_id: str
    public_key: bytes  # COSE-encoded
    sign_count: int
    backed_up: bool
    device_type: str  # "single_device" or "multi_device"
    transports: tuple[str, ...]
    label: str
    created_at: int  # ms since the epoch
    last_used_at: int | None = None


@dataclass(frozen=True)
class Challenge:
    purpose: Purpose
    account_id: str  # the account registering; "" for a sign-in
    challenge: bytes


class PasskeyStore(Protocol):
    async def migrate(self) -> None: ...

    async def add(self, passkey: Passkey) -> bool:
        """Keep a new passkey; ``False`` (and nothing kept) if its credential id is known."""
        ...

    async def get(self, credential_id: str) -> Passkey | None: ...

    async def of(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        ...

    async def used(
        self, credential_id: str, seen_count: int, sign_count: int, backed_up: bool, now_ms: int
    ) -> bool:
        """Record a sign-in with the passkey: its new count and backup state, if its count is
        still ``seen_count`` (of two sign-ins with one count, only one gets through)."""
        ...

    async def remove(self, account_id: str, credential_id: str) -> bool:
        """Forget one of the account's passkeys: whether it had it."""
        ...

    async def remove_all(self, account_id: str) -> int:
        """Forget every passkey of the account (deleting it): how many."""
        ...

    async def put_challenge(
        self, ticket: str, challenge: Challenge, expires_ms: int, now_ms: int
    ) -> None:
        """Keep a challenge under ``ticket`` until ``expires_ms``; clear the expired ones."""
        ...

    async def take_challenge(self, ticket: str, now_ms: int) -> Challenge | None:
        """The challenge under ``ticket``, removed; ``None`` if unknown, used or expired."""
        ...


def _passkey(row: Mapping[str, Any]) -> Passkey:
    return Passkey(
        id=row["id"],
        account_id=row["account_id"],
        public_key=bytes(row["public_key"]),
        sign_count=int(row["sign_count"]),
        backed_up=bool(row["backed_up"]),
        device_type=row["device_type"],
        transports=tuple(row["transports"].split(",")) if row["transports"] else (),
        label=row["label"],
        created_at=int(row["created_at"]),
        last_used_at=None if row["last_used_at"] is None else int(row["last_used_at"]),
    )


_COLUMNS = (
    "id, account_id, public_key, sign_count, backed_up, device_type, transports, label,"
    " created_at, last_used_at"
)


def _values(passkey: Passkey) -> tuple[object, ...]:
    return (
        passkey.id,
        passkey.account_id,
        passkey.public_key,
        passkey.sign_count,
        passkey.backed_up,
        passkey.device_type,
        ",".join(passkey.transports),
        passkey.label,
        passkey.created_at,
        passkey.last_used_at,
    )


_CHALLENGE_COLUMNS = "ticket, purpose, account_id, challenge, expires_at"


def _challenge_values(ticket: str, challenge: Challenge, expires_ms: int) -> tuple[object, ...]:
    return (ticket, challenge.purpose, challenge.account_id, challenge.challenge, expires_ms)


def _unexpired(row: Row | None, now_ms: int) -> Challenge | None:
    """The challenge of a taken row, unless it had expired by ``now_ms``."""
    if row is None or int(row["expires_at"]) <= now_ms:
        return None
    return Challenge(row["purpose"], row["account_id"], bytes(row["challenge"]))


class PostgresPasskeys(InPostgres, PasskeyStore):
    async def add(self, passkey: Passkey) -> bool:
        added = await self.pool.fetchval(
            f"INSERT INTO gateway.passkeys ({_COLUMNS})"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            " ON CONFLICT (id) DO NOTHING RETURNING true",
            *_values(passkey),
        )
        return added is True

    async def get(self, credential_id: str) -> Passkey | None:
        row = await self.pool.fetchrow(
            f"SELECT {_COLUMNS} FROM gateway.passkeys WHERE id = $1", credential_id
        )
        return None if row is None else _passkey(dict(row))

    async def of(self, account_id: str) -> list[Passkey]:
        rows = await self.pool.fetch(
            f"SELECT {_COLUMNS} FROM gateway.passkeys WHERE account_id = $1"
            " ORDER BY created_at, id",
            account_id,
        )
        return [_passkey(dict(row)) for row in rows]

    async def used(
        self, credential_id: str, seen_count: int, sign_count: int, backed_up: bool, now_ms: int
    ) -> bool:
        done: str = await self.pool.execute(
            "UPDATE gateway.passkeys SET sign_count = $3, backed_up = $4, last_used_at = $5"
            " WHERE id = $1 AND sign_count = $2",
            credential_id,
            seen_count,
            sign_count,
            backed_up,
            now_ms,
        )
        return done == "UPDATE 1"

    async def remove(self, account_id: str, credential_id: str) -> bool:
        done: str = await self.pool.execute(
            "DELETE FROM gateway.passkeys WHERE id = $1 AND account_id = $2",
            credential_id,
            account_id,
        )
        return done == "DELETE 1"

    async def remove_all(self, account_id: str) -> int:
        done: str = await self.pool.execute(
            "DELETE FROM gateway.passkeys WHERE account_id = $1", account_id
        )
        return int(done.rsplit(maxsplit=1)[-1])

    async def put_challenge(
        self, ticket: str, challenge: Challenge, expires_ms: int, now_ms: int
    ) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "DELETE FROM gateway.webauthn_challenges WHERE expires_at <= $1", now_ms
            )
            await conn.execute(
                f"INSERT INTO gateway.webauthn_challenges ({_CHALLENGE_COLUMNS})"
                " VALUES ($1, $2, $3, $4, $5)",
                *_challenge_values(ticket, challenge, expires_ms),
            )

    async def take_challenge(self, ticket: str, now_ms: int) -> Challenge | None:
        row = await self.pool.fetchrow(
            "DELETE FROM gateway.webauthn_challenges WHERE ticket = $1"
            f" RETURNING {_CHALLENGE_COLUMNS}",
            ticket,
        )
        return _unexpired(row, now_ms)


class SqlitePasskeys(InSqlite, PasskeyStore):
    async def add(self, passkey: Passkey) -> bool:
        async with self.db.write() as conn:
            added = await run(
                conn,
                f"INSERT INTO gateway_passkeys ({_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                *_values(passkey),
            )
        return added == 1

    async def get(self, credential_id: str) -> Passkey | None:
        async with self.db.read() as conn:
            row = await first(
                conn, f"SELECT {_COLUMNS} FROM gateway_passkeys WHERE id = ?", credential_id
            )
        return None if row is None else _passkey(dict(row))

    async def of(self, account_id: str) -> list[Passkey]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM gateway_passkeys WHERE account_id = ?"
                " ORDER BY created_at, id",
                (account_id,),
            )
        return [_passkey(dict(row)) for row in rows]

    async def used(
        self, credential_id: str, seen_count: int, sign_count: int, backed_up: bool, now_ms: int
    ) -> bool:
        async with self.db.write() as conn:
            done = await run(
                conn,
                "UPDATE gateway_passkeys SET sign_count = ?, backed_up = ?, last_used_at = ?"
                " WHERE id = ? AND sign_count = ?",
                sign_count,
                backed_up,
                now_ms,
                credential_id,
                seen_count,
            )
        return done == 1

    async def remove(self, account_id: str, credential_id: str) -> bool:
        async with self.db.write() as conn:
            done = await run(
                conn,
                "DELETE FROM gateway_passkeys WHERE id = ? AND account_id = ?",
                credential_id,
                account_id,
            )
        return done == 1

    async def remove_all(self, account_id: str) -> int:
        async with self.db.write() as conn:
            return await run(conn, "DELETE FROM gateway_passkeys WHERE account_id = ?", account_id)

    async def put_challenge(
        self, ticket: str, challenge: Challenge, expires_ms: int, now_ms: int
    ) -> None:
        async with self.db.write() as conn:
            await run(conn, "DELETE FROM gateway_webauthn_challenges WHERE expires_at <= ?", now_ms)
            await run(
                conn,
                f"INSERT INTO gateway_webauthn_challenges ({_CHALLENGE_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?)",
                *_challenge_values(ticket, challenge, expires_ms),
            )

    async def take_challenge(self, ticket: str, now_ms: int) -> Challenge | None:
        async with self.db.write() as conn:
            row = await first(
                conn,
                "DELETE FROM gateway_webauthn_challenges WHERE ticket = ?"
                f" RETURNING {_CHALLENGE_COLUMNS}",
                ticket,
            )
        return _unexpired(row, now_ms)


class MemoryPasskeys(InMemory, PasskeyStore):
    """One process's passkeys (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.passkeys: dict[str, Passkey] = {}
        self.challenges: dict[str, tuple[Challenge, int]] = {}

    async def add(self, passkey: Passkey) -> bool:
        if passkey.id in self.passkeys:
            return False
        self.passkeys[passkey.id] = passkey
        return True

    async def get(self, credential_id: str) -> Passkey | None:
        return self.passkeys.get(credential_id)

    async def of(self, account_id: str) -> list[Passkey]:
        mine = [p for p in self.passkeys.values() if p.account_id == account_id]
        return sorted(mine, key=lambda p: (p.created_at, p.id))

    async def used(
        self, credential_id: str, seen_count: int, sign_count: int, backed_up: bool, now_ms: int
    ) -> bool:
        passkey = self.passkeys.get(credential_id)
        if passkey is None or passkey.sign_count != seen_count:
            return False
        self.passkeys[credential_id] = replace(
            passkey, sign_count=sign_count, backed_up=backed_up, last_used_at=now_ms
        )
        return True

    async def remove(self, account_id: str, credential_id: str) -> bool:
        passkey = self.passkeys.get(credential_id)
        if passkey is None or passkey.account_id != account_id:
            return False
        del self.passkeys[credential_id]
        return True

    async def remove_all(self, account_id: str) -> int:
        mine = [p.id for p in self.passkeys.values() if p.account_id == account_id]
        for credential_id in mine:
            del self.passkeys[credential_id]
        return len(mine)

    async def put_challenge(
        self, ticket: str, challenge: Challenge, expires_ms: int, now_ms: int
    ) -> None:
        expired = [t for t, (_, expires) in self.challenges.items() if expires <= now_ms]
        for old in expired:
            del self.challenges[old]
        self.challenges[ticket] = (challenge, expires_ms)

    async def take_challenge(self, ticket: str, now_ms: int) -> Challenge | None:
        found = self.challenges.pop(ticket, None)
        if found is None or found[1] <= now_ms:
            return None
        return found[0]


def passkeys_for(store: object) -> PasskeyStore:
    """The passkeys in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresPasskeys, SqlitePasskeys, MemoryPasskeys)
