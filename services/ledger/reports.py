"""What the ledger reports, whichever database holds the books: a wallet's history, the chips
boards, reconciliations, problems, the house and the invariants.

``Reports`` runs each report's queries and builds the report (``rules``); a database gives the
queries in its own dialect (``ReportSql``), a ``Reader`` to run them, and how it keeps times.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Protocol

from services.ledger.rules import (
    BANK,
    health_report,
    history_report,
    house_report,
    problems_report,
    reconciliation_report,
    wallet,
)
from services.ledger.storage import Health
from shared.messages import HOUSE, UNSTAKE
from shared.rows import Row, board


class Reader(Protocol):
    """Queries run on one database connection (or pool); numbered parameters, in order."""

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def row(self, sql: str, *args: Any) -> Row | None:
        """The first row, or ``None``."""

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or ``None``."""


@dataclass(frozen=True)
class ReportSql:
    """The reports' queries in one database's dialect; the parameters each takes, in order."""

    history: str  # the account, the cursor's time, the limit, the cursor's transfer id
    created_at: str  # a transfer's time, by its id
    leaderboard: str  # the time since, the limit
    game_leaderboard: str  # the time since, the limit, the game
    reconciliation: str  # the table
    progress: str  # the table: its postings applied
    dead: str  # the limit
    conflicts: str  # the limit
    house: str  # HOUSE, UNSTAKE: its balance, staked, returned, closed, held
    totals: str  # all accounts' debits and credits
    drift: str  # accounts whose totals are not their transfers'
    open_pots: str  # hands whose pots do not net to zero
    open_game_pots: str  # tables whose game-long pots do not net to zero
    mismatches: str  # reconciliations that differ
    issued: str  # BANK, HOUSE, UNSTAKE: transfers outside the grants and stakes
    dead_count: str
    conflict_count: str
    blocked: str  # tables whose next posting is a dead letter


class Reports(ABC):
    """The ledger's reports over one database (``sql``, ``_reading``)."""

    sql: ClassVar[ReportSql]

    @abstractmethod
    def _reading(self, snapshot: bool = False) -> AbstractAsyncContextManager[Reader]:
        """Reads; with ``snapshot``, all of one consistent state of the books."""

    @abstractmethod
    def _stored_time(self, at: datetime) -> Any:
        """``at`` as the database compares it with its stored times."""

    @abstractmethod
    def _shown_time(self, stored: Any) -> str:
        """A stored time in ISO 8601."""

    async def history(
        self, player_id: str, limit: int = 50, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A player's transfers, newest first, paginated by transfer id."""
        account = wallet(player_id)
        async with self._reading() as read:
            at = None if before is None else await read.value(self.sql.created_at, before)
            rows = await read.rows(self.sql.history, account, at, limit, before)
        return history_report(rows, account, self._shown_time)

    async def leaderboard(
        self, since: datetime, limit: int = 20, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Net winnings at the tables (grants left out) since ``since``; with ``game``, only
        at the tables of that game."""
        at = self._stored_time(since)
        async with self._reading() as read:
            if game is None:
                rows = await read.rows(self.sql.leaderboard, at, limit)
            else:
                rows = await read.rows(self.sql.game_leaderboard, at, limit, game)
        return board(rows, "net")

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        async with self._reading() as read:
            rows = await read.rows(self.sql.reconciliation, table_id)
            applied = await read.value(self.sql.progress, table_id)
        return reconciliation_report(table_id, rows, int(applied or 0))

    async def problems(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        async with self._reading() as read:
            dead = await read.rows(self.sql.dead, limit)
            conflicts = await read.rows(self.sql.conflicts, limit)
        return problems_report(dead, conflicts, self._shown_time)

    async def house(self) -> dict[str, int]:
        async with self._reading() as read:
            row = await read.row(self.sql.house, HOUSE, UNSTAKE)
        assert row is not None
        return house_report(
            row["staked"], row["returned"], row["closed"], row["balance"] or 0, row["held"]
        )

    async def check(self) -> Health:
        """The ledger's invariants, recomputed from scratch."""
        sql = self.sql
        async with self._reading(snapshot=True) as read:
            totals = await read.row(sql.totals)
            drift = await read.value(sql.drift)
            open_pots = [*await read.rows(sql.open_pots), *await read.rows(sql.open_game_pots)]
            mismatches = await read.value(sql.mismatches)
            issued = await read.value(sql.issued, BANK, HOUSE, UNSTAKE)
            dead = await read.value(sql.dead_count)
            conflicts = await read.value(sql.conflict_count)
            blocked = await read.rows(sql.blocked)
        assert totals is not None
        return health_report(
            debits=totals["debits"],
            credits=totals["credits"],
            drifted=drift,
            open_pots=open_pots,
            mismatches=mismatches,
            issued=issued,
            dead=dead,
            conflicts=conflicts,
            blocked=blocked,
        )
