"""A gateway that strangers could reach refuses to start with a secret that strangers know:
the development default or any value shipped in deploy/. It says so in one line and exits
before it binds its port (so 0.0.0.0 on a free port is safe to try here)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from services.load.platform import free_port
from shared.secrets import PLACEHOLDERS, weakness

ROOT = Path(__file__).resolve().parents[2]
STRONG = "9c1f0e2d3b4a5968778695a4b3c2d1e0f9e8d7c6b5a49382716051f2e3d4c5b6"


def swick(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SWICK_")}
    return subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        env=clean | env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def assert_refused(result: subprocess.CompletedProcess[str], variable: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert variable in lines[0] and "Traceback" not in result.stderr


def serve_gateway(host: str, **env: str) -> subprocess.CompletedProcess[str]:
    return swick("serve", "gateway", "--host", host, "--port", str(free_port()), **env)


def test_without_a_secret_a_reachable_gateway_refuses() -> None:
    assert_refused(serve_gateway("0.0.0.0"), "SWICK_SECRET")


@pytest.mark.parametrize("secret", sorted(PLACEHOLDERS))
def test_a_shipped_secret_is_refused(secret: str) -> None:
    assert_refused(serve_gateway("0.0.0.0", SWICK_SECRET=secret), "SWICK_SECRET")


def test_nothing_shipped_in_deploy_would_pass_as_a_secret() -> None:
    """Every default that the Compose file fills in, and every value of the Kubernetes Secret,
    is one that a reachable gateway refuses."""
    compose = (ROOT / "deploy" / "compose.yaml").read_text()
    defaults = re.findall(r"\$\{[A-Z_]+:-([^}]*)\}", compose)
    secret = yaml.safe_load((ROOT / "deploy" / "k8s" / "02-secret.yaml").read_text())
    shipped = [*defaults, *secret["stringData"].values()]
    assert shipped
    for value in shipped:
        assert weakness(value) is not None, value
    assert "${SWICK_SECRET:?" in compose, "Compose requires SWICK_SECRET: it has no default"


def test_a_placeholder_admin_token_is_refused() -> None:
    result = serve_gateway(
        "0.0.0.0", SWICK_SECRET=STRONG, SWICK_ADMIN_TOKEN="REPLACE-ME-or-leave-empty"
    )
    assert_refused(result, "SWICK_ADMIN_TOKEN")


def test_a_placeholder_previous_secret_is_refused() -> None:
    result = serve_gateway("::", SWICK_SECRET=STRONG, SWICK_SECRET_PREVIOUS=f"{STRONG[::-1]},short")
    assert_refused(result, "SWICK_SECRET_PREVIOUS")


def test_swick_up_refuses_too() -> None:
    result = swick("up", "--embedded", "--host", "0.0.0.0", "--port", str(free_port()))
    assert_refused(result, "SWICK_SECRET")
