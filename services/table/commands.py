"""Commands: decided with the game, logged under the shard's lease (fenced), then followed up:
the request answered, each seat's view published, the bots whose turn it is woken, the
postings sent from the outbox and the table's deadline armed. Within a batch the log write is
staged, and all that follows it waits for the batch's commit."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.table.bot_turns import BotTurns
from services.table.context import WorkerContext
from services.table.postings import PostingsPublisher, posting
from services.table.publisher import Publisher
from services.table.recorder import Recorder
from services.table.stakes import Stakes
from services.table.storage import Append, DuplicateAction, Fenced, Queued, SeatConflict, Write
from services.table.tables import LiveTable
from services.table.timers import Timers
from services.table.wallets import returned_stakes
from shared import messages as m
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import AddBot, TakeSeat

log = logging.getLogger("swick.table")

Answerable = m.Act | m.Join | m.CreateTable  # the requests that hear how their command went


@dataclass(eq=False)
class Commands:
    ctx: WorkerContext
    publisher: Publisher
    bot_turns: BotTurns
    timers: Timers
    recorder: Recorder
    postings: PostingsPublisher
    stakes: Stakes

    async def apply(
        self,
        table: LiveTable,
        actor: int | None,
        action: Any,
        action_id: str,
        seq: int,
        request: Answerable | None,
        answer: bool = True,
    ) -> bool:
        """Apply an action; ``request`` hears of a refusal, and of success if ``answer``."""
        command = Command(
            actor=actor, action=action, action_id=action_id, seq=seq, at=self.ctx.now_ms()
        )
        return await self.apply_command(table, command, request, answer)

    async def apply_command(
        self,
        table: LiveTable,
        command: Command[Any],
        request: Answerable | None,
        answer: bool = True,
    ) -> bool:
        g, before = table.game, table.state
        if isinstance(command.action, TakeSeat | AddBot):
            command = await self.stakes.staked(table, command)
        try:
            after, events = g.step(before, command)
        except IllegalCommand as refusal:
            if request is not None:
                await self.publisher.refuse(request, refusal.code, refusal.message)
                if refusal.code == "duplicate":
                    await self.publisher.resend(table, request)
            return False
        players_before, players_after = g.players(before), g.players(after)
        seats = [
            None if p is None else {"id": p.id, "name": p.name, "bot": p.bot} for p in players_after
        ]
        claims = [
            (p.id, seat)
            for seat, p in enumerate(players_after)
            if p is not None and p not in players_before
        ]
        releases = [p.id for p in players_before if p is not None and p not in players_after]
        moves = g.transfers(before, events)
        moves = [*moves, *returned_stakes(players_before, players_after, g.stacks(before), moves)]
        write = Write(
            seq=g.seq(after),
            action_id=command.action_id,
            events=[g.dump_event(event) for event in events],
            phase=g.phase(after),
            seats=seats,
            deadline=g.deadline(after),
            snapshot=g.dump_state(after) if any(g.checkpoint(e) for e in events) else None,
            posting=posting(
                table.row.table_id,
                g.seq(after),
                moves,
                players_before,
                g.stacks(before),
                table.row.game,
            )
            if moves
            else None,
            seat_claims=claims,
            seat_releases=releases,
        )
        epoch = self.ctx.owned.get(table.row.shard)
        if epoch is None:
            raise Fenced(f"shard {table.row.shard} is not ours")
        append = Append(table.row.table_id, table.row.shard, epoch, write)
        batch = self.ctx.batch
        if batch is not None:
            staged = batch.stage(table, after, append)
            pending = g.to_act(before)
            batch.sends.append(
                lambda: self._committed(
                    table, after, pending, command, write, request, answer, staged.queued
                )
            )
            return True
        try:
            queued = await self.ctx.store.append(
                table.row.table_id, table.row.shard, self.ctx.worker_id, epoch, write
            )
        except DuplicateAction:
            if request is not None:
                await self.publisher.refuse(request, "duplicate", "This action was already applied")
                await self.publisher.resend(table, request)
            return False
        except SeatConflict:
            if request is not None:
                await self.publisher.refuse(
                    request, "seated_elsewhere", "You already have a seat at another table"
                )
            return False
        table.state = after
        await self._committed(
            table, after, g.to_act(before), command, write, request, answer, queued
        )
        return True

    async def _committed(
        self,
        table: LiveTable,
        after: Any,
        pending_before: Sequence[int],
        command: Command[Any],
        write: Write,
        request: Answerable | None,
        answer: bool,
        queued: Queued | None,
    ) -> None:
        """What follows a command's commit: answers, views, bots' turns, postings, timers."""
        self.ctx.metrics.commands.labels("accepted").inc()
        if any(event.get("kind") == "game_ended" for event in write.events):
            self.recorder.record_game(table)
        if write.snapshot is not None:
            log.info("hand over", extra={"table": table.row.table_id, "seq": write.seq})
        outcome = None
        if request is not None and answer:
            outcome = m.Outcome(
                request_id=request.request_id,
                player_id=getattr(request, "player_id", getattr(request, "host_id", None)),
                ok=True,
            )
        await self.publisher.publish(table, outcome, state=after)
        await self.bot_turns.wake(table, pending_before, command.actor, state=after)
        if queued is not None:
            self.postings.committed.put_nowait(queued)
        self.timers.arm(table)
        if write.phase == "closed":
            log.info("closed", extra={"table": table.row.table_id})
            for check in table.presence_checks.values():
                check.cancel()  # no seat is left to check
            self.ctx.tables.pop(table.row.table_id, None)  # loaded again if ever asked about
