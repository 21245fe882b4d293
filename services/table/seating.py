"""The bots a table seats itself: in place of a bot that does not answer, and in a seat left
during a game that cannot go on a player short."""

from __future__ import annotations

import logging

from services.table.commands import Commands
from services.table.context import WorkerContext
from services.table.refusals import Refused
from services.table.stakes import UNSTAKED
from services.table.tables import LiveTable
from shared.bot_names import BOT_NAMES
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import AddBot, Leave, Player

log = logging.getLogger("swick.table")

FILLING_BOT = "medium"  # the level of a bot the table seats in a seat left during a game


def bot_player(table_id: str, seat: int, name: str) -> Player:
    """A bot's identity: one per table and seat, so it has a wallet of its own."""
    return Player(f"bot:{table_id}:{seat}", BOT_NAMES[seat % len(BOT_NAMES)], name)


def filling_bot(table_id: str, seat: int, seq: int) -> Player:
    """A bot the table seats itself (for an unanswering bot, or in a seat left during a game):
    an identity (and wallet) of its own per seating, so each bot settles its chips apart, named
    from the table's state (seat and seq) so that any worker seats the same one."""
    return Player(f"bot:{table_id}:{seat}:{seq}", BOT_NAMES[seat % len(BOT_NAMES)], FILLING_BOT)


def seats_to_fill(table: LiveTable) -> bool:
    """Whether the table has a seat a bot should take now (``replace_unanswering_bots``,
    ``fill_left_seats``)."""
    g = table.game
    if g.phase(table.state) in ("lobby", "ended", "closed"):
        return False
    return bool(g.left_by_bots(table.state)) or (
        g.form.bot_fills_left_seat and None in g.players(table.state)
    )


class Seating:
    def __init__(self, ctx: WorkerContext, commands: Commands) -> None:
        self.ctx = ctx
        self.commands = commands

    async def replace_unanswering_bots(self, table: LiveTable) -> None:
        """A bot that timed out twice running (away, as a person would be) leaves its seat,
        at once between hands, at the hand's end during one (played by the defaults until
        then), and the filling bot takes it: a dead bots service holds no game hostage. The
        filling bot itself is kept (its replacement would be served by the same service).
        The seats to fill are the table's state (``left_by_bots``), so a worker that takes the
        table over between the leaving and the seating seats the bot all the same."""
        g = table.game
        if g.phase(table.state) in ("lobby", "ended", "closed"):
            return
        for seat, away in enumerate(g.away(table.state)):
            player = g.players(table.state)[seat]
            if player is None or not away or player.bot is None or player.bot == FILLING_BOT:
                continue
            seq = g.seq(table.state)
            leave = Command(
                actor=seat,
                action=Leave(),
                action_id=f"replace:{seat}:{seq}",
                seq=seq,
                at=self.ctx.now_ms(),
            )
            try:
                after, _ = g.step(table.state, leave)
            except IllegalCommand:
                continue  # leaving already, at the end of the hand
            if g.phase(after) == "closed":
                continue  # it was the last to play with the people gone: the table closes anyway
            if await self.commands.apply_command(table, leave, None):
                log.info(
                    "replacing a bot that does not answer",
                    extra={"table": table.row.table_id, "seat": seat, "bot": player.bot},
                )
        for seat in g.left_by_bots(table.state):
            if g.phase(table.state) not in ("lobby", "ended", "closed"):
                await self._seat_filling_bot(table, seat, "replace-bot")

    async def fill_left_seats(self, table: LiveTable) -> None:
        """At a game that cannot go on a player short (``bot_fills_left_seat``), a seat left
        empty during a game is taken at once by a medium bot, marked as a bot like any other.
        Its action id and its id name the seat and the table's seq, so a redelivery seats it
        once, and no two bots seated there share a wallet."""
        g = table.game
        if not g.form.bot_fills_left_seat or g.phase(table.state) in ("lobby", "ended", "closed"):
            return
        for seat, player in enumerate(g.players(table.state)):
            if player is None:
                await self._seat_filling_bot(table, seat, "fill")

    async def _seat_filling_bot(self, table: LiveTable, seat: int, why: str) -> None:
        """Seat the table's own bot in ``seat``, under an action id naming ``why``, the seat and
        the table's seq (a redelivery seats it once). A cashier that does not answer leaves the
        seat empty until the table's next request."""
        seq = table.game.seq(table.state)
        action = AddBot(seat, filling_bot(table.row.table_id, seat, seq), UNSTAKED)
        try:
            await self.commands.apply(table, None, action, f"{why}:{seat}:{seq}", 0, None, False)
        except Refused as refusal:
            log.warning(
                "could not seat the table's bot: %s",
                refusal.message,
                extra={"table": table.row.table_id, "seat": seat},
            )
