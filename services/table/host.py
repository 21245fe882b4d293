"""The table host: turns each request into commands. It checks who sent it (the broker vouches
for its user, ``checks.py``), then creates, joins, acts, reports presence, syncs or ticks, and
seats the bots the table needs after each request."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from services.table.action_ids import bot_action_id
from services.table.bot_relay import sender as relayed_sender
from services.table.checks import check_actor, check_sender
from services.table.closing import close_at
from services.table.commands import Commands
from services.table.context import WorkerContext
from services.table.presence_reports import PresenceReports
from services.table.publisher import Publisher
from services.table.refusals import Forbidden, Refused
from services.table.seating import Seating, bot_player
from services.table.stakes import UNSTAKED
from services.table.storage import TableRow, TooManyTables
from services.table.tables import LiveTable, load, seat_of
from services.table.timers import Timers
from shared import messages as m
from shared.bus import Delivery, shard_of
from shared.fairness import new_seed
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import AddBot, CloseTable, Player, StartGame, TakeSeat
from shared.games.registry import game
from shared.sampled_log import SampledLog

log = logging.getLogger("swick.table")

MAX_REQUEST_BYTES = 16_384


@dataclass(eq=False)
class TableHost:
    ctx: WorkerContext
    publisher: Publisher
    commands: Commands
    seating: Seating
    presence: PresenceReports
    timers: Timers
    host_tables: int | None  # open tables one player may host
    # a flood of forbidden requests writes a line now and then
    _forbidden: SampledLog = field(init=False, default_factory=lambda: SampledLog(log))

    async def handle(self, shard: int, delivery: Delivery) -> None:
        if len(delivery.body) > MAX_REQUEST_BYTES:
            log.warning("dropped an oversized request")
            return
        try:
            request = m.REQUEST.validate_json(delivery.body)
        except ValidationError as error:
            log.warning("dropped a malformed request: %s", error.errors()[:1])
            return
        if shard_of(request.table_id, self.ctx.shards) != shard:
            log.warning("dropped a request on the wrong shard", extra={"table": request.table_id})
            return
        sender, bot = relayed_sender(request, delivery.user_id, self.ctx.bus.topology)
        try:
            check_sender(self.ctx.bus.topology, request, sender, bot)
        except Forbidden as forbidden:
            self._forbid(request, sender, str(forbidden))
            return
        if isinstance(request, m.CreateTable):
            await self._create(shard, request)
            return
        table = await load(self.ctx.store, self.ctx.tables, request.table_id)
        if table is None:
            if bot is None:
                await self.publisher.refuse(request, "no_table", "There is no such table")
            return
        try:
            if isinstance(request, m.Act):
                actor = seat_of(table, request.player_id)
                check_actor(table, actor, bot)
                if actor is None:
                    raise Refused("not_seated", "Take a seat at this table first")
                action = await self._action(table, actor, request.action)
                # A gateway files each person's ids under their player id already; a bot's
                # are filed under its seat's by the table, whatever it sent.
                action_id = request.request_id
                if bot is not None:
                    action_id = bot_action_id(request.player_id, request.request_id)
                await self.commands.apply(table, actor, action, action_id, request.seq, request)
            elif isinstance(request, m.Join):
                await self._join(table, request)
            elif isinstance(request, m.Presence):
                check_actor(table, seat_of(table, request.player_id), bot)
                await self.presence.handle(table, request)
            elif isinstance(request, m.Sync):
                await self.publisher.publish(table, None, snapshot_for=request.player_id or "*")
            elif isinstance(request, m.Tick):
                await self._tick(table, request)
            await self.seating.replace_unanswering_bots(table)
            await self.seating.fill_left_seats(table)
        except Refused as refusal:
            await self.publisher.refuse(request, refusal.code, refusal.message)
        except Forbidden as forbidden:
            self._forbid(request, sender, str(forbidden))

    def _forbid(self, request: m.Request, sender: str | None, reason: str) -> None:
        self.ctx.metrics.commands.labels("forbidden").inc()
        self._forbidden.warning(
            "dropped a request its sender may not make: %s",
            reason,
            extra={"table": request.table_id, "request": request.request_id, "sender": sender},
        )

    async def _action(self, table: LiveTable, actor: int, data: dict[str, Any]) -> Any:
        """A player's action, with what the table supplies itself (a seed, a bot's identity)."""
        kind = data.get("kind")
        if kind == "start_game":
            return StartGame(new_seed().hex())
        if kind == "add_bot":
            seat, level = data.get("seat"), data.get("bot", "medium")
            if (
                not isinstance(seat, int)
                or isinstance(seat, bool)
                or not isinstance(level, str)
                or not m.BOT_NAME.fullmatch(level)
            ):
                raise Refused("malformed", "add_bot takes a seat and a bot: easy, medium, hard...")
            await self._registered(level)
            return AddBot(seat, bot_player(table.row.table_id, seat, level), UNSTAKED)
        if kind in ("take_seat", "set_connected", "timeout", "close_table"):
            raise Refused("not_allowed", "Only the table itself can do that")
        try:
            return table.game.load_action(data)
        except IllegalCommand as error:
            raise Refused(error.code, error.message) from None

    async def _registered(self, name: str) -> None:
        """Only a registered bot takes a seat (and gets a wallet)."""
        if await self.ctx.store.bot_account(name) is None:
            raise Refused("unknown_bot", f"No bot named {name}: seat easy, medium, hard...")

    async def _create(self, shard: int, request: m.CreateTable) -> None:
        store = self.ctx.store
        expired = request.expires_at is not None and self.ctx.now_ms() > request.expires_at
        if expired and await store.table(request.table_id) is None:
            await self.publisher.refuse(
                request, "expired", "The table was not opened in time: try again"
            )
            return  # (one begun in time is finished as usual below)
        g = game(request.game)
        try:
            config = g.make_config(request.settings)
        except IllegalCommand as error:
            await self.publisher.refuse(request, error.code, error.message)
            return
        state = g.new_table(config)
        row = TableRow(
            request.table_id,
            g.name,
            shard,
            dict(request.settings),
            bool(request.settings.get("private", False)),
            request.invite_code,
            0,
            g.phase(state),
            [None] * len(g.players(state)),
            None,
            request.host_id,
        )
        try:
            created = await store.create(row, self.host_tables)
        except TooManyTables:
            await self.publisher.refuse(
                request,
                "too_many_tables",
                f"You already host {self.host_tables} open tables: play at one of them, or wait"
                " for them to close",
            )
            return
        if created:
            table = LiveTable(row, g, state)
            self.ctx.tables[row.table_id] = table
        else:
            existing = await load(store, self.ctx.tables, request.table_id)
            if existing is None or existing.row.invite_code != request.invite_code:
                await self.publisher.refuse(request, "exists", "That table exists already")
                return
            table = existing  # redelivered: a worker stopped part way through setting it up
        await self._set_up(table, request)

    async def _set_up(self, table: LiveTable, request: m.CreateTable) -> None:
        """Seat the host, then the bots, then deal if asked: each step that is not done yet,
        so a redelivered request finishes what its first delivery began. The request is
        answered once the table stands as asked; a table that cannot be set up closes."""
        g, rid, apply = table.game, request.request_id, self.commands.apply
        done = True
        try:
            if g.players(table.state)[0] is None:
                seat_host = TakeSeat(0, Player(request.host_id, request.host_name), UNSTAKED)
                done = await apply(table, None, seat_host, f"{rid}:host", 0, request, False)
            for seat, level in sorted(request.bots.items()):
                if done and g.players(table.state)[seat] is None:
                    await self._registered(level)
                    action = AddBot(seat, bot_player(table.row.table_id, seat, level), UNSTAKED)
                    done = await apply(table, 0, action, f"{rid}:bot:{seat}", 0, request, False)
            if done and request.start and g.phase(table.state) == "lobby":
                start = StartGame(new_seed().hex())
                done = await apply(table, 0, start, f"{rid}:start", 0, request, False)
        except Refused as refusal:
            await self.publisher.refuse(request, refusal.code, refusal.message)
            done = False
        if not done:
            await apply(table, None, CloseTable(), f"{rid}:close", 0, None)
            return
        outcome = m.Outcome(request_id=rid, player_id=request.host_id, ok=True)
        await self.publisher.publish(table, outcome)

    async def _join(self, table: LiveTable, request: m.Join) -> None:
        if table.game.phase(table.state) == "closed":
            raise Refused("table_closed", "This table has closed: find another in the lobby")
        elsewhere = await self.ctx.store.seat_of(request.player_id)
        if elsewhere is not None and elsewhere[0] != table.row.table_id:
            raise Refused("seated_elsewhere", "You already have a seat at another table")
        players = table.game.players(table.state)
        seat = request.seat
        if seat is None:
            seat = next((i for i, p in enumerate(players) if p is None), None)
            if seat is None:
                raise Refused("table_full", "Every seat at this table is taken")
        action = TakeSeat(seat, Player(request.player_id, request.name), UNSTAKED)
        await self.commands.apply(table, None, action, request.request_id, 0, request)

    async def _tick(self, table: LiveTable, tick: m.Tick) -> None:
        """A table's deadline passed: decide its timeout, or close it if nobody attends it."""
        g, state = table.game, table.state
        if g.seq(state) != tick.seq:
            return  # the table moved on since: it was armed again then
        now = self.ctx.now_ms()
        deadline = g.deadline(state)
        closing = close_at(g, state, self.ctx.abandon_ms)
        if deadline is not None and now >= deadline:
            command = g.timeout(state, f"timeout:{tick.seq}", now)
            if await self.commands.apply_command(table, command, None):
                self.ctx.metrics.timeouts.inc()
                log.info(
                    "decided on a timeout", extra={"table": table.row.table_id, "seq": tick.seq}
                )
        elif closing is not None and now >= closing:
            close = Command(
                actor=None,
                action=CloseTable(self.ctx.abandon_ms),
                action_id=f"close:{tick.seq}",
                seq=tick.seq,
                at=now,
            )
            if await self.commands.apply_command(table, close, None):
                log.info("closing an abandoned table", extra={"table": table.row.table_id})
        else:
            self.timers.arm(table)
