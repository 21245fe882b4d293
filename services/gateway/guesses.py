"""Throttled guessing: how many wrong secrets (admin tokens, invite codes) one address may try.

Each client address carries a debt of failed guesses that drains at ``limit`` per ``window``.
At ``limit`` the address is refused without its guess being checked, right or wrong, and every
refused try adds to the debt (up to twice the limit), so an address that keeps hammering stays
shut. Success never wipes the debt: a known invite code must not buy more guesses. The table of
addresses is bounded: under a flood of new addresses the least recently seen are forgotten.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from services.gateway.limits import MAX_ADDRESSES, recent
from services.gateway.proxies import limit_key


@dataclass(slots=True)
class _Debt:
    failures: float
    stamp: float


class GuessThrottle:
    def __init__(
        self,
        limit: int,
        window: float,
        *,
        max_addresses: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.drain = limit / window  # failures forgiven per second
        self.max_addresses = max_addresses
        self.clock = clock
        self._debts: OrderedDict[str, _Debt] = OrderedDict()

    def _debt(self, address: str) -> _Debt:
        now = self.clock()
        debt = recent(self._debts, address, lambda: _Debt(0.0, now), self.max_addresses)
        debt.failures = max(0.0, debt.failures - (now - debt.stamp) * self.drain)
        debt.stamp = now
        return debt

    def admit(self, address: str) -> bool:
        """Whether ``address`` may have its next guess checked; a refusal counts against it."""
        debt = self._debt(address)
        if debt.failures + 1 > self.limit:
            debt.failures = min(debt.failures + 1, 2.0 * self.limit)
            return False
        return True

    def failed(self, address: str) -> None:
        """``address`` guessed wrong."""
        self._debt(address).failures += 1

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may guess again (0 if it may now)."""
        debt = self._debt(address)
        excess = debt.failures + 1 - self.limit
        return max(0, math.ceil(excess / self.drain))

    def __len__(self) -> int:
        return len(self._debts)


@dataclass
class Guesses:
    """The gateway's throttles: admin tokens (5 wrong a quarter hour), invite codes (10 wrong a
    minute), each per client address."""

    admin: GuessThrottle = field(default_factory=lambda: GuessThrottle(5, 900.0))
    invites: GuessThrottle = field(default_factory=lambda: GuessThrottle(10, 60.0))


def client_address(client: tuple[str, int] | None) -> str:
    """What a request's or socket's limits count under: its client's address (a trusted
    proxy's client: ``proxies.TrustedProxies``), an IPv6 client's /64."""
    return limit_key(client[0]) if client else ""
