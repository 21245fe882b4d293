"""What the gateway tells browsers about its pages, and which pages may open its WebSocket.

Every HTTP response carries a Content Security Policy that allows scripts, styles and
connections from this origin only (no inline script, no ``eval``), may not be framed, and sends
no referrer. The WebSocket handshake is refused to pages of other origins: a browser always
sends its page's ``Origin`` there, so no other site's page can hold a socket to the gateway
(the token is the credential; the check keeps the browser's own guard against cross-site
sockets, which the same-origin policy does not give WebSockets). A client that sends no
``Origin`` is not a browser page (the load generator, players' own bots, tests): its token
alone decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # Preact sets style attributes through the CSSOM (element.style), which a policy
        # without 'unsafe-inline' allows; style sheets come from this origin only.
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",  # fetch and the WebSocket (ws:/wss: of this host)
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds ``HEADERS`` to every HTTP response (pages, scripts, styles, API answers, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in HEADERS if name not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def allowed_origins(setting: str) -> tuple[str, ...]:
    """``SWICK_ALLOWED_ORIGINS``: comma-separated origins such as ``https://swick.example.com``;
    empty means the gateway's own origin only."""
    return tuple(
        origin.strip().rstrip("/").lower() for origin in setting.split(",") if origin.strip()
    )


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a WebSocket handshake with this ``Origin`` (and ``Host``) may go on.

    No ``Origin``: not a browser page, allowed. With ``allowed`` empty, the page must come from
    the host the socket is opened on (the same origin, whatever the scheme a proxy ended);
    otherwise its origin must be listed.
    """
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if allowed:
        return origin in allowed
    parts = urlsplit(origin)
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and parts.netloc == (host or "").strip().lower()
    )
