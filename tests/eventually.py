"""Waiting for something another process or task does in its own time: polled, with a deadline
generous enough to catch only what never happens, not a slow machine."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def eventually(
    found: Callable[[], Awaitable[T]],
    what: str = "the condition",
    within: float = 60.0,
    every: float = 0.05,
) -> T:
    """What ``found()`` returns once it is true; fails if it never is within ``within`` s."""
    deadline = time.monotonic() + within
    while not (result := await found()):
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        await asyncio.sleep(every)
    return result
