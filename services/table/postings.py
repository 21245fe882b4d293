"""The ledger's postings of the tables' chip movements: built with each command, committed
with it in the outbox, then published off the command path in commit order (so no table waits
for the broker's confirms); what a crash left in the outbox goes out with the relay."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from services.table.context import WorkerContext
from shared import messages as m
from shared.games.interface import Transfer
from shared.games.lifecycle import Player

RELAY_SECONDS = 2.0  # how often, and after how long, the relay sends what is left


def account(table_id: str, name: str) -> str:
    """The ledger's name of a leg's account: a table's pot and carry are its own."""
    return name if name.startswith("wallet:") or name == m.HOUSE else f"{name}:{table_id}"


def posting(
    table_id: str,
    seq: int,
    moves: Sequence[Transfer],
    players: Sequence[Player | None],
    stacks: Sequence[int],
    game: str = "swick",
) -> Callable[[int], dict[str, Any]]:
    """The posting of one command's chip movements, once its number is known.

    It carries the stacks the table holds afterwards for every player it touches (their stack
    before plus what the legs moved), so the ledger can check its wallets against them.
    """
    seated = {p.id: (p, stack) for p, stack in zip(players, stacks, strict=True) if p is not None}
    net = dict.fromkeys((pid for pid in seated), 0)
    for t in moves:
        for name, sign in ((t.debit, -1), (t.credit, 1)):
            if name.startswith("wallet:"):
                net[name.removeprefix("wallet:")] += sign * t.amount
    touched = [pid for pid in seated if any(pid in (t.debit[7:], t.credit[7:]) for t in moves)]

    def body(number: int) -> dict[str, Any]:
        return m.Posting(
            id=f"{table_id}:{seq}",
            table_id=table_id,
            posting_no=number,
            hand_no=moves[0].hand_no,
            legs=tuple(
                m.Leg(
                    debit=account(table_id, t.debit),
                    credit=account(table_id, t.credit),
                    amount=t.amount,
                    code=t.code,
                )
                for t in moves
            ),
            stacks={pid: seated[pid][1] + net[pid] for pid in touched},
            names={pid: seated[pid][0].name for pid in touched},
            bots=tuple(pid for pid in touched if seated[pid][0].bot is not None),
            game=game,
        ).model_dump(mode="json")

    return body


class PostingsPublisher:
    def __init__(self, ctx: WorkerContext) -> None:
        self.ctx = ctx
        self.committed: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()  # outbox rows to send

    async def publish(self) -> None:
        """Publish the postings of committed commands, then clear them from the outbox in
        batches. A crash in between leaves them to ``relay_outbox`` (the ledger applies a
        posting once, however often it arrives)."""
        while True:
            batch = [await self.committed.get()]
            while not self.committed.empty():
                batch.append(self.committed.get_nowait())
            await self._post(batch)

    async def relay_outbox(self) -> None:
        """Postings whose publication after commit did not happen (a crash) go out here."""
        while True:
            await asyncio.sleep(RELAY_SECONDS)
            if self.ctx.owned:
                rows = await self.ctx.store.outbox(list(self.ctx.owned), older_than=RELAY_SECONDS)
                await self._post(rows)

    async def _post(self, rows: Sequence[tuple[int, Any]]) -> None:
        """Publish outbox rows in order, then clear them from the outbox."""
        for _, body in rows:
            await self.ctx.bus.publish_posting(json.dumps(body).encode())
        await self.ctx.store.sent([row_id for row_id, _ in rows])
