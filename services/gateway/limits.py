"""Token buckets: how fast one connection may send, and how often one client address may ask
for costly documents (a finished game's replay)."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from shared.token_bucket import TokenBucket

MAX_ADDRESSES = 10_000  # addresses remembered: under a flood of new ones the oldest are forgotten


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


class AddressRate:
    """Per client address: ``rate`` requests a second on average, in bursts of up to ``burst``.
    The table of addresses is bounded: the least recently seen are forgotten first."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        max_addresses: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        self.clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _bucket(self, address: str) -> TokenBucket:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
            while len(self._buckets) > self.max_addresses:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket

    def take(self, address: str) -> bool:
        """Whether ``address`` may have one more request answered now (and count it)."""
        return self._bucket(address).take()

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may ask again (0 if it may now)."""
        bucket = self._bucket(address)
        now = self.clock()
        tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        return max(0, math.ceil((1 - tokens) / self.rate))

    def __len__(self) -> int:
        return len(self._buckets)
