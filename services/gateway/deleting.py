"""An operator deletes an account: ``DELETE /admin/accounts/{id}`` (the admin token).

In an order that leaves nothing half done behind a refusal about chips:

1. Refused (409, nothing changed) while the player holds a seat (the tables' read model): a
   seat's stack is their chips in play.
2. Signed out everywhere (``Sessions.revoke``: every token of theirs opens nothing more, their
   devices are signed out, their sockets close with 4401), so no seat can be taken from here on.
3. The ledger closes their wallet (with its closing credential, good for nothing else): the
   whole balance to the house in one balanced posting, never opened again. The ledger refuses
   (409, the chips unmoved) while chips of theirs are in a pot, or still on their way from the
   table they left.
4. Their name forgotten by the tables (their logs, records and replays: records still verify)
   and their chat lines dropped.
5. The account's row: its name and handle forgotten (``AccountStore.delete``), and its
   recovery codes and passkeys dropped (a sign-in finds no account behind any credential of
   it anyway).

Every step is safe to repeat, so a deletion that failed half-way is finished by asking again;
asking again after it is done changes nothing and says so (``already_deleted``).
"""

from __future__ import annotations

from typing import Annotated, Any

import httpx
from fastapi import APIRouter, Header, HTTPException, Request
from fastapi import Path as PathParam

from services.gateway.admin import check_admin
from services.gateway.routes_codes import codes_of
from services.gateway.state import Gateway

router = APIRouter(include_in_schema=False)

ACCOUNT = r"^p-[A-Za-z0-9_-]{1,64}$"  # a person's account: bots' wallets belong to tables


@router.delete("/admin/accounts/{account_id}")
async def delete_account(
    request: Request,
    account_id: Annotated[str, PathParam(pattern=ACCOUNT)],
    authorization: Annotated[str, Header()] = "",
) -> dict[str, Any]:
    check_admin(request, authorization)
    gw: Gateway = request.app.state.gateway
    account = await gw.accounts.get(account_id)
    if account is None and not await _has_wallet(gw, account_id):
        raise HTTPException(404, "There is no such account")
    seat = await gw.store.seat_of(account_id)
    if seat is not None:
        raise HTTPException(
            409,
            f"This player is seated at table {seat[0]}: their chips are in play there. "
            "Delete the account once they have left it (or it has closed).",
        )
    await gw.sessions.revoke(account_id)
    closing = await _close_wallet(gw, account_id, await gw.store.departure(account_id))
    tables = await gw.store.forget_player(account_id)
    chat_lines = await gw.chat.forget(account_id)
    now_ms = gw.sessions.now_ms()
    deleted = await gw.accounts.delete(account_id, now_ms)
    await codes_of(request.app).recovery.store.replace(account_id, [], now_ms)
    await gw.passkeys.remove_all(account_id)
    return {
        "account_id": account_id,
        "already_deleted": bool(closing["already_closed"]) and not deleted,
        "returned_to_house": closing["returned"],
        "tables_anonymised": tables,
        "chat_lines_dropped": chat_lines,
    }


async def _has_wallet(gw: Gateway, account_id: str) -> bool:
    """Whether the ledger knows the player (a player from before accounts has no row here)."""
    async with gw.ledger_client() as ledger:
        try:
            reply = await ledger.get(f"/players/{account_id}/balance")
        except httpx.HTTPError as error:
            raise HTTPException(503, f"The ledger does not answer: {error}") from None
    return reply.status_code == 200


async def _close_wallet(
    gw: Gateway, account_id: str, after: tuple[str, int] | None
) -> dict[str, Any]:
    """The ledger's closing of the wallet, or the ledger's refusal as the operator's error."""
    body = {"after": None if after is None else {"table_id": after[0], "posting_no": after[1]}}
    async with gw.ledger_client() as ledger:
        try:
            reply = await ledger.post(
                f"/wallets/{account_id}/close",
                json=body,
                headers={"Authorization": f"Bearer {gw.settings.ledger_close_token}"},
            )
        except httpx.HTTPError as error:
            raise HTTPException(503, f"The ledger does not answer: {error}") from None
    if reply.status_code == 409:
        detail = reply.json().get("detail", "")
        raise HTTPException(409, f"The ledger keeps the wallet open: {detail}. Try again soon.")
    if reply.status_code == 401:
        raise HTTPException(
            502,
            "The ledger refused this gateway's closing credential: give the gateway and the "
            "ledger the same SWICK_LEDGER_CLOSE_TOKEN to delete accounts",
        )
    if reply.status_code != 200:
        raise HTTPException(502, f"The ledger answered {reply.status_code}: {reply.text[:200]}")
    closing: dict[str, Any] = reply.json()
    return closing
