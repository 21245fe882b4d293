"""Player tokens that strangers cannot forge, secrets that refuse to be placeholders, and
throttled guessing: the pure parts, on clocks the tests control."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.gateway.guesses import GuessThrottle
from services.gateway.identity import LIFETIME, RENEW_AFTER, Identity, Tokens
from shared.secrets import PLACEHOLDERS, is_loopback, unsafe, weakness
from shared.settings import DEV_SECRET

SECRET = "4f1c0b8e9a7d6e5f4c3b2a190817263544536271808f9e8d7c6b5a4938271605"
OTHER = "b0c1d2e3f405162738495a6b7c8d9eaf00112233445566778899aabbccddeeff"


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed(secret: str, payload: object) -> str:
    """A token over any payload, signed the way the gateway signs: what a holder of ``secret``
    could make."""
    body = b64(json.dumps(payload).encode())
    key = hashlib.sha256(secret.encode()).digest()
    return f"{body}.{b64(hmac.digest(key, body.encode(), 'sha256'))}"


# Tokens.


def test_a_token_names_its_player_until_it_expires() -> None:
    clock = Clock()
    tokens = Tokens(SECRET, clock=clock)
    identity, token = tokens.issue("Ava")
    claims = tokens.claims(token)
    assert claims is not None
    assert claims.identity == identity == Identity(identity.id, "Ava")
    assert claims.kid == tokens.kid
    assert claims.expires_at - claims.issued_at == LIFETIME
    clock.now += LIFETIME - 1
    assert tokens.verify(token) == identity
    clock.now += 1
    assert tokens.verify(token) is None


def test_a_token_signed_with_another_secret_is_refused() -> None:
    identity, forged = Tokens(DEV_SECRET).issue("Mallory")
    assert Tokens(SECRET).verify(forged) is None
    assert Tokens(DEV_SECRET).verify(forged) == identity


def test_rotation_keeps_old_tokens_while_the_previous_secret_is_listed() -> None:
    clock = Clock()
    old = Tokens(SECRET, clock=clock)
    identity, token = old.issue("Ava")
    rotated = Tokens(OTHER, [SECRET], clock=clock)
    assert rotated.kid != old.kid
    assert rotated.verify(token) == identity  # the grace period
    fresh = rotated.renewal(token)
    assert fresh is not None and rotated.verify(fresh) == identity
    claims = rotated.claims(fresh)
    assert claims is not None and claims.kid == rotated.kid
    assert Tokens(OTHER, clock=clock).verify(token) is None  # the grace period is over
    assert Tokens(OTHER, clock=clock).verify(fresh) == identity


def test_renewal_only_for_old_tokens() -> None:
    clock = Clock()
    tokens = Tokens(SECRET, clock=clock)
    identity, token = tokens.issue("Ava")
    assert tokens.renewal(token) is None
    clock.now += RENEW_AFTER
    fresh = tokens.renewal(token)
    assert fresh is not None and fresh != token
    claims = tokens.claims(fresh)
    assert claims is not None and claims.identity == identity
    assert claims.expires_at == clock.now + LIFETIME
    assert tokens.renewal("not a token") is None


def test_the_key_id_must_be_the_signing_keys() -> None:
    """A token signed by one key but naming another is no token (a kid is not a key)."""
    clock = Clock()
    tokens = Tokens(OTHER, [SECRET], clock=clock)
    now = int(clock.now)
    claims = {"id": "p-1", "name": "Ava", "kid": tokens.kid, "iat": now, "exp": now + 60}
    assert tokens.verify(signed(OTHER, claims)) == Identity("p-1", "Ava")
    assert tokens.verify(signed(SECRET, claims)) is None


@pytest.mark.parametrize(
    "token",
    [
        "",
        ".",
        "abc",
        "abc.",
        ".abc",
        "é.é",
        "ünïcödé",
        "a.b.c",
        "a b.c",
        "x" * 5000 + ".y",
        "%%%.###",
        "YQ.YQ",
    ],
)
def test_malformed_tokens_are_invalid(token: str) -> None:
    tokens = Tokens(SECRET)
    assert tokens.verify(token) is None
    assert tokens.renewal(token) is None


@pytest.mark.parametrize(
    "payload",
    [
        [],
        "text",
        7,
        None,
        {"id": "p-1", "name": "Ava"},  # an old token: no key id, no expiry
        {"id": 1, "name": "Ava", "iat": 0, "exp": 2**40},
        {"id": "p-1", "name": None, "iat": 0, "exp": 2**40},
        {"id": "p-1", "name": "Ava", "iat": "0", "exp": "2000000000"},
        {"id": "p-1", "name": "Ava", "iat": 0, "exp": True},
        {"id": "p-1", "name": "Ava", "iat": 0.5, "exp": 2**40},
        {"id": "p-1", "name": "Ava", "kid": ["x"], "iat": 0, "exp": 2**40},
    ],
)
def test_signed_payloads_of_the_wrong_shape_are_invalid(payload: object) -> None:
    """Even correctly signed, a payload that is not our claims is no token."""
    assert Tokens(SECRET).verify(signed(SECRET, payload)) is None


def test_a_signed_payload_that_is_not_json_is_invalid() -> None:
    key = hashlib.sha256(SECRET.encode()).digest()
    for raw in (b"\xff\xfe", b"{", b"[" * 700):
        body = b64(raw)
        token = f"{body}.{b64(hmac.digest(key, body.encode(), 'sha256'))}"
        assert Tokens(SECRET).verify(token) is None


@given(st.text(max_size=300))
def test_no_text_is_an_error(token: str) -> None:
    assert Tokens(SECRET).verify(token) is None


@given(st.integers(0, 199), st.characters(codec="utf-8"))
def test_no_tampered_token_passes(position: int, replacement: str) -> None:
    tokens = Tokens(SECRET)
    _, token = tokens.issue("Ava")
    position %= len(token)
    tampered = token[:position] + replacement + token[position + 1 :]
    if tampered != token:
        assert tokens.verify(tampered) is None


# Secrets that must not guard anything strangers can reach.


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "[::1]", "localhost"])
def test_loopback_hosts(host: str) -> None:
    assert is_loopback(host)
    assert unsafe(host, [("SWICK_SECRET", DEV_SECRET)]) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "10.0.0.5", "gateway.example.com"])
def test_reachable_hosts_refuse_the_development_secret(host: str) -> None:
    assert not is_loopback(host)
    line = unsafe(host, [("SWICK_SECRET", DEV_SECRET)])
    assert line is not None and "SWICK_SECRET" in line and "\n" not in line


@pytest.mark.parametrize(
    "value",
    [
        "",
        "short",
        *sorted(PLACEHOLDERS),
        "please-REPLACE-ME-soon-0123456789",
        "my-secret-change-me-0123456789",
    ],
)
def test_weak_values(value: str) -> None:
    assert weakness(value) is not None
    line = unsafe("0.0.0.0", [("SWICK_SECRET", SECRET)], [("SWICK_ADMIN_TOKEN", value)])
    if value:
        assert line is not None and "SWICK_ADMIN_TOKEN" in line
    else:
        assert line is None  # an empty admin token turns the page off


def test_strong_values_pass() -> None:
    assert weakness(SECRET) is None
    assert unsafe("0.0.0.0", [("SWICK_SECRET", SECRET)], [("SWICK_ADMIN_TOKEN", OTHER)]) is None
    assert unsafe("0.0.0.0", [("SWICK_SECRET", "")]) is not None


# Throttled guessing.


def test_guesses_are_throttled_per_address() -> None:
    clock = Clock(0.0)
    throttle = GuessThrottle(5, 600.0, clock=clock)
    for _ in range(5):
        assert throttle.admit("203.0.113.9")
        throttle.failed("203.0.113.9")
    assert not throttle.admit("203.0.113.9")
    assert throttle.retry_after("203.0.113.9") > 0
    assert throttle.admit("198.51.100.7")  # another address is not affected


def test_a_throttled_address_that_keeps_trying_stays_shut() -> None:
    clock = Clock(0.0)
    throttle = GuessThrottle(5, 600.0, clock=clock)
    for _ in range(5):
        throttle.failed("a")
    for _ in range(195):
        assert not throttle.admit("a")
    clock.now += 120.0  # one failure forgiven: enough only for an address that stopped
    assert not throttle.admit("a")
    wait = throttle.retry_after("a")
    clock.now += wait
    assert throttle.admit("a")
    throttle.failed("a")
    assert not throttle.admit("a")


def test_failures_age_out() -> None:
    clock = Clock(0.0)
    throttle = GuessThrottle(10, 60.0, clock=clock)
    for _ in range(10):
        throttle.failed("a")
    assert not throttle.admit("a")
    clock.now += 60.0 * 2  # twice the window: even the refused tries are forgiven
    for _ in range(10):
        assert throttle.admit("a")
        throttle.failed("a")
    assert not throttle.admit("a")


def test_the_table_of_addresses_is_bounded() -> None:
    clock = Clock(0.0)
    throttle = GuessThrottle(3, 60.0, max_addresses=100, clock=clock)
    for _ in range(3):
        throttle.failed("attacker")
    for n in range(10_000):
        throttle.failed(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        assert len(throttle) <= 100
    assert len(throttle) == 100
