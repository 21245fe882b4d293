"""Token buckets: how fast one connection may send."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Allows ``rate`` events a second on average and bursts of up to ``burst``."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Admission:
    """One socket's client messages: up to ``rate`` a second in bursts of ``burst``; the rest
    are refused, and a socket refused ``patience`` times (forgiven ``forgive`` a second) is a
    flood to cut. Refusals are counted, not timed, so a flood is cut after as many refusals on
    a busy server as on an idle one."""

    def __init__(
        self,
        rate: float,
        burst: float,
        patience: float,
        forgive: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.messages = TokenBucket(rate, burst, clock)
        self.patience = TokenBucket(forgive, patience, clock)

    def admit(self) -> bool:
        return self.messages.take()

    def exhausted(self) -> bool:
        """Count one refusal: true once the socket has used up the server's patience."""
        return not self.patience.take()
