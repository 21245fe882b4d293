"""``swick serve`` without a dependency: it waits, one line per attempt, then stops with one
line and the exit code of what is wrong; and it starts normally when the dependency comes up
during the wait."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlparse

import asyncpg
import httpx
import pytest

from services.broker import BUILT_IN_BOTS
from services.load.platform import Platform, free_port, fresh_database
from shared.settings import Settings, role_variable, with_credentials
from shared.startup import EXIT_FAILED, EXIT_REFUSED, EXIT_UNREACHABLE, masked

pytestmark = pytest.mark.services

FIRST_BOT = role_variable(f"bot-{BUILT_IN_BOTS[0]}")
ENDED_WITHIN = 60.0  # seconds; the services give up after 2


@pytest.fixture(autouse=True)
def whole_platform() -> None:
    """These tests start their own processes, not the shared platform."""


def at_port(url: str, port: int) -> str:
    parsed = urlparse(url)
    credentials = parsed.netloc.rpartition("@")[0]
    return parsed._replace(netloc=f"{credentials}@127.0.0.1:{port}").geturl()


def broken(url: str, how: str) -> str:
    """``url`` with one thing wrong: ``closed`` port, ``password``, ``database``, ``user``."""
    parsed = urlparse(url)
    if how == "closed":
        return at_port(url, free_port())
    if how == "password":
        return with_credentials(url, parsed.username or "guest", "not-the-password")
    if how == "database":
        return parsed._replace(path="/swick_no_such_database").geturl()
    assert how == "user"
    address = parsed.netloc.rpartition("@")[2]
    return parsed._replace(netloc=f"swick_no_such_role@{address}").geturl()


def env_of(settings: Settings, service: str, tmp_path: Path) -> dict[str, str]:
    if service == "migrate":  # the administrator, and every service user's URL
        env = Platform(settings, tmp_path).env("gateway") | dict(settings.amqp_urls)
        env["SWICK_AMQP_URL"] = settings.amqp_url
    else:
        env = Platform(settings, tmp_path).env(service)
    return env | {"SWICK_STARTUP_TIMEOUT": "2"}


def command(service: str) -> list[str]:
    if service == "migrate":
        return [sys.executable, "-m", "services.cli", "migrate"]
    ports = ["--port", str(free_port())]
    if service in ("gateway", "ledger"):
        ports += ["--internal-port", str(free_port())]
    return [sys.executable, "-m", "services.cli", "serve", service, *ports]


CASES = [
    *(
        (service, variable, how, code)
        for service in ("gateway", "ledger", "table")
        for variable, how, code in (
            ("SWICK_AMQP_URL", "closed", EXIT_UNREACHABLE),
            ("SWICK_AMQP_URL", "password", EXIT_REFUSED),
            ("SWICK_DATABASE_URL", "closed", EXIT_UNREACHABLE),
            ("SWICK_DATABASE_URL", "database", EXIT_REFUSED),
            ("SWICK_DATABASE_URL", "user", EXIT_REFUSED),
        )
    ),
    ("bots", FIRST_BOT, "closed", EXIT_UNREACHABLE),
    ("bots", FIRST_BOT, "password", EXIT_REFUSED),
    ("migrate", "SWICK_DATABASE_URL", "closed", EXIT_UNREACHABLE),
    ("migrate", "SWICK_DATABASE_URL", "database", EXIT_REFUSED),
]


@pytest.mark.parametrize(("service", "variable", "how", "code"), CASES)
async def test_a_missing_dependency_ends_in_one_line_and_its_exit_code(
    settings: Settings, tmp_path: Path, service: str, variable: str, how: str, code: int
) -> None:
    env = env_of(settings, service, tmp_path)
    wrong = broken(env[variable], how)
    process = await asyncio.create_subprocess_exec(
        *command(service),
        env=env | {variable: wrong},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), ENDED_WITHIN)
    text = output.decode()
    lines = text.strip().splitlines()
    assert process.returncode == code, text
    assert "Traceback" not in text
    *attempts, final = lines
    assert attempts, text
    for line in attempts:
        assert line.startswith("waiting for ") and f"({variable})" in line, line
        assert masked(wrong) in line, line
    who = "swick migrate" if service == "migrate" else f"swick serve {service}"
    assert final.startswith(f"{who}: ") and final.endswith(f"(exit code {code})"), final
    assert variable in final and masked(wrong) in final
    password = urlparse(wrong).password
    assert password is None or password not in text


@contextlib.asynccontextmanager
async def forwarder(port: int, to: tuple[str, int]) -> AsyncIterator[None]:
    """Whatever connects to ``port`` is connected on to ``to``."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def forward(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*to)
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(forward, "127.0.0.1", port)
    try:
        yield
    finally:
        server.close()


