"""After a run: was every acknowledged action applied exactly once, does every table's event log
hold together, and do the ledger's books agree with every table?"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import asyncpg
import httpx

from shared.settings import Settings


@dataclass
class Audit:
    actions_lost: int = 0  # acknowledged, but not in the event log
    actions_applied_twice: int = 0
    gaps: list[str] = field(default_factory=list)  # tables whose seq numbers skip or repeat
    ledger_ok: bool = False
    ledger_problems: list[str] = field(default_factory=list)
    tables_reconciled: int = 0
    tables_not_reconciled: list[str] = field(default_factory=list)
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


async def audit(
    settings: Settings,
    tables: Collection[str],
    acked: Collection[str],
    stacks: Mapping[str, int],
    within: float = 60.0,
) -> Audit:
    """``acked``: the request ids the gateway acknowledged; ``stacks``: each player's stack as
    their last view of their table shows it."""
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
    await _reconcile(settings, postings, result, within)
    async with httpx.AsyncClient(
        base_url=settings.ledger_url, timeout=10, headers=settings.ledger_auth()
    ) as ledger:
        for player_id, stack in stacks.items():
            balance = (await ledger.get(f"/players/{player_id}/balance")).json()["balance"]
            if balance != stack:
                result.wallets_differing.append(f"{player_id}: table {stack}, ledger {balance}")
    return result


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
