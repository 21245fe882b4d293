"""After a run: was every acknowledged action applied exactly once, does every table's event log
hold together, and do the ledger's books agree with every table?"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

import asyncpg
import httpx

from services.table.store import TableStore
from services.table.tables import load as load_table
from shared.postgres import connect_pool
from shared.settings import Settings


@dataclass
class Audit:
    actions_lost: int = 0  # acknowledged, but not in the event log
    actions_applied_twice: int = 0
    gaps: list[str] = field(default_factory=list)  # tables whose seq numbers skip or repeat
    ledger_ok: bool = False
    ledger_problems: list[str] = field(default_factory=list)
    tables_reconciled: int = 0
    postings: int = 0  # the tables' postings (money moved), all applied once reconciled
    tables_not_reconciled: list[str] = field(default_factory=list)
    wallets_checked: int = 0
    wallets_differing: list[str] = field(default_factory=list)  # ledger balance != table stack
    set_aside: int = 0  # postings the ledger dead-lettered (refused, kept for an operator)
    conflicts: int = 0  # postings whose number was applied with another body

    @property
    def ok(self) -> bool:
        return (
            not self.actions_lost
            and not self.actions_applied_twice
            and not self.gaps
            and self.ledger_ok
            and not self.tables_not_reconciled
            and not self.wallets_differing
        )

    @classmethod
    def combined(cls, parts: Iterable[Audit]) -> Audit:
        """The audits of parts of a run (its games) as one: the ledger's own checks are the
        whole ledger's in each part, and hold only if they held in all."""
        total = cls(ledger_ok=True)
        for part in parts:
            total.actions_lost += part.actions_lost
            total.actions_applied_twice += part.actions_applied_twice
            total.gaps += part.gaps
            total.ledger_ok = total.ledger_ok and part.ledger_ok
            total.ledger_problems += [
                problem for problem in part.ledger_problems if problem not in total.ledger_problems
            ]
            total.tables_reconciled += part.tables_reconciled
            total.postings += part.postings
            total.wallets_checked += part.wallets_checked
            total.tables_not_reconciled += part.tables_not_reconciled
            total.wallets_differing += part.wallets_differing
            total.set_aside = max(total.set_aside, part.set_aside)
            total.conflicts = max(total.conflicts, part.conflicts)
        return total


async def audit(
    settings: Settings,
    tables: Collection[str],
    acked: Collection[str],
    people: Collection[str],
    shown: Mapping[str, int],
    within: float = 60.0,
) -> Audit:
    """``acked``: the request ids the gateway acknowledged; ``people``: the players whose
    wallets must equal their stack at their table (as the table's own state has it); ``shown``:
    each one's stack as their last view shows it, in the games whose views show one (it must
    be the same)."""
    result = Audit()
    conn = await asyncpg.connect(settings.database_url)
    try:
        logged = await conn.fetch(
            "SELECT action_id, count(*) AS n FROM tables.events"
            " WHERE action_id = ANY($1::text[]) GROUP BY action_id",
            list(acked),
        )
        counts = {row["action_id"]: row["n"] for row in logged}
        result.actions_lost = sum(1 for request_id in acked if request_id not in counts)
        result.actions_applied_twice = sum(1 for n in counts.values() if n > 1)
        broken = await conn.fetch(
            "SELECT table_id FROM tables.events WHERE table_id = ANY($1::text[])"
            " GROUP BY table_id HAVING count(*) <> max(seq) - min(seq) + 1"
            " OR count(DISTINCT seq) <> count(*)",
            list(tables),
        )
        result.gaps = [row["table_id"] for row in broken]
        postings = {
            row["table_id"]: row["postings"]
            for row in await conn.fetch(
                "SELECT table_id, postings FROM tables.tables WHERE table_id = ANY($1::text[])",
                list(tables),
            )
        }
    finally:
        await conn.close()
    result.postings = sum(postings.values())
    await _reconcile(settings, postings, result, within)
    stacks = await stacks_at(settings, tables)
    async with httpx.AsyncClient(
        base_url=settings.ledger_url, timeout=10, headers=settings.ledger_auth()
    ) as ledger:
        for player_id in people:
            result.wallets_checked += 1
            stack = stacks.get(player_id)
            if stack is None:
                result.wallets_differing.append(f"{player_id}: not seated at their table")
                continue
            balance = (await ledger.get(f"/players/{player_id}/balance")).json()["balance"]
            seen = shown.get(player_id, stack)
            if balance != stack or seen != stack:
                result.wallets_differing.append(
                    f"{player_id}: table {stack}, own view {seen}, ledger {balance}"
                )
    return result


