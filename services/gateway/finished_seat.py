"""A seat at a table whose game is over, left on the way to another table.

A player holds one seat at a time. When their game ends they keep it, so that the host can deal
a rematch to everyone still seated; but a player who goes elsewhere instead (quick play, a new
table, another's table) must not find themselves stuck with it. So opening or joining another
table first leaves a finished one, as "Back to the lobby" would; a seat at a table still in play
is left only by its player, and is refused as before.
"""

from __future__ import annotations

from services.gateway.identity import Identity
from services.gateway.state import Gateway
from services.gateway.table_requests import new_request_id, send_to_table
from shared import messages as m

GAME_OVER = "ended"  # a table's phase once its game is over, in every game
LEAVE_PATIENCE = 8.0  # seconds the finished table has to confirm the leave


class SeatHeld(Exception):
    """The player's seat is at a table still in play (or could not be left): ``message`` says
    which, as the player is told; ``code`` as a socket's refusal names it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def seat_game_over(gw: Gateway, table_id: str) -> bool:
    row = await gw.store.table(table_id)
    return row is not None and row.phase == GAME_OVER


async def leave_finished_seat(gw: Gateway, player: Identity, going_to: str | None = None) -> None:
    """Leave the player's seat if its game is over; nothing if they hold none (or hold it at
    ``going_to``, the table they are going to). Raises ``SeatHeld`` for a seat at a table in
    play, or when the finished table did not confirm the leave."""
    seat = await gw.store.seat_of(player.id)
    if seat is None or seat[0] == going_to:
        return
    table_id = seat[0]
    row = await gw.store.table(table_id)
    if row is None or row.phase != GAME_OVER:
        raise SeatHeld("seated_elsewhere", "You already have a seat at a table: leave it first")
    request = m.Act(
        table_id=table_id,
        request_id=new_request_id(player, "leave"),
        player_id=player.id,
        seq=row.seq,
        action={"kind": "leave"},
    )
    outcome = await gw.hub.outcome_of(
        table_id, request.request_id, lambda: send_to_table(gw, request), LEAVE_PATIENCE
    )
    if outcome is None:
        raise SeatHeld("unavailable", "Your last table did not let you go in time: try again")
    if not outcome.ok and outcome.code != "not_seated":  # already gone is as good as left
        raise SeatHeld(outcome.code, outcome.message)
