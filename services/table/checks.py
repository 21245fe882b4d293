"""Who may ask what: a gateway speaks for people (any request but a timer's tick, never an
action of a bot's seat); a bot's user acts only for the seats of its own bot name; the
worker's own user sends ticks. Anything else is dropped with a log line, unanswered."""

from __future__ import annotations

from services.table.refusals import Forbidden
from services.table.tables import LiveTable
from shared import messages as m
from shared.bus import Topology
from shared.games.lifecycle import TABLE_ACTION_KINDS


def check_sender(
    topology: Topology, request: m.Request, sender: str | None, bot: str | None
) -> None:
    """Raise ``Forbidden`` unless ``sender`` (the broker's word) may send ``request``."""
    t = topology
    if bot is not None:
        if not isinstance(request, m.Act):
            raise Forbidden("a bot may only act")
        if request.action.get("kind") in TABLE_ACTION_KINDS:
            # Sitting out, leaving, seating or starting are for people and the table: a
            # bot that sat out would hold its seat, and the game, for ever.
            raise Forbidden("a bot makes only its game decisions")
    elif sender == t.user("table"):
        if not isinstance(request, m.Tick) and not (
            isinstance(request, m.Presence) and request.due
        ):
            raise Forbidden("a table worker only sends its timers' ticks and presence checks")
    elif sender == t.user("gateway"):
        if isinstance(request, m.Tick) or (isinstance(request, m.Presence) and request.due):
            raise Forbidden("only a table worker sends ticks and presence checks")
    else:
        raise Forbidden("not a user of this platform's services")


def check_actor(table: LiveTable, actor: int | None, bot: str | None) -> None:
    """A bot acts only for a seat of its own bot name; a gateway never for a bot's seat."""
    player = None if actor is None else table.game.players(table.state)[actor]
    held_by = None if player is None else player.bot
    if bot is not None and held_by != bot:
        raise Forbidden(f"the bot {bot} does not hold that seat")
    if bot is None and held_by is not None:
        raise Forbidden("a gateway does not act for a bot's seat")
