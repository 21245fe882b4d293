"""Fuzzing: the gateway's and the ledger's HTTP APIs answer any request their OpenAPI schemas
allow, and any they do not, with no 5xx and no traceback (schemathesis, against the real
services, ``cluster``, a bounded number of examples per operation); and the pure parsers
refuse any bytes with their own errors (atheris, ``tests/security/fuzz_parsers.py``, a
bounded number of runs)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as run_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from services.gateway.app import create_app as gateway_app
from services.ledger.app import create_app as ledger_app
from tests.services.client import registered
from tests.services.cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = 15  # per operation and generation mode: seconds in all, not minutes
PARSER_RUNS = 3000
FUZZER_ADDRESS = "127.0.8.1"
"""Where the fuzzer speaks from: its wrong invite codes count against this address (limits are
per client address), never against the other tests' 127.0.0.1."""


class _FromAddress(requests.adapters.HTTPAdapter):
    """Connections from one local address, as a client of its own would make them."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def _session_from(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", _FromAddress(address))
    return session


pytestmark = pytest.mark.usefixtures("whole_platform")


def fuzz(raw_schema: dict[str, Any], base_url: str, authorization: str) -> list[str]:
    """Every operation of the schema with valid and invalid examples; the failures found."""
    schema = schemathesis.openapi.from_dict(raw_schema)
    failures: list[str] = []
    session = _session_from(FUZZER_ADDRESS)
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]  # an Err raises: a broken schema fails
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            call = _examples(operation, mode, base_url, authorization, failures, session)
            try:
                call()
            except Unsatisfiable:  # nothing to get wrong (no parameters, no body)
                assert mode is GenerationMode.NEGATIVE
    return failures


def _examples(
    operation: Any,
    mode: GenerationMode,
    base_url: str,
    authorization: str,
    failures: list[str],
    session: requests.Session,
) -> Any:
    """A Hypothesis test that calls ``operation`` with examples of ``mode``, noting each 5xx or
    traceback in ``failures``."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @run_settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any) -> None:
        # Valid examples carry the credential; invalid ones keep whatever header they made.
        if (
            case.headers is None
            or "authorization" not in case.headers
            or (mode is GenerationMode.POSITIVE)
        ):
            case.headers = {**(case.headers or {}), "authorization": authorization}
        response = case.call(base_url=base_url, session=session, timeout=10)
        if response.status_code >= 500 or "Traceback" in response.text:
            failures.append(
                f"{case.method} {case.formatted_path} {case.path_parameters}"
                f" {case.query} {case.body!r}: {response.status_code} {response.text}"
            )

    return call


async def test_the_ledger_api_never_answers_5xx(cluster: Cluster) -> None:
    s = cluster.settings
    schema = ledger_app(s).openapi()
    token = s.ledger_auth(write=True)["Authorization"]
    failures = await asyncio.to_thread(fuzz, schema, s.ledger_url, token)
    # The probe reports a broken invariant with 503; nothing else may be a 5xx.
    failures = [f for f in failures if not f.startswith("GET /health ")]
    assert not failures, "\n".join(failures[:5])


async def test_the_gateway_api_never_answers_5xx(cluster: Cluster) -> None:
    player = await registered(cluster.base, "Fuzzer")
    schema = gateway_app(cluster.settings).openapi()
    failures = await asyncio.to_thread(fuzz, schema, cluster.base, f"Bearer {player.token}")
    assert not failures, "\n".join(failures[:5])
    # Its wrong invite codes were charged to its own address: a client at another (a player
    # signed up after it, the fuzzer's token having signed itself out) still finds a private
    # table by its code.
    host = await registered(cluster.base, "After the fuzzer")
    created = await host.http("POST", "/api/tables", json={"private": True})
    assert created.status_code == 200, created.text
    found = await host.http("GET", f"/api/invites/{created.json()['invite_code']}")
    assert found.status_code == 200, found.text


def test_the_parsers_refuse_any_bytes_with_their_own_errors() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.security.fuzz_parsers", f"-runs={PARSER_RUNS}", "-seed=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Done {PARSER_RUNS} runs" in result.stderr
