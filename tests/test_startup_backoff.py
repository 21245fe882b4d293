"""The start-up wait on a clock the test controls: its schedule, its lines, its exit codes."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import aiormq.exceptions
import asyncpg
import pytest

from shared.startup import (
    EXIT_CONFIGURATION,
    EXIT_FAILED,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    MAX_DELAY,
    Dependency,
    Startup,
    StartupFailed,
    delays,
    exit_code,
    masked,
    timeout_from,
)
from tests.clock import Clock

URL = "amqp://swick-table:s3cret@broker.internal:5672/"


def startup(clock: Clock, lines: list[str], timeout: float = 10.0) -> Startup:
    return Startup(
        timeout=timeout, say=lines.append, clock=clock, sleep=clock.sleep, rng=random.Random(7)
    )


def failing(errors: list[BaseException], *, forever: bool = False) -> Callable[[], Awaitable[str]]:
    """A connection that fails with each of ``errors`` in turn (the last one again and again
    if ``forever``), then succeeds."""
    remaining = list(errors)

    async def connect() -> str:
        if remaining:
            raise remaining[0] if forever and len(remaining) == 1 else remaining.pop(0)
        return "connected"

    return connect


def test_the_password_is_hidden_wherever_the_url_holds_it() -> None:
    assert masked(URL) == "amqp://swick-table:***@broker.internal:5672/"
    assert masked("amqp://u:p%40ss@h:5672/vh") == "amqp://u:***@h:5672/vh"
    assert masked("postgresql://swick@db:5432/swick?password=x&sslmode=require") == (
        "postgresql://swick@db:5432/swick?password=***&sslmode=require"
    )
    assert masked("postgresql://postgres@127.0.0.1:5432/postgres") == (
        "postgresql://postgres@127.0.0.1:5432/postgres"
    )
    assert "s3cret" not in str(Dependency("RabbitMQ", "SWICK_AMQP_URL", URL, failing([])))


def test_the_pauses_double_up_to_the_cap_with_jitter_below_each_ceiling() -> None:
    pauses = delays(random.Random(1), first=0.25, cap=MAX_DELAY)
    ceilings = [0.25, 0.5, 1.0, 2.0, 4.0] + [MAX_DELAY] * 20
    for ceiling in ceilings:
        pause = next(pauses)
        assert ceiling / 2 <= pause <= ceiling


def test_the_jitter_comes_from_the_given_random_source() -> None:
    first = [next(p) for p in [delays(random.Random(3))] for _ in range(8)]
    again = [next(p) for p in [delays(random.Random(3))] for _ in range(8)]
    other = [next(p) for p in [delays(random.Random(4))] for _ in range(8)]
    assert first == again != other


async def test_a_dependency_that_comes_up_is_used_after_one_line_per_failed_attempt() -> None:
    clock, lines = Clock(), list[str]()
    refused = ConnectionRefusedError(111, "Connection refused")
    dependency = Dependency("RabbitMQ", "SWICK_AMQP_URL", URL, failing([refused] * 3))
    assert await startup(clock, lines).wait_for(dependency) == "connected"
    assert len(lines) == 4 and len(clock.pauses) == 3
    for n, line in enumerate(lines[:3], start=1):
        assert f"attempt {n} unreachable" in line
        assert "SWICK_AMQP_URL" in line and "swick-table:***@broker.internal:5672" in line
        assert "s3cret" not in line
    assert lines[3].endswith("is up, after 4 attempts")


async def test_an_unreachable_dependency_is_given_up_at_the_deadline_with_exit_code_3() -> None:
    clock, lines = Clock(), list[str]()
    dependency = Dependency(
        "PostgreSQL",
        "SWICK_DATABASE_URL",
        "postgresql://db/x",
        failing([OSError("Connect call failed")], forever=True),
    )
    with pytest.raises(StartupFailed) as failed:
        await startup(clock, lines, timeout=30).wait_for(dependency)
    assert failed.value.code == EXIT_UNREACHABLE
    assert "unreachable" in failed.value.line and "SWICK_DATABASE_URL" in failed.value.line
    assert clock.now - 1000.0 == pytest.approx(30.0)  # the last pause is cut to the deadline
    assert max(clock.pauses) <= MAX_DELAY
    assert len(lines) == len(clock.pauses) + 1
    assert lines[-1].endswith("no time left")


@pytest.mark.parametrize(
    "refusal",
    [
        aiormq.exceptions.ProbableAuthenticationError("ACCESS_REFUSED"),
        asyncpg.InvalidPasswordError("password authentication failed"),
        asyncpg.InvalidCatalogNameError('database "x" does not exist'),
        asyncpg.InvalidAuthorizationSpecificationError('role "x" does not exist'),
    ],
)
async def test_a_refusal_is_retried_until_the_deadline_then_exit_code_4(
    refusal: BaseException,
) -> None:
    clock, lines = Clock(), list[str]()
    dependency = Dependency("X", "SWICK_X", "x://u:p@h/", failing([refusal], forever=True))
    with pytest.raises(StartupFailed) as failed:
        await startup(clock, lines, timeout=5).wait_for(dependency)
    assert failed.value.code == EXIT_REFUSED
    assert "check SWICK_X" in failed.value.line
    assert len(lines) > 1 and all("refused" in line for line in lines)


async def test_a_refusal_then_a_success_starts_normally() -> None:
    clock, lines = Clock(), list[str]()
    refusal = aiormq.exceptions.ProbableAuthenticationError("ACCESS_REFUSED")
    dependency = Dependency("RabbitMQ", "SWICK_AMQP_URL", URL, failing([refusal]))
    assert await startup(clock, lines).wait_for(dependency) == "connected"


async def test_an_unexpected_error_stops_at_once_with_exit_code_1() -> None:
    clock, lines = Clock(), list[str]()
    dependency = Dependency("RabbitMQ", "SWICK_AMQP_URL", URL, failing([KeyError("boom")]))
    with pytest.raises(StartupFailed) as failed:
        await startup(clock, lines).wait_for(dependency)
    assert failed.value.code == EXIT_FAILED and "KeyError" in failed.value.line
    assert lines == [] and clock.pauses == []


async def test_waits_share_one_deadline() -> None:
    clock, lines = Clock(), list[str]()
    run = startup(clock, lines, timeout=10)
    first = Dependency("A", "SWICK_A", "a://h/", failing([OSError("down")] * 100))
    with pytest.raises(StartupFailed):
        await run.wait_for(first)
    second = Dependency("B", "SWICK_B", "b://h/", failing([OSError("down")], forever=True))
    with pytest.raises(StartupFailed):
        await run.wait_for(second)
    assert clock.now - 1000.0 == pytest.approx(10.0)
    assert [line for line in lines if "SWICK_B" in line] == [lines[-1]]  # one attempt only


async def test_a_failed_step_names_itself() -> None:
    with pytest.raises(StartupFailed) as failed:
        async with Startup().step("migrating the database"):
            raise RuntimeError("relation exists")
    assert failed.value.code == EXIT_FAILED
    assert failed.value.line == "migrating the database failed: RuntimeError: relation exists"


@pytest.mark.parametrize("raw", ["soon", "-1", "inf", "nan"])
def test_an_unusable_timeout_is_refused_as_configuration(raw: str) -> None:
    with pytest.raises(StartupFailed) as failed:
        timeout_from({"SWICK_STARTUP_TIMEOUT": raw})
    assert failed.value.code == EXIT_CONFIGURATION
    assert "SWICK_STARTUP_TIMEOUT" in failed.value.line


def test_the_timeout_defaults_to_two_minutes() -> None:
    assert timeout_from({}) == 120.0
    assert timeout_from({"SWICK_STARTUP_TIMEOUT": "2.5"}) == 2.5
    assert timeout_from({"SWICK_STARTUP_TIMEOUT": "0"}) == 0.0


def test_a_failure_ends_the_command_with_its_code_and_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SWICK_DEBUG", raising=False)
    lines: list[str] = []

    def main() -> int:
        raise StartupFailed("RabbitMQ at amqp://h/ (SWICK_AMQP_URL) is unreachable", 3)

    assert exit_code("swick serve table", main, say=lines.append) == 3
    assert lines == [
        "swick serve table: RabbitMQ at amqp://h/ (SWICK_AMQP_URL) is unreachable (exit code 3)"
    ]
    assert exit_code("swick serve table", lambda: 0, say=lines.append) == 0
