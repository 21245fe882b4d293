"""Start-up: wait for a service's dependencies, or stop with one line and one exit code.

A service connects to RabbitMQ and PostgreSQL before it does anything. In a deploy they may
come up after it, or later than it (a broker restarting, a database still being created, the
broker users not set up yet), so it tries again with a capped exponential backoff, printing one
line per failed attempt that names the dependency, the variable to fix and the address (the
password hidden), until ``SWICK_STARTUP_TIMEOUT`` seconds have passed since it started. Then it
stops with one line and the exit code of what went wrong, without a traceback
(``SWICK_DEBUG=1`` shows it):

- ``EXIT_CONFIGURATION`` (2): a setting is refused before anything is tried;
- ``EXIT_UNREACHABLE`` (3): nothing answered at the address, or the connection broke;
- ``EXIT_REFUSED`` (4): it answered, but refused the credentials, the virtual host or the
  database. These are retried as well until the limit, since an operator may be rotating a
  password or the users may be being set up; the distinct code says that waiting longer will
  not help by itself.
- ``EXIT_FAILED`` (1): anything unexpected, at once, naming what was being done.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sys
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import urlparse

import aiormq.exceptions
import asyncpg
import httpx

EXIT_FAILED = 1
EXIT_CONFIGURATION = 2
EXIT_UNREACHABLE = 3
EXIT_REFUSED = 4

DEFAULT_TIMEOUT = 120.0  # seconds, SWICK_STARTUP_TIMEOUT
FIRST_DELAY = 0.25  # seconds before the second attempt, doubling up to MAX_DELAY
MAX_DELAY = 5.0
ATTEMPT_TIMEOUT = 10.0  # one attempt, against an address that swallows packets

UNREACHABLE = "unreachable"
REFUSED = "refused"
# The clients' own log lines about a failed connection would repeat ours at every attempt.
CLIENT_LOGGERS = ("aiormq", "aio_pika")
# PostgreSQL's refusals: invalid authorization (28xxx: user, password) and an unknown database.
POSTGRES_REFUSALS = ("28", "3D")

T = TypeVar("T")


class StartupFailed(Exception):
    """The service cannot start: ``line`` says why, ``code`` is the process's exit code."""

    def __init__(self, line: str, code: int) -> None:
        super().__init__(line)
        self.line = line
        self.code = code


def masked(url: str) -> str:
    """``url`` with its password (in the address or as a ``password=`` parameter) hidden."""
    parsed = urlparse(url)
    if parsed.password is not None:
        credentials, _, address = parsed.netloc.rpartition("@")
        parsed = parsed._replace(netloc=f"{credentials.partition(':')[0]}:***@{address}")
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parsed.query)
    return parsed._replace(query=query).geturl()


def delays(
    rng: random.Random, first: float = FIRST_DELAY, cap: float = MAX_DELAY
) -> Iterator[float]:
    """The pauses between attempts: a ceiling doubling from ``first`` up to ``cap``, each pause
    between half the ceiling and all of it (jitter, so that services restarted together do not
    knock together)."""
    ceiling = first
    while True:
        yield ceiling / 2 + rng.uniform(0, ceiling / 2)
        ceiling = min(cap, ceiling * 2)


def failure_kind(error: BaseException) -> str | None:
    """``REFUSED``, ``UNREACHABLE``, or ``None`` for an error that is no dependency's."""
    if isinstance(error, aiormq.exceptions.ProbableAuthenticationError):
        return REFUSED
    if isinstance(error, asyncpg.PostgresError):
        refused = (error.sqlstate or "").startswith(POSTGRES_REFUSALS)
        return REFUSED if refused else UNREACHABLE  # e.g. starting up, too many connections
    if isinstance(error, OSError | TimeoutError | httpx.TransportError):
        return UNREACHABLE  # aiormq's AMQPConnectionError is a ConnectionError
    if isinstance(error, aiormq.exceptions.AMQPError):
        return REFUSED  # the broker answered and closed: no such virtual host, no access
    return None


def described(error: BaseException) -> str:
    """One line about ``error``."""
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(error).__name__}: {first[:200]}" if first else type(error).__name__


