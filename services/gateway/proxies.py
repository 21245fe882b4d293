"""Which address a request comes from: the peer's, unless the peer is a proxy we trust.

A reverse proxy appends the address it was reached from to ``X-Forwarded-For``; whatever the
client put there itself stays on the left. So the client is the right-most entry that is not
one of our proxies, found walking from the right, and only when the peer itself is one of them
(``SWICK_TRUSTED_PROXIES``: addresses and CIDRs). uvicorn's own handling takes the left-most
entry, the one the client chose, so the gateway's servers run with it off
(``transport.SOCKETS``) and ``TrustedProxies`` does it instead.

Limits count per client (``limit_key``): an IPv4 address, or an IPv6 client's /64, since one
subscriber is routinely given a whole /64 and could otherwise take 2^64 fresh counts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from shared.secrets import is_loopback

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
EVERYONE = "*"
MAX_HOPS = 32  # X-Forwarded-For entries looked at, from the right: no proxy chain is longer


@dataclass(frozen=True, slots=True)
class Proxies:
    """The proxies whose ``X-Forwarded-For`` is believed; ``everyone`` only for development."""

    networks: tuple[Network, ...] = ()
    everyone: bool = False

    @classmethod
    def parse(cls, spec: str) -> Proxies:
        """``"10.0.0.5, 10.1.0.0/16"``, ``""`` (none) or ``"*"``; ``ValueError`` naming the entry
        that is neither an address nor a CIDR."""
        entries = [entry.strip() for entry in spec.split(",") if entry.strip()]
        if EVERYONE in entries:
            return cls(everyone=True)
        networks = []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ValueError(
                    f"SWICK_TRUSTED_PROXIES: {entry!r} is neither an IP address nor a CIDR"
                ) from None
        return cls(tuple(networks))

    def trusts(self, address: Address) -> bool:
        return self.everyone or any(address in network for network in self.networks)

    def client(self, peer: str, forwarded_for: Iterable[str]) -> str:
        """The client's address, given the socket's ``peer`` and the ``X-Forwarded-For``
        header values in the order received."""
        hop = _address(peer)
        if hop is None or not self.trusts(hop):
            return peer
        entries = [entry for value in forwarded_for for entry in value.split(",")]
        for entry in reversed(entries[-MAX_HOPS:]):
            address = _address(entry)
            if address is None:  # a trusted proxy passed on garbage: the last hop we know
                break
            hop = address
            if not self.trusts(hop):
                break
        return str(hop)


def _address(text: str) -> Address | None:
    """An address from an ``X-Forwarded-For`` entry (``1.2.3.4``, ``1.2.3.4:80``,
    ``[2001:db8::1]:80``, ``2001:db8::1``); ``None`` for anything else (``unknown``)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def limit_key(address: str) -> str:
    """What limits count under for a client at ``address``: the IPv4 address, an IPv6
    address's /64 (``2001:db8:0:1::/64``), or the text itself if it is no address."""
    parsed = _address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address if parsed is None else str(parsed)


def refusal(host: str, spec: str) -> str | None:
    """Why a gateway listening on ``host`` must not start with ``spec`` as its trusted
    proxies, or ``None``: an entry that is no address, or ``*`` anywhere but loopback (anyone
    could then choose the address their sign-ups and guesses count against)."""
    try:
        proxies = Proxies.parse(spec)
    except ValueError as error:
        return str(error)
    if proxies.everyone and not is_loopback(host):
        where = host or "every address"
        return (
            f"SWICK_TRUSTED_PROXIES (or FORWARDED_ALLOW_IPS) is '*': list your proxies' "
            f"addresses or CIDRs to listen on {where}; only loopback allows trusting everyone"
        )
    return None


class TrustedProxies:
    """ASGI middleware: ``scope["client"]`` becomes the client's address (see ``Proxies``), and
    ``scope["scheme"]`` the trusted proxy's ``X-Forwarded-Proto``, for HTTP and WebSockets."""

    def __init__(self, app: ASGIApp, proxies: Proxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client:
            peer = _address(client[0])
            if peer is not None and self.proxies.trusts(peer):
                forwarded = [
                    value.decode("latin-1")
                    for name, value in scope["headers"]
                    if name == b"x-forwarded-for"
                ]
                address = self.proxies.client(client[0], forwarded)
                scope = _with_scheme(dict(scope, client=(address, 0)))
        await self.app(scope, receive, send)


def _with_scheme(scope: Scope) -> Scope:
    """The scheme a trusted proxy says the client used (``https`` behind a TLS Ingress)."""
    for name, value in scope["headers"]:
        if name == b"x-forwarded-proto":
            proto = value.decode("latin-1").split(",")[-1].strip().lower()
            secure = proto in ("https", "wss")
            if proto in ("http", "https", "ws", "wss"):
                plain = "ws" if scope["type"] == "websocket" else "http"
                return dict(scope, scheme=plain + ("s" if secure else ""))
    return scope
