"""A clock for tests of code that waits: time passes only when that code sleeps, or the test
moves it (``clock.now += seconds``)."""

from __future__ import annotations


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds
