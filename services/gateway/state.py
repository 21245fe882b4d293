"""The gateway's shared state: its services, its sockets and its limits, one per app.

Every part of the gateway (the lobby's routes, the sockets, the ledger proxy) reads it from
``app.state.gateway``, set when the app starts (``services/gateway/app.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
from fastapi import FastAPI

from services.gateway.accounts import AccountStore, MemoryAccounts
from services.gateway.chat import ChatLog, MemoryChat
from services.gateway.guesses import Guesses
from services.gateway.history import History
from services.gateway.hub import Connection, Hub
from services.gateway.identity import Claims, Tokens
from services.gateway.limits import AddressRate
from services.gateway.passkeys import MemoryPasskeys, PasskeyStore
from services.gateway.records import Records
from services.gateway.replays import Replays
from services.gateway.sessions import MemoryVersions, Sessions
from shared.bus import Bus
from shared.settings import Settings
from shared.tables_read import TableReads

REPLAYS_PER_SECOND = 0.5  # replays one client address may ask for, on average (30 a minute) ...
REPLAY_BURST = 20  # ... in bursts of this many (a page asks for one)


@dataclass
class Gateway:
    settings: Settings
    bus: Bus
    store: TableReads
    hub: Hub
    tokens: Tokens
    sockets: dict[str, Connection]
    records: Records
    guesses: Guesses = field(default_factory=Guesses)
    ledger: httpx.AsyncBaseTransport | None = None  # the ledger in this process (embedded)
    chat: ChatLog = field(default_factory=MemoryChat)  # each table's recent chat
    history: History = field(default_factory=History)  # what a page starting to watch gets
    replays: Replays | None = None  # finished games' replays, as the table workers stored them
    replay_rate: AddressRate = field(  # replays one client address may ask for
        default_factory=lambda: AddressRate(REPLAYS_PER_SECOND, REPLAY_BURST)
    )
    sessions: Sessions = field(default_factory=lambda: Sessions(MemoryVersions()))
    accounts: AccountStore = field(default_factory=MemoryAccounts)
    passkeys: PasskeyStore = field(default_factory=MemoryPasskeys)

    async def signed_in(self, token: str) -> Claims | None:
        """The claims of ``token`` if it is valid and not revoked (signed out everywhere, or
        its device signed out)."""
        claims = self.tokens.claims(token)
        if claims is None or not await self.sessions.valid(claims):
            return None
        return claims

    def ledger_client(self, timeout: float = 5.0) -> httpx.AsyncClient:
        """A client of the ledger service: over HTTP, or in this process when it runs here."""
        return httpx.AsyncClient(
            base_url=self.settings.ledger_url,
            transport=self.ledger,
            timeout=timeout,
            # The read credential: an operator's deletion alone adds the service one to its call.
            headers=self.settings.ledger_auth(),
        )


def gateway_of(app: FastAPI) -> Gateway:
    """The state of the running ``app`` (set by its lifespan)."""
    gw: Gateway = app.state.gateway
    return gw
