"""The operator page: live tables, players online, shard ownership, the ledger's health, its
dead-lettered and conflicting postings, and the house's exposure to the bots.

Only for holders of the admin token (``SWICK_ADMIN_TOKEN``); without one configured, the page
is off.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Annotated, Any

import httpx
from fastapi import APIRouter, Header, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse

from services.gateway.guesses import client_address

router = APIRouter(include_in_schema=False)

HERE = Path(__file__).parent
PAGE = (HERE / "admin.html").read_text()
# The page's script and style are files, not inline: the Content Security Policy allows no other.
ASSETS = {"admin.js": "text/javascript; charset=utf-8", "admin.css": "text/css; charset=utf-8"}


def check_admin(request: Request, authorization: str) -> None:
    """Let the holder of the admin token through; wrong guesses are throttled per address,
    and a throttled address is refused without its token being looked at."""
    gw = request.app.state.gateway
    expected: str = gw.settings.admin_token
    if not expected:
        raise HTTPException(404, "The operator page is off: set SWICK_ADMIN_TOKEN")
    throttle, address = gw.guesses.admin, client_address(request.client)
    if not throttle.admit(address):
        raise HTTPException(
            429,
            "Too many wrong admin tokens from this address: wait",
            headers={"Retry-After": str(throttle.retry_after(address))},
        )
    given = authorization.removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        throttle.failed(address)
        raise HTTPException(401, "Wrong admin token")


@router.get("/admin")
async def page(request: Request) -> HTMLResponse:
    if not request.app.state.gateway.settings.admin_token:
        raise HTTPException(404, "The operator page is off: set SWICK_ADMIN_TOKEN")
    return HTMLResponse(PAGE)


@router.get("/admin/status")
async def status(request: Request, authorization: Annotated[str, Header()] = "") -> dict[str, Any]:
    check_admin(request, authorization)
    gw = request.app.state.gateway
    overview: dict[str, Any] = await gw.store.overview()
    problems: dict[str, Any] = {}
    house: dict[str, Any] = {}
    try:
        async with gw.ledger_client() as ledger:
            health: dict[str, Any] = (await ledger.get("/health")).json()
            problems = (await ledger.get("/problems", params={"limit": 20})).json()
            house = (await ledger.get("/house")).json()
    except (httpx.HTTPError, ValueError) as error:
        health = {"ok": False, "error": f"the ledger does not answer: {error}"}
    return {
        **overview,
        "players_online": sorted(conn.player.name for conn in gw.sockets.values()),
        "ledger": health,
        "ledger_problems": problems,
        "house": house,
    }


@router.post("/admin/players/{player_id}/revoke")
async def revoke(
    request: Request,
    player_id: Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,64}$")],
    authorization: Annotated[str, Header()] = "",
) -> dict[str, Any]:
    """Sign a player out everywhere (a stolen token): every token of theirs opens nothing more
    and their sockets close, on every gateway within a few seconds (``sessions``)."""
    check_admin(request, authorization)
    version: int = await request.app.state.gateway.sessions.revoke(player_id)
    return {"player_id": player_id, "version": version}


@router.get("/admin/{asset}")
async def asset(asset: str) -> FileResponse:
    if asset not in ASSETS:
        raise HTTPException(404, "No such file")
    return FileResponse(HERE / asset, media_type=ASSETS[asset])
