"""Supervision of long-running tasks on a clock the test controls: what is retried, after which
pauses, what is logged, and what takes the process down."""

from __future__ import annotations

import logging
import random

import aio_pika.exceptions
import asyncpg
import pytest

from shared.supervise import MAX_DELAY, Backoff, Readiness, retryable, supervise
from tests.clock import Clock


def backoff_on(clock: Clock) -> Backoff:
    return Backoff(clock=clock, sleep=clock.sleep, rng=random.Random(7))


class Flaky:
    """Work that fails with ``errors`` in turn (running ``ran_for`` seconds each time), then
    returns."""

    def __init__(self, clock: Clock, errors: list[BaseException], ran_for: float = 0.0) -> None:
        self.clock = clock
        self.errors = errors
        self.ran_for = ran_for
        self.calls = 0

    async def __call__(self) -> None:
        self.calls += 1
        self.clock.now += self.ran_for
        if self.errors:
            raise self.errors.pop(0)


LOST = asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed")


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed"),
        asyncpg.InterfaceError("cannot perform operation: connection is closed"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.SerializationError("could not serialize access"),
        asyncpg.DeadlockDetectedError("deadlock detected"),
        asyncpg.TooManyConnectionsError("too many clients"),
        asyncpg.ObjectNotInPrerequisiteStateError("database does not allow connections"),
        asyncpg.exceptions.InternalClientError("cannot switch to state 12"),
        ConnectionRefusedError("connection refused"),
        TimeoutError(),
        aio_pika.exceptions.ChannelInvalidStateError("channel closed"),
    ],
)
def test_the_troubles_of_a_dependency_are_retried(error: BaseException) -> None:
    assert retryable(error)


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.UniqueViolationError("duplicate key"),
        asyncpg.UndefinedTableError("relation does not exist"),
        asyncpg.exceptions.DataError("value out of int64 range"),
        ValueError("a bug"),
        KeyError("a bug"),
    ],
)
def test_an_error_that_would_come_again_is_not_retried(error: BaseException) -> None:
    assert not retryable(error)


async def test_a_lost_connection_is_retried_after_growing_capped_pauses(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    work = Flaky(clock, [LOST] * 12)
    with caplog.at_level(logging.WARNING, logger="swick.supervise"):
        await supervise("the postings consumer", work, backoff=backoff_on(clock))
    assert work.calls == 13
    assert len(clock.pauses) == 12
    assert all(pause <= MAX_DELAY for pause in clock.pauses)
    assert clock.pauses[-1] >= MAX_DELAY / 2  # grown to the cap, with jitter below it
    assert clock.pauses[0] < clock.pauses[3] < clock.pauses[6]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 12
    line = warnings[0].getMessage()
    assert "the postings consumer" in line and "ConnectionDoesNotExistError" in line, line
    assert warnings[-1].__dict__["failures"] == 12


async def test_the_backoff_starts_over_after_a_healthy_run() -> None:
    clock = Clock()
    backoff = backoff_on(clock)
    work = Flaky(clock, [LOST] * 8)
    await supervise("a relay", work, backoff=backoff)
    grown = clock.pauses[-1]
    clock.pauses.clear()
    work = Flaky(clock, [LOST], ran_for=60.0)  # failed once, after a minute of work
    await supervise("a relay", work, backoff=backoff, healthy_after=30.0)
    assert clock.pauses[0] < grown / 4


async def test_any_other_error_is_logged_with_its_traceback_and_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    work = Flaky(clock, [LOST, KeyError("table-7")])
    with caplog.at_level(logging.WARNING, logger="swick.supervise"), pytest.raises(KeyError):
        await supervise("the lease loop", work, backoff=backoff_on(clock))
    assert work.calls == 2  # the lost connection was retried, the bug was not
    failure = caplog.records[-1]
    assert failure.levelno == logging.ERROR
    assert "the lease loop" in failure.getMessage()
    assert failure.exc_info is not None and failure.exc_info[0] is KeyError


def test_readiness_is_down_until_each_expected_flag_is_up() -> None:
    readiness = Readiness()
    assert readiness.ready  # nothing expected yet
    readiness.expect("consuming postings")
    assert not readiness.ready
    assert readiness.down() == ["consuming postings"]
    with readiness.up_while("consuming postings"):
        assert readiness.ready
    assert not readiness.ready
    with pytest.raises(RuntimeError), readiness.up_while("consuming postings"):
        raise RuntimeError("the subscription broke")
    assert readiness.down() == ["consuming postings"]
