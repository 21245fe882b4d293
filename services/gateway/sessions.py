"""Signing out: everywhere (each player's token version) or one device, and the sockets it
closes.

A token carries the version of its player's tokens when it was signed (``identity``'s
``ver``). Signing out everywhere raises the version in the database every gateway shares (the
``gateway`` schema in PostgreSQL, ``gateway_sessions`` in the embedded SQLite file), and a token
of an older version opens nothing more. Gateways keep the versions they read for ``CHECK_SECONDS``
(on a clock the tests control), so an HTTP request or a socket's opening costs no database
round trip most of the time and a WebSocket frame never does; each gateway also re-reads the
versions of its open sockets' players that often, in one query, and closes every socket whose
token was revoked (with 4401, as for any token no longer good). The gateway that takes the
sign-out closes its own sockets at once.

Signing one device out marks it in ``devices`` the same way: its tokens (their ``sid``) open
nothing more, its sockets close with 4401. A socket also closes when its token expires, so no
socket outlives the sign-in that opened it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from services.gateway.devices import DeviceStore, MemoryDevices
from services.gateway.hub import Connection
from services.gateway.identity import Claims
from services.gateway.store_database import InMemory, InPostgres, InSqlite, in_store_database
from shared.sqlite import first, rows_in, run

log = logging.getLogger("swick.gateway")

CHECK_SECONDS = 1.0  # how stale a gateway's idea of a version or a device may be
MAX_CACHED = 100_000  # players whose version (devices whose state) a gateway remembers
TOUCH_SECONDS = 60.0  # how often the open sockets' devices are marked as seen
SIGNED_OUT = 4401  # the close code of a socket whose token was revoked: sign in again


class Versions(Protocol):
    """Where the players' token versions live (a player without one is at 0)."""

    async def migrate(self) -> None: ...

    async def of(self, player_ids: Sequence[str]) -> dict[str, int]:
        """The versions of those of ``player_ids`` that have one."""
        ...

    async def bump(self, player_id: str, now_ms: int) -> int:
        """Raise the player's version by one: their new version."""
        ...


class PostgresVersions(InPostgres, Versions):
    async def of(self, player_ids: Sequence[str]) -> dict[str, int]:
        rows = await self.pool.fetch(
            "SELECT player_id, version FROM gateway.sessions WHERE player_id = ANY($1::text[])",
            list(player_ids),
        )
        return {row["player_id"]: int(row["version"]) for row in rows}

    async def bump(self, player_id: str, now_ms: int) -> int:
        version: int = await self.pool.fetchval(
            "INSERT INTO gateway.sessions (player_id, version, revoked_at) VALUES ($1, 1, $2)"
            " ON CONFLICT (player_id) DO UPDATE"
            " SET version = gateway.sessions.version + 1, revoked_at = $2 RETURNING version",
            player_id,
            now_ms,
        )
        return version


class SqliteVersions(InSqlite, Versions):
    async def of(self, player_ids: Sequence[str]) -> dict[str, int]:
        async with self.db.read() as conn:
            rows = await rows_in(
                conn,
                "SELECT player_id, version FROM gateway_sessions WHERE player_id IN ({marks})",
                player_ids,
            )
        return {row["player_id"]: int(row["version"]) for row in rows}

    async def bump(self, player_id: str, now_ms: int) -> int:
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO gateway_sessions (player_id, version, revoked_at) VALUES (?, 1, ?)"
                " ON CONFLICT (player_id) DO UPDATE"
                " SET version = version + 1, revoked_at = excluded.revoked_at",
                player_id,
                now_ms,
            )
            row = await first(
                conn, "SELECT version FROM gateway_sessions WHERE player_id = ?", player_id
            )
        assert row is not None
        return int(row["version"])


class MemoryVersions(InMemory, Versions):
    """One process's versions (a gateway without a database of its own: some tests)."""

    def __init__(self) -> None:
        self.versions: dict[str, int] = {}

    async def of(self, player_ids: Sequence[str]) -> dict[str, int]:
        return {p: self.versions[p] for p in player_ids if p in self.versions}

    async def bump(self, player_id: str, now_ms: int) -> int:
        self.versions[player_id] = self.versions.get(player_id, 0) + 1
        return self.versions[player_id]


def versions_for(store: object) -> Versions:
    """The versions in the database of the gateway's table store (in memory without one)."""
    return in_store_database(store, PostgresVersions, SqliteVersions, MemoryVersions)


