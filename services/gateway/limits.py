"""Token buckets: how fast one connection may send, and how often one client address may ask
for costly documents (a finished game's replay)."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import TypeVar

from shared.token_bucket import TokenBucket

V = TypeVar("V")

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


def recent(table: OrderedDict[str, V], key: str, make: Callable[[], V], bound: int) -> V:
    """The entry of ``key`` in a table of at most ``bound`` entries, made if missing: the
    least recently used entries are forgotten first."""
    entry = table.get(key)
    if entry is None:
        entry = table[key] = make()
        while len(table) > bound:
            table.popitem(last=False)
    else:
        table.move_to_end(key)
    return entry


@dataclass(eq=False)
class AddressRate:
    """Per client address: ``rate`` requests a second on average, in bursts of up to ``burst``.
    The table of addresses is bounded: the least recently seen are forgotten first."""

    rate: float
    burst: float
    _: KW_ONLY
    max_addresses: int = MAX_ADDRESSES
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, TokenBucket] = field(init=False, default_factory=OrderedDict)

    def _bucket(self, address: str) -> TokenBucket:
        return recent(
            self._buckets,
            address,
            lambda: TokenBucket(self.rate, self.burst, self.clock),
            self.max_addresses,
        )

    def take(self, address: str) -> bool:
        """Whether ``address`` may have one more request answered now (and count it)."""
        return self._bucket(address).take()

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may ask again (0 if it may now)."""
        return math.ceil(self._bucket(address).wait())

    def __len__(self) -> int:
        return len(self._buckets)
