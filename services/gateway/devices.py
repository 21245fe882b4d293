"""The devices signed in to an account: each sign-in opens one, and its tokens name it (their
``sid``), so a player can see where they are signed in and sign any device out.

A device's kind is read from its User-Agent (``Firefox on Android``) and "where" is the
client address it signed in from; ``last_seen`` is kept to the minute (``TOUCH_MS``), so a
busy device costs a write a minute, not one a request.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.rows import Row
from shared.sqlite import in_lists, rows_in, run

TOUCH_MS = 60_000
MAX_USER_AGENT = 512  # what is read of a User-Agent
KEPT_REVOKED_MS = 30 * 86_400_000  # a signed-out device is listed no more after this
_DEVICE_ID = re.compile(r"d-[0-9a-f]{16}")

# The first that matches names the browser (Edge and Opera say "Chrome" too), then the system.
_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def device_kind(user_agent: str) -> str:
    """What a person would call the device: ``Chrome on Android``, ``Safari on iPhone``."""
    agent = user_agent[:MAX_USER_AGENT]
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or "Unknown device"


def is_device_id(value: str) -> bool:
    return _DEVICE_ID.fullmatch(value) is not None


@dataclass(frozen=True, slots=True)
class Device:
    id: str
    account_id: str
    kind: str
    how: str  # how it signed in: new, passkey, link, recovery, kept (a token from before)
    address: str
    created_at: int  # ms since the epoch
    last_seen: int
    revoked_at: int | None = None


def _device(row: Row) -> Device:
    get = row.__getitem__
    revoked = get("revoked_at")
    return Device(
        get("id"),
        get("account_id"),
        get("kind"),
        get("how"),
        get("address"),
        int(get("created_at")),
        int(get("last_seen")),
        None if revoked is None else int(revoked),
    )


def new_device(account_id: str, kind: str, how: str, address: str, now_ms: int) -> Device:
    return Device(f"d-{secrets.token_hex(8)}", account_id, kind, how, address, now_ms, now_ms)


class DeviceStore(Protocol):
    async def migrate(self) -> None: ...

    async def add(self, device: Device) -> None: ...

    async def of(self, account_id: str, now_ms: int) -> list[Device]:
        """The account's devices, newest first: those signed in, and those signed out in the
        last ``KEPT_REVOKED_MS``."""
        ...

    async def revoke(self, account_id: str, device_ids: Sequence[str], now_ms: int) -> list[str]:
        """Sign those of ``device_ids`` that are the account's out: the ids that were signed
        in until now."""
        ...

    async def revoke_all(self, account_id: str, keep: str, now_ms: int) -> list[str]:
        """Sign every device of the account out but ``keep``: the ids signed out now."""
        ...

    async def revoked(self, device_ids: Sequence[str]) -> set[str]:
        """Those of ``device_ids`` that are signed out (or were never signed in here)."""
        ...

    async def touch(self, device_ids: Sequence[str], now_ms: int) -> None:
        """The devices were seen now (written only where the last sighting is a minute old)."""
        ...


_COLUMNS = "id, account_id, kind, how, address, created_at, last_seen"


def _values(device: Device) -> tuple[object, ...]:
    """A device's row, in the order of ``_COLUMNS``."""
    return (
        device.id,
        device.account_id,
        device.kind,
        device.how,
        device.address,
        device.created_at,
        device.last_seen,
    )


class PostgresDevices(InPostgres, DeviceStore):
    async def add(self, device: Device) -> None:
        await self.pool.execute(
            f"INSERT INTO gateway.devices ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            *_values(device),
        )

    async def of(self, account_id: str, now_ms: int) -> list[Device]:
        rows = await self.pool.fetch(
            "SELECT * FROM gateway.devices WHERE account_id = $1"
            " AND (revoked_at IS NULL OR revoked_at > $2) ORDER BY last_seen DESC, id",
            account_id,
            now_ms - KEPT_REVOKED_MS,
        )
        return [_device(row) for row in rows]

    async def revoke(self, account_id: str, device_ids: Sequence[str], now_ms: int) -> list[str]:
        rows = await self.pool.fetch(
            "UPDATE gateway.devices SET revoked_at = $3 WHERE account_id = $1"
            " AND id = ANY($2::text[]) AND revoked_at IS NULL RETURNING id",
            account_id,
            list(device_ids),
            now_ms,
        )
        return [row["id"] for row in rows]

    async def revoke_all(self, account_id: str, keep: str, now_ms: int) -> list[str]:
        rows = await self.pool.fetch(
            "UPDATE gateway.devices SET revoked_at = $3 WHERE account_id = $1"
            " AND id <> $2 AND revoked_at IS NULL RETURNING id",
            account_id,
            keep,
            now_ms,
        )
        return [row["id"] for row in rows]

    async def revoked(self, device_ids: Sequence[str]) -> set[str]:
        rows = await self.pool.fetch(
            "SELECT id FROM gateway.devices WHERE id = ANY($1::text[]) AND revoked_at IS NULL",
            list(device_ids),
        )
        return set(device_ids) - {row["id"] for row in rows}

    async def touch(self, device_ids: Sequence[str], now_ms: int) -> None:
        await self.pool.execute(
            "UPDATE gateway.devices SET last_seen = $2"
            " WHERE id = ANY($1::text[]) AND last_seen < $3",
            list(device_ids),
            now_ms,
            now_ms - TOUCH_MS,
        )


