"""Client addresses come from trusted proxies only: a peer that is not one of
``SWICK_TRUSTED_PROXIES`` is the client whatever its ``X-Forwarded-For`` says, and behind one
the client is the right-most entry that is not a proxy; limits count an IPv6 client by its /64.
Against a real gateway (its app under uvicorn, as served), speaking from 127.0.0.1 (a
stranger) and 127.0.0.2 (the proxy)."""

from __future__ import annotations

import pytest

from services.gateway.proxies import Proxies, limit_key, refusal
from tests.security.lone_gateway import LoneGateway, gateway_fixture
from tests.security.test_startup import STRONG, assert_refused, serve_gateway

# A stranger on the gateway's own host: uvicorn used to trust 127.0.0.1's header by default.
STRANGER, PROXY = "127.0.0.1", "127.0.0.2"
ADMIN_TOKEN = "a5d3e1f09b8c7d6e5f4a3b2c1d0e9f8a"


def test_an_untrusted_peer_is_the_client_whatever_it_forwards() -> None:
    proxies = Proxies.parse("10.0.0.0/8, 192.0.2.7")
    assert proxies.client("198.51.100.1", ["203.0.113.5"]) == "198.51.100.1"
    assert Proxies.parse("").client("127.0.0.1", ["203.0.113.5"]) == "127.0.0.1"


def test_behind_proxies_the_client_is_the_right_most_untrusted_entry() -> None:
    proxies = Proxies.parse("10.0.0.0/8, 192.0.2.7")
    # The client wrote the left entry itself; the proxy appended the address it saw.
    assert proxies.client("10.0.0.1", ["198.51.100.9, 203.0.113.5"]) == "203.0.113.5"
    # Two proxies, both trusted: walk past them both.
    assert proxies.client("10.0.0.1", ["203.0.113.5, 192.0.2.7"]) == "203.0.113.5"
    # Several headers count as one list, in order.
    assert proxies.client("10.0.0.1", ["198.51.100.9", "203.0.113.5"]) == "203.0.113.5"
    # Ports and brackets are the proxy's way of writing an address.
    assert proxies.client("10.0.0.1", ["[2001:db8::1]:443"]) == "2001:db8::1"
    assert proxies.client("10.0.0.1", ["203.0.113.5:51000"]) == "203.0.113.5"
    assert proxies.client("10.0.0.1", ["::ffff:203.0.113.5"]) == "203.0.113.5"
    # No header, or nothing but proxies: the last proxy reached is all we know.
    assert proxies.client("10.0.0.1", []) == "10.0.0.1"
    assert proxies.client("10.0.0.1", ["10.0.0.2"]) == "10.0.0.2"
    # Garbage from a proxy stops the walk at the last address known.
    assert proxies.client("10.0.0.1", ["203.0.113.5, unknown"]) == "10.0.0.1"


def test_limits_count_an_ipv6_client_by_its_64() -> None:
    assert limit_key("2001:db8:0:1::1") == limit_key("2001:db8:0:1:ffff::2") == "2001:db8:0:1::/64"
    assert limit_key("2001:db8:0:2::1") != limit_key("2001:db8:0:1::1")
    assert limit_key("203.0.113.5") == "203.0.113.5"
    assert limit_key("::ffff:203.0.113.5") == "203.0.113.5"


def test_a_trusted_proxy_list_is_addresses_and_cidrs() -> None:
    with pytest.raises(ValueError, match=r"'proxy\.example'"):
        Proxies.parse("10.0.0.1, proxy.example")
    assert refusal("0.0.0.0", "10.0.0.0/8, 2001:db8::/32") is None
    assert refusal("0.0.0.0", "*") is not None
    assert refusal("127.0.0.1", "*") is None  # a developer's machine
    assert refusal("127.0.0.1", "nonsense") is not None


def test_a_reachable_gateway_refuses_to_trust_everyone() -> None:
    for variable in ("SWICK_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"):
        result = serve_gateway("0.0.0.0", SWICK_SECRET=STRONG, **{variable: "*"})
        assert_refused(result, "SWICK_TRUSTED_PROXIES")


gateway = gateway_fixture(trusted_proxies=PROXY, grants_per_address=1, admin_token=ADMIN_TOKEN)


async def sign_up(gateway: LoneGateway, peer: str, forwarded: str) -> int:
    async with gateway.http(peer, **{"X-Forwarded-For": forwarded}) as http:
        return (await http.post("/api/players", json={"name": "Quentin"})).status_code


async def test_a_stranger_forging_the_header_gets_no_more_sign_ups(gateway: LoneGateway) -> None:
    # The session's other tests may have signed up from here already (the same database).
    assert await sign_up(gateway, STRANGER, "203.0.113.1") in (200, 429)
    for n in range(2, 6):
        assert await sign_up(gateway, STRANGER, f"203.0.113.{n}, 10.0.0.1") == 429


async def test_through_the_proxy_each_client_has_its_own_sign_ups(gateway: LoneGateway) -> None:
    assert await sign_up(gateway, PROXY, "198.51.100.1") == 200
    assert await sign_up(gateway, PROXY, "198.51.100.2") == 200
    # A client that writes a made-up address in front is still counted as itself.
    assert await sign_up(gateway, PROXY, "192.0.2.99, 198.51.100.1") == 429
    # One IPv6 subscriber's /64 is one client.
    assert await sign_up(gateway, PROXY, "2001:db8:0:1::1") == 200
    assert await sign_up(gateway, PROXY, "2001:db8:0:1::2") == 429
    assert await sign_up(gateway, PROXY, "2001:db8:0:2::1") == 200


async def admin_status(gateway: LoneGateway, peer: str, forwarded: str, token: str) -> int:
    headers = {"X-Forwarded-For": forwarded, "Authorization": f"Bearer {token}"}
    async with gateway.http(peer, **headers) as http:
        return (await http.get("/admin/status")).status_code


async def test_admin_guesses_are_throttled_per_real_client(gateway: LoneGateway) -> None:
    # A stranger making up addresses reaches the throttle all the same.
    codes = [await admin_status(gateway, STRANGER, f"203.0.113.{n}", "wrong") for n in range(8)]
    assert codes == [401] * 5 + [429] * 3
    # Behind the proxy, a guesser shuts only itself out, not the operator.
    codes = [await admin_status(gateway, PROXY, "198.51.100.66", "wrong") for _ in range(6)]
    assert codes == [401] * 5 + [429]
    assert await admin_status(gateway, PROXY, "198.51.100.66", ADMIN_TOKEN) == 429
    assert await admin_status(gateway, PROXY, "192.0.2.1, 198.51.100.7", ADMIN_TOKEN) == 200