@dataclass(frozen=True, slots=True)
class Dependency(Generic[T]):
    """Something a service needs before it starts, and how to connect to it."""

    name: str  # for people: "RabbitMQ", "PostgreSQL"
    variable: str  # the setting that names it: "SWICK_AMQP_URL"
    url: str
    connect: Callable[[], Awaitable[T]]

    def __str__(self) -> str:
        return f"{self.name} at {masked(self.url)} ({self.variable})"


def to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def quiet_clients() -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in CLIENT_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def timeout_from(env: Mapping[str, str]) -> float:
    raw = env.get("SWICK_STARTUP_TIMEOUT", "")
    if not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise StartupFailed(
            f"SWICK_STARTUP_TIMEOUT must be a number of seconds (0 or more), not {raw!r}",
            EXIT_CONFIGURATION,
        )
    return seconds


@dataclass
class Startup:
    """One service's start-up: every wait shares its deadline, ``timeout`` seconds after it
    began. The clock, the pauses and the jitter are injectable for tests."""

    timeout: float = DEFAULT_TIMEOUT
    say: Callable[[str], None] = to_stderr
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: random.Random = field(default_factory=random.Random)
    began: float = field(init=False)

    def __post_init__(self) -> None:
        self.began = self.clock()

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Startup:
        return cls(timeout=timeout_from(env))

    async def wait_for(self, dependency: Dependency[T]) -> T:
        """``dependency`` connected, after as many attempts as fit before the deadline."""
        pauses = delays(self.rng)
        deadline = self.began + self.timeout
        attempt = 0
        with quiet_clients():
            while True:
                attempt += 1
                try:
                    limit = min(ATTEMPT_TIMEOUT, max(1.0, deadline - self.clock()))
                    async with asyncio.timeout(limit):
                        connected = await dependency.connect()
                except Exception as error:
                    kind = failure_kind(error)
                    if kind is None:
                        raise StartupFailed(
                            f"connecting to {dependency} failed: {described(error)}", EXIT_FAILED
                        ) from error
                    reason = "refused" if kind == REFUSED else "unreachable"
                    left = deadline - self.clock()
                    pause = min(next(pauses), left)
                    then = f"next in {pause:.1f} s" if left > 0 else "no time left"
                    self.say(
                        f"waiting for {dependency}: attempt {attempt} {reason}:"
                        f" {described(error)}; {then}"
                    )
                    if left <= 0:
                        raise self._gave_up(dependency, kind, attempt) from error
                    await self.sleep(pause)
                else:
                    if attempt > 1:
                        self.say(f"{dependency} is up, after {attempt} attempts")
                    return connected

    def _gave_up(self, dependency: Dependency[T], kind: str, attempts: int) -> StartupFailed:
        waited = f"after {attempts} attempts in {self.clock() - self.began:.0f} s"
        if kind == REFUSED:
            return StartupFailed(
                f"{dependency} refused the credentials, the database or the virtual host"
                f" {waited}: check {dependency.variable}",
                EXIT_REFUSED,
            )
        return StartupFailed(
            f"{dependency} is unreachable {waited} (SWICK_STARTUP_TIMEOUT is {self.timeout:g} s)",
            EXIT_UNREACHABLE,
        )

    @asynccontextmanager
    async def step(self, what: str) -> AsyncIterator[None]:
        """Turn an unexpected error of a start-up step (``what``: "migrating the database")
        into a ``StartupFailed`` naming it."""
        try:
            yield
        except StartupFailed:
            raise
        except Exception as error:
            raise StartupFailed(f"{what} failed: {described(error)}", EXIT_FAILED) from error


def debugging(env: Mapping[str, str] = os.environ) -> bool:
    return env.get("SWICK_DEBUG", "") not in ("", "0")


def exit_code(who: str, main: Callable[[], int], say: Callable[[str], None] = to_stderr) -> int:
    """``main()``'s exit code, or the code of the start-up failure that stopped it, said in one
    line (with its traceback if ``SWICK_DEBUG=1``)."""
    try:
        return main()
    except StartupFailed as failure:
        if debugging():
            traceback.print_exception(failure)
        say(f"{who}: {failure.line} (exit code {failure.code})")
        return failure.code
