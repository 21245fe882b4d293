"""Supervision of a service's long-running tasks: none of them dies in silence.

A consumer, a relay or a lease loop that meets an error retrying can fix (a dependency's
connection lost or refused for a while: PostgreSQL restarting or failing over, the broker's
channel closed, a serialization failure) logs it with its name and tries again after a
capped, jittered backoff (``shared.startup.delays``); the backoff starts over once the task
has run for a while without trouble. Any other error is logged with its traceback and
re-raised, so that the task group, then the process, ends and its supervisor (Kubernetes,
systemd, ``swick up``) starts it afresh, rather than living on with a dead task.

``Readiness`` holds a flag per consumer ("consuming"), which a service's ``/readyz`` reports.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import aio_pika.exceptions
import asyncpg

from shared.startup import delays, described

log = logging.getLogger("swick.supervise")

FIRST_DELAY = 0.1  # seconds before the first retry, doubling up to MAX_DELAY
MAX_DELAY = 5.0
HEALTHY_AFTER = 30.0  # seconds of running without trouble that reset the backoff

# PostgreSQL's error classes that a new attempt, on a new connection, can get past:
# 08 connection exception, 40 transaction rollback (serialization failure, deadlock),
# 53 insufficient resources (too many connections), 57P01-57P03 the server shutting down,
# crashing or starting (AdminShutdownError, CrashShutdownError, CannotConnectNowError), and
# the refusals of a new connection that an operator's fix lets through: 55000 (the database
# does not accept connections for now), 28 (the credentials), 3D000 (no such database).
RETRYABLE_SQLSTATES = ("08", "40", "53", "57P01", "57P02", "57P03", "55000", "28", "3D000")


def retryable(error: BaseException) -> bool:
    """Whether trying again (on a fresh connection) can succeed where ``error`` failed."""
    if isinstance(error, asyncpg.PostgresError):
        return (error.sqlstate or "").startswith(RETRYABLE_SQLSTATES)
    if isinstance(error, asyncpg.exceptions.InternalClientError):
        # What asyncpg raises on a connection the server terminated while it sat in the pool
        # ("cannot switch to state ...; another operation is in progress"): the next one works.
        return True
    if isinstance(error, asyncpg.InterfaceError):
        # The connection closed under the query (ConnectionDoesNotExistError is one): yes.
        # A value the client cannot encode fails the same way every time: no.
        return not isinstance(
            error, asyncpg.exceptions.DataError | asyncpg.exceptions.UnsupportedClientFeatureError
        )
    return isinstance(
        error,
        OSError
        | TimeoutError
        | ConnectionError
        | aio_pika.exceptions.AMQPConnectionError
        | aio_pika.exceptions.ChannelInvalidStateError
        | aio_pika.exceptions.ChannelClosed,
    )


@dataclass
class Backoff:
    """The pauses between a task's retries; injectable clock, sleep and jitter for tests."""

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: random.Random = field(default_factory=random.Random)
    first: float = FIRST_DELAY
    cap: float = MAX_DELAY
    _pauses: Iterator[float] | None = field(default=None, init=False)

    def reset(self) -> None:
        self._pauses = None

    def next(self) -> float:
        """The next pause, in seconds."""
        if self._pauses is None:
            self._pauses = delays(self.rng, self.first, self.cap)
        return next(self._pauses)


async def supervise(
    name: str,
    work: Callable[[], Awaitable[None]],
    *,
    backoff: Backoff | None = None,
    logger: logging.Logger = log,
    healthy_after: float = HEALTHY_AFTER,
) -> None:
    """Run ``work()`` for good: again after a retryable error (logged, after a pause), and
    re-raising any other error after logging it. ``work`` returning ends the supervision."""
    backoff = backoff or Backoff()
    failures = 0
    while True:
        started = backoff.clock()
        try:
            await work()
            return
        except Exception as error:
            if not retryable(error):
                logger.exception("%s failed; stopping", name, extra={"task": name})
                raise
            if backoff.clock() - started >= healthy_after:
                backoff.reset()
                failures = 0
            failures += 1
            seconds = backoff.next()
            logger.warning(
                "%s interrupted: %s; retrying in %.2f s",
                name,
                described(error),
                seconds,
                extra={"task": name, "failures": failures},
            )
            await backoff.sleep(seconds)


async def background(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Wait on a service's supervised tasks (``app.state.background``), raising the error of
    the first that fails: run beside its listeners, it takes the process down with it."""
    await asyncio.gather(*tasks)


@dataclass
class Readiness:
    """Flags a service's ``/readyz`` reports: ready while every flag is up."""

    flags: dict[str, bool] = field(default_factory=dict)

    def expect(self, name: str) -> None:
        """``name`` counts from now on, down until it is raised."""
        self.flags.setdefault(name, False)

    @contextmanager
    def up_while(self, name: str) -> Iterator[None]:
        """``name`` is up inside the block (a consumer's subscription), down after it."""
        self.flags[name] = True
        try:
            yield
        finally:
            self.flags[name] = False

    @property
    def ready(self) -> bool:
        return all(self.flags.values())

    def down(self) -> list[str]:
        return sorted(name for name, up in self.flags.items() if not up)
