"""The ledger's read-only answers, for the lobby: a player's chips and transfers, the boards.

The gateway only reads the ledger, with the read credential (``Gateway.ledger_client``); a
ledger that does not answer is a 503, never a 500.
"""

from __future__ import annotations

import httpx
from fastapi import HTTPException
from fastapi.responses import JSONResponse

from services.gateway.state import Gateway


async def ask_ledger(gw: Gateway, path: str, **params: int | str) -> httpx.Response:
    """A read-only question to the ledger service; 503 when it does not answer."""
    try:
        async with gw.ledger_client() as http:
            reply = await http.get(path, params=params)
    except httpx.TransportError:
        raise HTTPException(503, "The ledger is not answering: try again soon") from None
    if reply.status_code >= 500:
        raise HTTPException(503, "The ledger is not answering: try again soon")
    return reply


async def relay_ledger(gw: Gateway, path: str, **params: int) -> JSONResponse:
    """A read-only question to the ledger service, answered as the ledger answers it."""
    reply = await ask_ledger(gw, path, **params)
    return JSONResponse(reply.json(), status_code=reply.status_code)
