"""Opening a table: the settings a player asks for, checked, and the table created on its shard.

The player is seated at once (the host), with the bots they asked for; quick play opens the
game's default table with bots beside the player, dealt at once.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import HTTPException

from services.gateway.finished_seat import SeatHeld, leave_finished_seat
from services.gateway.identity import Identity
from services.gateway.models import OWN_SETTINGS, NewTable, QuickPlay, TableOut, form_of, table_out
from services.gateway.state import Gateway
from services.gateway.table_requests import send_to_table
from shared import messages as m
from shared.bus import BrokerUnavailable
from shared.games.interface import IllegalCommand
from shared.games.registry import game

CREATE_PATIENCE = 8.0  # seconds a table creation may take before it is answered 503
# The status of a table's refusal to be created, by its code (409 for the rest).
CREATE_REFUSED = {"cashier": 503, "bad_config": 422, "malformed": 422, "unknown_bot": 422}


def quick_table(body: QuickPlay) -> NewTable:
    """The table quick play opens: the game's default table, the player's bots beside them
    (``TableForm.quick_play``), dealt at once."""
    bots = form_of(body.game).quick_play
    return NewTable(
        game=body.game,
        seats=len(bots) + 1,
        bots=dict(enumerate(bots, start=1)),
        start=True,
    )


def table_settings(body: NewTable) -> dict[str, Any]:
    """The settings ``body`` asks of its game's ``make_config``: the game's defaults for those
    left out; 422 for an unknown game or a setting the game does not have."""
    form = form_of(body.game)
    given = {name for name in body.model_fields_set if getattr(body, name) is not None}
    for name in OWN_SETTINGS:
        if name in given and name not in form.own:
            raise HTTPException(422, f"A {form.title} table has no {name}: {form.played_for}")
    settings: dict[str, Any] = {
        **form.defaults,
        "seats": body.seats if "seats" in given else form.defaults["seats"],
        "interlude_ms": body.interlude_seconds * 1000,
        "private": body.private,
    }
    if "timer_seconds" in body.model_fields_set:
        settings["timer_ms"] = None if body.timer_seconds is None else body.timer_seconds * 1000
    settings.update({name: getattr(body, name) for name in form.own if name in given})
    return settings


async def open_table(gw: Gateway, player: Identity, body: NewTable) -> TableOut:
    settings = table_settings(body)
    try:
        game(body.game).make_config(settings)
    except IllegalCommand as error:
        raise HTTPException(422, error.message) from None
    seats: int = settings["seats"]
    for seat, level in body.bots.items():
        if not 1 <= seat < seats or not m.BOT_NAME.fullmatch(level):
            raise HTTPException(
                422, f"Bots sit in seats 1 to {seats - 1}, named easy, medium, hard..."
            )
    for level in sorted(set(body.bots.values())):
        if await gw.store.bot_account(level) is None:
            raise HTTPException(422, f"No bot named {level}: seat easy, medium, hard...")
    try:
        await leave_finished_seat(gw, player)
    except SeatHeld as held:
        raise HTTPException(503 if held.code == "unavailable" else 409, held.message) from None
    table_id = f"t-{secrets.token_hex(6)}"
    code = secrets.token_urlsafe(6)
    request = m.CreateTable(
        table_id=table_id,
        request_id=f"{player.id}/create-{table_id}",
        game=body.game,
        settings=settings,
        invite_code=code,
        host_id=player.id,
        host_name=player.name,
        bots=body.bots,
        start=body.start,
        expires_at=int((time.time() + CREATE_PATIENCE) * 1000),
    )
    try:
        outcome = await gw.hub.outcome_of(
            table_id, request.request_id, lambda: send_to_table(gw, request), CREATE_PATIENCE
        )
    except BrokerUnavailable:
        raise HTTPException(503, "The tables cannot be reached for the moment: try again") from None
    if outcome is None:
        raise HTTPException(503, "Your table was not confirmed in time: try again shortly")
    if not outcome.ok:
        raise HTTPException(CREATE_REFUSED.get(outcome.code, 409), outcome.message)
    row = await gw.store.table(table_id)
    if row is None:
        raise HTTPException(503, "The table was opened but cannot be read yet: look again")
    return table_out(row, with_invite=True)
