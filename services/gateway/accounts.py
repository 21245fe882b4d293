"""Accounts: who a player is, for good.

An account's id (``p-<hex>``) is the subject of every token it is given and never changes: a
guest is an account with no credential yet, and adding a passkey or recovery codes upgrades it
in place, its chips (the ledger's wallet of that id), seat and history with it.

Display names need not be unique; handles are. A handle is the name and a four-digit tag
(``Rita#4821``), unique by the name's key (``handle_key``: case and look-alike letters folded)
and the tag, so ``rita`` and ``RІTA`` (a Cyrillic ``І``) never share one. A tag is drawn at
random among those free for the key.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import asyncpg

from services.gateway.names import folded
from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.messages import DELETED_PLAYER
from shared.rows import Row
from shared.sqlite import first, rows_in, run

TAGS = range(1, 10_000)  # 0001 to 9999
_TRIES = 5  # a tag taken by a concurrent sign-up between reading and writing: draw again


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    tag: int
    created_at: int  # ms since the epoch

    @property
    def handle(self) -> str:
        return f"{self.name}#{self.tag:04d}"

    @property
    def key(self) -> str:
        return handle_key(self.name)


def handle_key(name: str) -> str:
    """What two handles are compared by besides the tag: the name case-folded first (so a
    capital ``I`` is an ``i``, not the ``l`` it looks like), then its look-alikes folded."""
    return folded(name.casefold())


class NameCrowded(ValueError):
    """Every tag of a name (folded) is taken."""

    def __init__(self) -> None:
        super().__init__("So many players have that name that it has no tag left: choose another")


class AccountStore(Protocol):
    async def migrate(self) -> None: ...

    async def create(self, account_id: str, name: str, now_ms: int) -> Account:
        """A new account (``NameCrowded`` when ``name`` has no free tag)."""
        ...

    async def get(self, account_id: str) -> Account | None:
        """The account, ``None`` if unknown or deleted."""
        ...

    async def many(self, account_ids: Sequence[str]) -> dict[str, Account]:
        """Those of ``account_ids`` that are accounts (not deleted)."""
        ...

    async def rename(self, account_id: str, name: str) -> Account | None:
        """The account under its new name, keeping its tag if that is free for the name."""
        ...

    async def delete(self, account_id: str, now_ms: int) -> bool:
        """Forget the account's name (its handle is free again); ``False`` if it was not one."""
        ...


def _tag_for(taken: Iterable[int], keep: int | None = None) -> int:
    used = set(taken)
    if keep is not None and keep not in used:
        return keep
    if len(used) >= len(TAGS):
        raise NameCrowded()
    while True:  # at most 9,999 taken of 9,999: the draw ends fast while any is free
        tag = random.choice(TAGS)
        if tag not in used:
            return tag


def _account(row: Row) -> Account:
    get = row.__getitem__
    return Account(get("id"), get("name"), int(get("tag")), int(get("created_at")))


class PostgresAccounts(InPostgres, AccountStore):
    async def create(self, account_id: str, name: str, now_ms: int) -> Account:
        key = handle_key(name)
        for _ in range(_TRIES):
            taken = await self.pool.fetch(
                "SELECT tag FROM gateway.accounts WHERE handle_key = $1", key
            )
            tag = _tag_for(row["tag"] for row in taken)
            try:
                await self.pool.execute(
                    "INSERT INTO gateway.accounts (id, name, handle_key, tag, created_at)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    account_id,
                    name,
                    key,
                    tag,
                    now_ms,
                )
            except asyncpg.UniqueViolationError:
                existing = await self.get(account_id)
                if existing is not None:  # made already (a retried adoption)
                    return existing
                continue
            return Account(account_id, name, tag, now_ms)
        raise NameCrowded()

    async def get(self, account_id: str) -> Account | None:
        row = await self.pool.fetchrow(
            "SELECT * FROM gateway.accounts WHERE id = $1 AND deleted_at IS NULL", account_id
        )
        return None if row is None else _account(row)

    async def many(self, account_ids: Sequence[str]) -> dict[str, Account]:
        rows = await self.pool.fetch(
            "SELECT * FROM gateway.accounts WHERE id = ANY($1::text[]) AND deleted_at IS NULL",
            list(account_ids),
        )
        return {row["id"]: _account(row) for row in rows}

    async def rename(self, account_id: str, name: str) -> Account | None:
        key = handle_key(name)
        for _ in range(_TRIES):
            account = await self.get(account_id)
            if account is None:
                return None
            taken = await self.pool.fetch(
                "SELECT tag FROM gateway.accounts WHERE handle_key = $1 AND id <> $2",
                key,
                account_id,
            )
            tag = _tag_for((row["tag"] for row in taken), keep=account.tag)
            try:
                await self.pool.execute(
                    "UPDATE gateway.accounts SET name = $2, handle_key = $3, tag = $4"
                    " WHERE id = $1",
                    account_id,
                    name,
                    key,
                    tag,
                )
            except asyncpg.UniqueViolationError:
                continue
            return Account(account_id, name, tag, account.created_at)
        raise NameCrowded()

    async def delete(self, account_id: str, now_ms: int) -> bool:
        done: str = await self.pool.execute(
            "UPDATE gateway.accounts SET name = $2, handle_key = $3, tag = 0, deleted_at = $4"
            " WHERE id = $1 AND deleted_at IS NULL",
            account_id,
            DELETED_PLAYER,
            f"~{account_id}",  # no name folds to this: the handle is free, the row unique
            now_ms,
        )
        return done.endswith(" 1")


