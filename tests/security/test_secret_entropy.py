"""A secret must carry enough chance, not just length: ``aaaaaaaaaaaaaaaa`` and its like are
refused off loopback, and on loopback the development secrets are announced in one line."""

from __future__ import annotations

import secrets

import pytest

from services.serve import refuse_public_defaults
from shared.secrets import MIN_BITS, entropy_bits, weakness
from shared.settings import Settings
from tests.security.test_startup import STRONG, assert_refused, serve_gateway

PREDICTABLE = [
    "aaaaaaaaaaaaaaaa",
    "a" * 64,
    "abababababababababababab",
    "0123456789abcdef",
    "0123456789abcdef" * 4,  # varied characters, constant steps
    "abcdefghijklmnopqrstuvwxyz",
    "qwertyqwertyqwertyqwerty",
    "password1234password1234",
]


@pytest.mark.parametrize("value", PREDICTABLE)
def test_long_but_predictable_secrets_are_weak(value: str) -> None:
    assert len(value) >= 16
    reason = weakness(value)
    assert reason is not None and "predictable" in reason


@pytest.mark.parametrize("value", [secrets.token_hex(16), secrets.token_urlsafe(24), STRONG])
def test_random_secrets_pass(value: str) -> None:
    assert entropy_bits(value) >= MIN_BITS
    assert weakness(value) is None


def test_a_reachable_gateway_refuses_a_predictable_secret() -> None:
    assert_refused(serve_gateway("0.0.0.0", SWICK_SECRET="aaaaaaaaaaaaaaaa"), "SWICK_SECRET")


def test_on_loopback_the_development_secrets_are_announced_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    settings = Settings()  # the development defaults
    for service in ("gateway", "ledger"):
        refuse_public_defaults(service, settings, "127.0.0.1")
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("warning:") and "loopback" in lines[0]
    refuse_public_defaults("gateway", Settings(secret=STRONG), "127.0.0.1")
    assert capsys.readouterr().err == ""  # a real secret: nothing to say
