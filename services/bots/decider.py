"""A strategy's own thread: its decisions one at a time, never in the way of the process's exit.

Unlike a ``ThreadPoolExecutor``'s, the thread is a daemon: a strategy stuck in a decision does
not keep the process alive once the service stops, so its supervisor can restart it.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[Callable[[], Any], Future[Any]] | None


class Decider:
    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` on this thread, after the calls before it."""
        future: Future[T] = Future()
        self._jobs.put((call, future))
        return await asyncio.wrap_future(future)

    def stop(self) -> None:
        """No more calls; the thread ends after the one it is in, if ever."""
        self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            call, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as error:  # handed to the awaiting side, which decides
                future.set_exception(error)
