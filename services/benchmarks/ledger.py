"""``swick bench ledger``: concurrent tables posting realistic hands through ``Ledger.apply``.

The benchmark makes its own throwaway database (``swick_bench_<hex>``) on the server of
``SWICK_DATABASE_URL`` (or the local default), migrates a ledger into it, opens six wallets per
table, and then keeps ``tables`` table loops busy for ``seconds``: each loop plays hands as a
table would post them, in order, one posting at a time (an antes posting, then a settlement
posting that pays the whole pot out and charges set penalties into the carry), with the
table's own view of the stacks for reconciliation. The database is dropped at the end.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from dataclasses import asdict, dataclass

from services.ledger.ledger import Ledger, wallet
from services.load.platform import fresh_database
from services.progress import SILENT, Progress, wait
from shared.messages import Leg, Posting
from shared.postgres import connect_pool
from shared.settings import DEFAULT_DATABASE

PLAYERS = 6  # wallets per table
ANTE = 30


@dataclass(frozen=True, slots=True)
class LedgerFigures:
    tables: int
    seconds: float
    cpu_seconds: float  # of this process (the tables' side); PostgreSQL's own is not counted
    hands: int
    postings: int
    transfers: int
    transfers_per_second: float
    postings_per_second: float
    apply_p50_ms: float
    apply_p99_ms: float
    not_applied: int  # postings that came back other than "applied" (should be 0)
    healthy: bool  # ``Ledger.check().ok`` after the run


class TableLoop:
    """One table's postings: hands of 3 to 6 players, each an antes and a settlement posting."""

    def __init__(self, ledger: Ledger, table_id: str, rng: random.Random) -> None:
        self.ledger = ledger
        self.table_id = table_id
        self.rng = rng
        self.players = [f"{table_id}-p{seat}" for seat in range(PLAYERS)]
        self.stacks: dict[str, int] = {}
        self.carry = 0
        self.pot = 0
        self.posting_no = 0
        self.hand_no = 0
        self.latencies: list[float] = []
        self.legs = 0
        self.hands = 0
        self.not_applied = 0

    async def sit_down(self) -> None:
        for player in self.players:
            # Bots, staked by the house, seated at this table (so its postings may name them).
            self.stacks[player] = await self.ledger.seat(player, player, True, None, self.table_id)

    def _posting(self, legs: list[Leg], involved: list[str]) -> Posting:
        self.posting_no += 1
        return Posting(
            id=f"{self.table_id}:{self.posting_no}",
            table_id=self.table_id,
            posting_no=self.posting_no,
            hand_no=self.hand_no,
            legs=tuple(legs),
            stacks={player: self.stacks[player] for player in involved},
            names={},
        )

    def _antes(self) -> tuple[Posting, list[str]]:
        """Deal a hand: the carry (if any) and 3 to 6 antes go into the pot, 3 to 6 legs."""
        pot = f"pot:{self.table_id}"
        able = [p for p in self.players if self.stacks[p] >= ANTE]
        self.rng.shuffle(able)
        legs: list[Leg] = []
        if self.carry:
            carry = f"carry:{self.table_id}"
            legs.append(Leg(debit=carry, credit=pot, amount=self.carry, code="carry_in"))
        hand = able[: self.rng.randint(3, 6 - len(legs))]
        for player in hand:
            self.stacks[player] -= ANTE
            legs.append(Leg(debit=wallet(player), credit=pot, amount=ANTE, code="ante"))
        self.pot = self.carry + ANTE * len(hand)
        self.carry = 0
        return self._posting(legs, hand), hand

    def _settlement(self, hand: list[str]) -> Posting:
        """Settle the hand: the pot pays out completely to 1 to 3 winners and some losers pay a
        set penalty into the carry (which may leave them below zero), 3 to 6 legs."""
        pot, carry = f"pot:{self.table_id}", f"carry:{self.table_id}"
        winners = self.rng.sample(hand, self.rng.randint(1, min(3, len(hand))))
        losers = [p for p in hand if p not in winners]
        low, high = max(0, 3 - len(winners)), min(len(losers), 6 - len(winners))
        sets = self.rng.sample(losers, self.rng.randint(low, high))
        legs: list[Leg] = []
        left = self.pot
        for i, player in enumerate(winners):
            amount = left if i == len(winners) - 1 else left // (len(winners) - i)
            left -= amount
            self.stacks[player] += amount
            legs.append(Leg(debit=pot, credit=wallet(player), amount=amount, code="trick_payout"))
        for player in sets:
            penalty = self.rng.choice((ANTE, 2 * ANTE))
            self.stacks[player] -= penalty
            self.carry += penalty
            legs.append(Leg(debit=wallet(player), credit=carry, amount=penalty, code="set_1"))
        self.pot = 0
        return self._posting(legs, winners + sets)

    async def _apply(self, posting: Posting) -> None:
        before = time.perf_counter()
        outcome = await self.ledger.apply(posting)
        self.latencies.append(time.perf_counter() - before)
        if outcome == "applied":
            self.legs += len(posting.legs)
        else:
            self.not_applied += 1

    async def run(self, until: float) -> None:
        while time.perf_counter() < until:
            if sum(self.stacks[p] >= ANTE for p in self.players) < 3:
                return  # the table breaks up
            self.hand_no += 1
            antes, hand = self._antes()
            await self._apply(antes)
            await self._apply(self._settlement(hand))
            self.hands += 1


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(
    dsn: str, seconds: float, tables: int, seed: int = 1, progress: Progress = SILENT
) -> LedgerFigures:
    """Run the benchmark against an empty database at ``dsn``."""
    pool = await connect_pool(dsn)
    try:
        ledger = Ledger(pool)
        await ledger.migrate()
        rng = random.Random(seed)
        loops = [
            TableLoop(ledger, f"bench{k}", random.Random(rng.getrandbits(64)))
            for k in range(tables)
        ]
        progress.stage(f"opening {tables * PLAYERS} wallets")
        await asyncio.gather(*(loop.sit_down() for loop in loops))
        progress.stage(f"{tables} tables posting", seconds)
        started, started_cpu = time.perf_counter(), time.process_time()
        ticking = asyncio.create_task(wait(progress, seconds))
        try:
            await asyncio.gather(*(loop.run(started + seconds) for loop in loops))
        finally:
            ticking.cancel()
        elapsed, cpu_seconds = time.perf_counter() - started, time.process_time() - started_cpu
        progress.stage("checking the books")
        healthy = (await ledger.check()).ok
    finally:
        await pool.close()
    latencies = [value for loop in loops for value in loop.latencies]
    legs = sum(loop.legs for loop in loops)
    return LedgerFigures(
        tables=tables,
        seconds=round(elapsed, 3),
        cpu_seconds=round(cpu_seconds, 3),
        hands=sum(loop.hands for loop in loops),
        postings=len(latencies),
        transfers=legs,
        transfers_per_second=round(legs / elapsed, 1),
        postings_per_second=round(len(latencies) / elapsed, 1),
        apply_p50_ms=round(_percentile(latencies, 0.50) * 1000, 3),
        apply_p99_ms=round(_percentile(latencies, 0.99) * 1000, 3),
        not_applied=sum(loop.not_applied for loop in loops),
        healthy=healthy,
    )


async def run(
    seconds: float = 10,
    tables: int = 32,
    server: str | None = None,
    progress: Progress = SILENT,
) -> LedgerFigures:
    """Create a temporary database on ``server``, benchmark the ledger in it, drop it."""
    server = server or os.environ.get("SWICK_DATABASE_URL", DEFAULT_DATABASE)
    async with fresh_database(server, "bench") as dsn:
        return await measure(dsn, seconds, tables, progress=progress)


def report(figures: LedgerFigures) -> dict[str, object]:
    return {"benchmark": "ledger", **asdict(figures)}


def describe(f: LedgerFigures) -> str:
    return (
        f"ledger, {f.tables} tables: {f.transfers_per_second:,.0f} transfers/s, "
        f"{f.postings_per_second:,.0f} postings/s ({f.transfers:,} transfers in "
        f"{f.postings:,} postings, {f.hands:,} hands, {f.seconds:.2f} s, "
        f"{f.cpu_seconds:.2f} s of CPU here); "
        f"apply p50 {f.apply_p50_ms:.2f} ms, p99 {f.apply_p99_ms:.2f} ms; "
        f"{'healthy' if f.healthy else 'NOT HEALTHY'}"
        + (f", {f.not_applied} postings not applied" if f.not_applied else "")
    )