class SqliteAccounts(InSqlite, AccountStore):
    async def create(self, account_id: str, name: str, now_ms: int) -> Account:
        key = handle_key(name)
        async with self.db.write() as conn:  # one writer at a time: no tag is raced for
            existing = await first(conn, "SELECT * FROM gateway_accounts WHERE id = ?", account_id)
            if existing is not None:
                return _account(existing)
            taken = await conn.execute_fetchall(
                "SELECT tag FROM gateway_accounts WHERE handle_key = ?", (key,)
            )
            tag = _tag_for(row["tag"] for row in taken)
            await run(
                conn,
                "INSERT INTO gateway_accounts (id, name, handle_key, tag, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                account_id,
                name,
                key,
                tag,
                now_ms,
            )
        return Account(account_id, name, tag, now_ms)

    async def get(self, account_id: str) -> Account | None:
        async with self.db.read() as conn:
            row = await first(
                conn,
                "SELECT * FROM gateway_accounts WHERE id = ? AND deleted_at IS NULL",
                account_id,
            )
        return None if row is None else _account(row)

    async def many(self, account_ids: Sequence[str]) -> dict[str, Account]:
        async with self.db.read() as conn:
            rows = await rows_in(
                conn,
                "SELECT * FROM gateway_accounts WHERE id IN ({marks}) AND deleted_at IS NULL",
                account_ids,
            )
        return {row["id"]: _account(row) for row in rows}

    async def rename(self, account_id: str, name: str) -> Account | None:
        key = handle_key(name)
        async with self.db.write() as conn:
            row = await first(
                conn,
                "SELECT * FROM gateway_accounts WHERE id = ? AND deleted_at IS NULL",
                account_id,
            )
            if row is None:
                return None
            account = _account(row)
            taken = await conn.execute_fetchall(
                "SELECT tag FROM gateway_accounts WHERE handle_key = ? AND id <> ?",
                (key, account_id),
            )
            tag = _tag_for((r["tag"] for r in taken), keep=account.tag)
            await run(
                conn,
                "UPDATE gateway_accounts SET name = ?, handle_key = ?, tag = ? WHERE id = ?",
                name,
                key,
                tag,
                account_id,
            )
        return Account(account_id, name, tag, account.created_at)

    async def delete(self, account_id: str, now_ms: int) -> bool:
        async with self.db.write() as conn:
            changed = await run(
                conn,
                "UPDATE gateway_accounts SET name = ?, handle_key = ?, tag = 0, deleted_at = ?"
                " WHERE id = ? AND deleted_at IS NULL",
                DELETED_PLAYER,
                f"~{account_id}",
                now_ms,
                account_id,
            )
        return changed == 1


class MemoryAccounts(InMemory, AccountStore):
    """One process's accounts (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.accounts: dict[str, Account] = {}

    def _taken(self, key: str, other_than: str = "") -> list[int]:
        return [a.tag for a in self.accounts.values() if a.key == key and a.id != other_than]

    async def create(self, account_id: str, name: str, now_ms: int) -> Account:
        if account_id in self.accounts:
            return self.accounts[account_id]
        account = Account(account_id, name, _tag_for(self._taken(handle_key(name))), now_ms)
        self.accounts[account_id] = account
        return account

    async def get(self, account_id: str) -> Account | None:
        return self.accounts.get(account_id)

    async def many(self, account_ids: Sequence[str]) -> dict[str, Account]:
        return {i: self.accounts[i] for i in account_ids if i in self.accounts}

    async def rename(self, account_id: str, name: str) -> Account | None:
        account = self.accounts.get(account_id)
        if account is None:
            return None
        tag = _tag_for(self._taken(handle_key(name), account_id), keep=account.tag)
        renamed = Account(account_id, name, tag, account.created_at)
        self.accounts[account_id] = renamed
        return renamed

    async def delete(self, account_id: str, now_ms: int) -> bool:
        return self.accounts.pop(account_id, None) is not None


def accounts_for(store: object) -> AccountStore:
    """The accounts in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresAccounts, SqliteAccounts, MemoryAccounts)