class Sessions:
    """One gateway's view of the players' token versions and devices, and its open sockets'
    tokens."""

    def __init__(
        self,
        versions: Versions,
        devices: DeviceStore | None = None,
        *,
        check_every: float = CHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.versions = versions
        self.devices = devices or MemoryDevices()
        self.check_every = check_every
        self.clock = clock
        self.wall_clock = wall_clock  # what token expiry is read against
        self._known: dict[str, tuple[int, float]] = {}  # player -> (version, when read)
        self._signed_out: dict[str, tuple[bool, float]] = {}  # device -> (out?, when read)
        self._open: dict[Connection, Claims] = {}  # socket -> its token's claims
        self._touched = clock()

    async def current(self, player_id: str) -> int:
        """The player's token version, as read at most ``check_every`` seconds ago."""
        known = self._known.get(player_id)
        if known is not None and self.clock() - known[1] < self.check_every:
            return known[0]
        version = (await self.versions.of([player_id])).get(player_id, 0)
        self._remember(player_id, version)
        return version

    async def signed_out(self, device_id: str) -> bool:
        """Whether the device was signed out, as read at most ``check_every`` seconds ago."""
        known = self._signed_out.get(device_id)
        if known is not None and self.clock() - known[1] < self.check_every:
            return known[0]
        out = device_id in await self.devices.revoked([device_id])
        self._note_device(device_id, out)
        return out

    async def valid(self, claims: Claims) -> bool:
        """Whether a token with ``claims`` has not been revoked."""
        if claims.version < await self.current(claims.identity.id):
            return False
        return not claims.session or not await self.signed_out(claims.session)

    async def revoke(self, player_id: str, keep: str = "") -> int:
        """Sign the player out everywhere (but on the device ``keep``): their new version (a
        fresh token takes it). This gateway's sockets of theirs close now, the other gateways'
        within ``check_every``."""
        now_ms = self.now_ms()
        version = await self.versions.bump(player_id, now_ms)
        for device in await self.devices.revoke_all(player_id, keep, now_ms):
            self._note_device(device, True)
        self._remember(player_id, version)
        self._close_revoked({player_id: version})
        return version

    async def sign_out(self, player_id: str, device_id: str) -> bool:
        """Sign one of the player's devices out: whether it was signed in. Its sockets here
        close now, on the other gateways within ``check_every``."""
        if not await self.devices.revoke(player_id, [device_id], self.now_ms()):
            return False
        self._note_device(device_id, True)
        self._close_revoked({})
        return True

    def now_ms(self) -> int:
        return int(self.wall_clock() * 1000)

    def opened(self, conn: Connection, claims: Claims) -> None:
        self._open[conn] = claims

    def closed(self, conn: Connection) -> None:
        self._open.pop(conn, None)

    async def sweep(self) -> int:
        """Read the versions of every open socket's player and whether its device is signed
        out (a query each), close the sockets whose token is revoked or expired: how many were
        closed."""
        players = sorted({claims.identity.id for claims in self._open.values()})
        devices = sorted({claims.session for claims in self._open.values() if claims.session})
        if not players:
            return 0
        found = await self.versions.of(players)
        for player in players:
            self._remember(player, found.get(player, 0))
        out = await self.devices.revoked(devices) if devices else set()
        for device in devices:
            self._note_device(device, device in out)
        if devices and self.clock() - self._touched >= TOUCH_SECONDS:
            self._touched = self.clock()
            await self.devices.touch([d for d in devices if d not in out], self.now_ms())
        return self._close_revoked(found)

    async def run(self, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """Sweep every ``check_every`` seconds, for ever."""
        while True:
            await sleep(self.check_every)
            try:
                await self.sweep()
            except Exception:  # the database blinked: the next sweep catches up
                log.warning("could not read the players' token versions", exc_info=True)

    def _close_revoked(self, versions: dict[str, int]) -> int:
        """Close the sockets whose token is older than ``versions`` (or than what this gateway
        knows), on a device signed out, or expired."""
        now = self.wall_clock()
        closing = []
        for conn, claims in self._open.items():
            known = self._known.get(claims.identity.id)
            version = versions.get(claims.identity.id, known[0] if known else 0)
            device = self._signed_out.get(claims.session) if claims.session else None
            if claims.version < version or (device is not None and device[0]):
                closing.append((conn, "signed out: sign in again"))
            elif now >= claims.expires_at:
                closing.append((conn, "your sign-in expired: sign in again"))
        for conn, reason in closing:
            conn.close(SIGNED_OUT, reason)
            self.closed(conn)
        return len(closing)

    def _note_device(self, device_id: str, out: bool) -> None:
        self._signed_out.pop(device_id, None)
        self._signed_out[device_id] = (out, self.clock())
        while len(self._signed_out) > MAX_CACHED:
            del self._signed_out[next(iter(self._signed_out))]

    def _remember(self, player_id: str, version: int) -> None:
        self._known.pop(player_id, None)
        self._known[player_id] = (version, self.clock())
        while len(self._known) > MAX_CACHED:  # the least recently read go first
            del self._known[next(iter(self._known))]