async def stacks_at(settings: Settings, tables: Collection[str]) -> dict[str, int]:
    """Each seated player's stack at ``tables``, as each table's state has it (rebuilt from
    its snapshot and log through its game module, as a worker loads it): a game's views need
    not show a seat's chips, but every table's state holds them."""
    pool = await connect_pool(settings.database_url, size=1)
    try:
        store = TableStore(pool)
        found: dict[str, int] = {}
        for table_id in tables:
            table = await load_table(store, {}, table_id)
            if table is None:
                continue
            module, state = table.game, table.state
            for player, stack in zip(module.players(state), module.stacks(state), strict=True):
                if player is not None:
                    found[player.id] = stack
        return found
    finally:
        await pool.close()


async def behind(settings: Settings, tables: Collection[str], within: float) -> list[str]:
    """The tables whose postings, as many as they have made now, the ledger has not all
    applied within ``within`` seconds (none: it keeps up)."""
    conn = await asyncpg.connect(settings.database_url)
    try:
        rows = await conn.fetch(
            "SELECT table_id, postings FROM tables.tables WHERE table_id = ANY($1::text[])",
            list(tables),
        )
    finally:
        await conn.close()
    waiting = {row["table_id"]: row["postings"] for row in rows}
    deadline = time.monotonic() + within
    async with httpx.AsyncClient(
        base_url=settings.ledger_url, timeout=10, headers=settings.ledger_auth()
    ) as ledger:
        while waiting and time.monotonic() < deadline:
            for table_id, count in list(waiting.items()):
                try:
                    reply = await ledger.get(f"/tables/{table_id}/reconciliation")
                except httpx.TransportError:
                    break  # the ledger may be restarting
                if reply.status_code == 200 and reply.json()["postings_applied"] >= count:
                    del waiting[table_id]
            if waiting:
                await asyncio.sleep(0.5)
    return sorted(waiting)


async def _reconcile(
    settings: Settings, postings: dict[str, int], result: Audit, within: float
) -> None:
    """Wait for the ledger to apply every table's postings, then compare the books."""
    deadline = time.monotonic() + within
    waiting = dict(postings)
    async with httpx.AsyncClient(
        base_url=settings.ledger_url, timeout=10, headers=settings.ledger_auth()
    ) as ledger:
        while waiting:
            for table_id, count in list(waiting.items()):
                try:
                    reply = await ledger.get(f"/tables/{table_id}/reconciliation")
                except httpx.TransportError:
                    break  # the ledger may be restarting
                report = reply.json()
                if report["postings_applied"] >= count:
                    del waiting[table_id]
                    if report["matches"]:
                        result.tables_reconciled += 1
                    else:
                        result.tables_not_reconciled.append(table_id)
            if waiting and time.monotonic() > deadline:
                result.tables_not_reconciled += sorted(waiting)
                break
            if waiting:
                await asyncio.sleep(0.5)
        health = (await ledger.get("/health")).json()
    result.ledger_ok = bool(health.get("balanced"))
    result.set_aside = int(health.get("dead_letters", 0))
    result.conflicts = int(health.get("conflicts", 0))
    if not result.ledger_ok:
        result.ledger_problems = [f"{key}: {value}" for key, value in health.items()]