class SqliteDevices(InSqlite, DeviceStore):
    async def add(self, device: Device) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                f"INSERT INTO gateway_devices ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                *_values(device),
            )

    async def of(self, account_id: str, now_ms: int) -> list[Device]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM gateway_devices WHERE account_id = ?"
                " AND (revoked_at IS NULL OR revoked_at > ?) ORDER BY last_seen DESC, id",
                (account_id, now_ms - KEPT_REVOKED_MS),
            )
        return [_device(row) for row in rows]

    async def revoke(self, account_id: str, device_ids: Sequence[str], now_ms: int) -> list[str]:
        revoked: list[str] = []
        async with self.db.write() as conn:
            for marks, chunk in in_lists(device_ids):
                rows = await conn.execute_fetchall(
                    f"UPDATE gateway_devices SET revoked_at = ? WHERE account_id = ?"
                    f" AND id IN ({marks}) AND revoked_at IS NULL RETURNING id",
                    (now_ms, account_id, *chunk),
                )
                revoked += [row["id"] for row in rows]
        return revoked

    async def revoke_all(self, account_id: str, keep: str, now_ms: int) -> list[str]:
        async with self.db.write() as conn:
            rows = await conn.execute_fetchall(
                "UPDATE gateway_devices SET revoked_at = ? WHERE account_id = ?"
                " AND id <> ? AND revoked_at IS NULL RETURNING id",
                (now_ms, account_id, keep),
            )
        return [row["id"] for row in rows]

    async def revoked(self, device_ids: Sequence[str]) -> set[str]:
        async with self.db.read() as conn:
            rows = await rows_in(
                conn,
                "SELECT id FROM gateway_devices WHERE id IN ({marks}) AND revoked_at IS NULL",
                device_ids,
            )
        return set(device_ids) - {row["id"] for row in rows}

    async def touch(self, device_ids: Sequence[str], now_ms: int) -> None:
        async with self.db.write() as conn:
            for marks, chunk in in_lists(device_ids):
                await run(
                    conn,
                    f"UPDATE gateway_devices SET last_seen = ? WHERE id IN ({marks})"
                    " AND last_seen < ?",
                    now_ms,
                    *chunk,
                    now_ms - TOUCH_MS,
                )


class MemoryDevices(InMemory, DeviceStore):
    """One process's devices (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}

    async def add(self, device: Device) -> None:
        self.devices[device.id] = device

    async def of(self, account_id: str, now_ms: int) -> list[Device]:
        kept = [
            d
            for d in self.devices.values()
            if d.account_id == account_id
            and (d.revoked_at is None or d.revoked_at > now_ms - KEPT_REVOKED_MS)
        ]
        return sorted(kept, key=lambda d: (-d.last_seen, d.id))

    def _sign_out(self, ids: list[str], now_ms: int) -> list[str]:
        for device_id in ids:
            self.devices[device_id] = replace(self.devices[device_id], revoked_at=now_ms)
        return ids

    async def revoke(self, account_id: str, device_ids: Sequence[str], now_ms: int) -> list[str]:
        ids = [
            i
            for i in dict.fromkeys(device_ids)
            if (d := self.devices.get(i)) and d.account_id == account_id and d.revoked_at is None
        ]
        return self._sign_out(ids, now_ms)

    async def revoke_all(self, account_id: str, keep: str, now_ms: int) -> list[str]:
        ids = [
            d.id
            for d in self.devices.values()
            if d.account_id == account_id and d.id != keep and d.revoked_at is None
        ]
        return self._sign_out(ids, now_ms)

    async def revoked(self, device_ids: Sequence[str]) -> set[str]:
        return {
            i for i in device_ids if (d := self.devices.get(i)) is None or d.revoked_at is not None
        }

    async def touch(self, device_ids: Sequence[str], now_ms: int) -> None:
        for device_id in device_ids:
            device = self.devices.get(device_id)
            if device is not None and device.last_seen < now_ms - TOUCH_MS:
                self.devices[device_id] = replace(device, last_seen=now_ms)


def devices_for(store: object) -> DeviceStore:
    """The devices in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresDevices, SqliteDevices, MemoryDevices)