async def test_a_service_starts_when_its_broker_comes_up_during_the_wait(
    settings: Settings, tmp_path: Path
) -> None:
    env = env_of(settings, "gateway", tmp_path) | {"SWICK_STARTUP_TIMEOUT": "120"}
    broker = urlparse(env["SWICK_AMQP_URL"])
    port, public, internal = free_port(), free_port(), free_port()
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "services.cli", "serve", "gateway", "--port", str(public)),
        *("--internal-port", str(internal)),
        env=env | {"SWICK_AMQP_URL": at_port(env["SWICK_AMQP_URL"], port)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    try:
        first = await asyncio.wait_for(process.stdout.readline(), ENDED_WITHIN)
        assert first.startswith(b"waiting for RabbitMQ") and b"(SWICK_AMQP_URL)" in first
        async with forwarder(port, (broker.hostname or "127.0.0.1", broker.port or 5672)):
            while True:
                line = await asyncio.wait_for(process.stdout.readline(), ENDED_WITHIN)
                assert line and b"Traceback" not in line
                if b"is up, after" in line:
                    break
                assert line.startswith(b"waiting for RabbitMQ"), line
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{public}") as http:
                deadline = asyncio.get_running_loop().time() + ENDED_WITHIN
                while True:
                    with contextlib.suppress(httpx.TransportError):
                        if (await http.get("/api/tables")).status_code == 200:
                            break
                    assert asyncio.get_running_loop().time() < deadline, "the gateway never served"
                    await asyncio.sleep(0.1)
            process.terminate()
            await asyncio.wait_for(process.wait(), ENDED_WITHIN)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.fixture
async def powerless_dsn(settings: Settings) -> AsyncIterator[str]:
    """An empty database, and a user that may connect to it but create nothing there."""
    role = f"swick_powerless_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(settings.database_url)
    try:
        await admin.execute(f'CREATE ROLE "{role}" LOGIN')
        async with fresh_database(settings.database_url, "powerless") as dsn:
            await admin.execute(f'REVOKE CREATE ON DATABASE "{urlparse(dsn).path[1:]}" FROM PUBLIC')
            parsed = urlparse(dsn)
            yield parsed._replace(netloc=f"{role}@{parsed.netloc.rpartition('@')[2]}").geturl()
    finally:
        await admin.execute(f'DROP ROLE IF EXISTS "{role}"')
        await admin.close()


@pytest.mark.parametrize(
    ("service", "step"), [("gateway", "starting the gateway"), ("table", "migrating the database")]
)
async def test_any_other_start_up_failure_is_one_line_and_exit_code_1(
    settings: Settings, tmp_path: Path, powerless_dsn: str, service: str, step: str
) -> None:
    env = env_of(settings, service, tmp_path) | {"SWICK_DATABASE_URL": powerless_dsn}
    process = await asyncio.create_subprocess_exec(
        *command(service), env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output, _ = await asyncio.wait_for(process.communicate(), ENDED_WITHIN)
    text = output.decode()
    assert process.returncode == EXIT_FAILED, text
    assert "Traceback" not in text
    (line,) = text.strip().splitlines()
    assert line.startswith(f"swick serve {service}: {step} failed: ")
    assert line.endswith(f"(exit code {EXIT_FAILED})")


async def test_swick_debug_adds_the_traceback(settings: Settings, tmp_path: Path) -> None:
    env = env_of(settings, "table", tmp_path) | {"SWICK_DEBUG": "1"}
    env["SWICK_DATABASE_URL"] = broken(env["SWICK_DATABASE_URL"], "closed")
    process = await asyncio.create_subprocess_exec(
        *command("table"), env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output, _ = await asyncio.wait_for(process.communicate(), ENDED_WITHIN)
    text = output.decode()
    assert process.returncode == EXIT_UNREACHABLE, text
    assert "Traceback" in text and "ConnectionRefusedError" in text
    assert text.strip().splitlines()[-1].endswith(f"(exit code {EXIT_UNREACHABLE})")
