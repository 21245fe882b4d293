"""A worker's batch: the requests that were waiting, decided one after another in memory and
committed in one transaction; what they send goes out only once that commit is made.

A batch is one request when the worker is idle (nothing waits to be batched, so nothing waits
for a batch) and grows with the load on its own. If the commit fails, every table's state goes
back to what it was before the batch, nothing of it has been sent, and the worker replays the
requests one at a time (so one bad command fails alone).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.table.storage import Append, Queued
from shared.bus import Delivery

Send = Callable[[], Awaitable[None]]


class HasState(Protocol):
    state: Any


@dataclass(frozen=True, slots=True)
class Item:
    """A request as the shard's consumer handed it over, under the lease it held then."""

    shard: int
    epoch: int
    delivery: Delivery


@dataclass(slots=True)
class Staged:
    table: HasState
    before: Any
    append: Append
    queued: Queued | None = None


@dataclass(slots=True)
class Batch:
    staged: list[Staged] = field(default_factory=list)
    sends: list[Send] = field(default_factory=list)  # in the order they were made

    def stage(self, table: HasState, after: Any, append: Append) -> Staged:
        """Note ``table``'s command for the commit, and move the table on to ``after``."""
        staged = Staged(table, table.state, append)
        self.staged.append(staged)
        table.state = after
        return staged

    def appends(self) -> list[Append]:
        return [staged.append for staged in self.staged]

    def committed(self, queued: list[Queued | None]) -> None:
        for staged, posting in zip(self.staged, queued, strict=True):
            staged.queued = posting

    def roll_back(self) -> None:
        """Every table back to its state before the batch (its first command's ``before``)."""
        for staged in reversed(self.staged):
            staged.table.state = staged.before
        self.staged.clear()
        self.sends.clear()
