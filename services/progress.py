"""Progress of the long commands (arena, benchmarks, load and chaos runs) for a person watching.

The measuring code reports its stages and steps to a ``Progress``; ``progress_bars(shown)``
gives rich's bars on standard error when ``shown`` (``showing(args)``: a terminal, and no
``--json``) and ``SILENT`` otherwise, so output for programs and files stays the figures alone.
The bars are transient: once done they leave the terminal as it was, above the figures.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as Bars

TICK = 0.25  # seconds between updates of a stage measured in seconds


class Progress(Protocol):
    def stage(self, description: str, total: float | None = None) -> None:
        """A new stage of ``total`` steps (seconds, hands, ...; ``None``: unknown)."""

    def advance(self, steps: float = 1.0) -> None:
        """``steps`` more of the current stage are done."""


class Silent:
    def stage(self, description: str, total: float | None = None) -> None:
        pass

    def advance(self, steps: float = 1.0) -> None:
        pass


SILENT: Progress = Silent()


class RichProgress:
    """One bar per stage; a stage that starts completes the one before."""

    def __init__(self, bars: Bars) -> None:
        self.bars = bars
        self.task: TaskID | None = None

    def stage(self, description: str, total: float | None = None) -> None:
        if self.task is not None:
            self.bars.stop_task(self.task)
            self.bars.remove_task(self.task)
        self.task = self.bars.add_task(description, total=total)

    def advance(self, steps: float = 1.0) -> None:
        if self.task is not None:
            self.bars.advance(self.task, steps)


def showing(json: bool) -> bool:
    """Bars only for a person: standard error is a terminal and the output is not JSON."""
    return not json and sys.stderr.isatty()


@contextmanager
def progress_bars(shown: bool) -> Iterator[Progress]:
    if not shown:
        yield SILENT
        return
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Bars(*columns, console=Console(stderr=True), transient=True, refresh_per_second=4) as bars:
        yield RichProgress(bars)


async def wait(progress: Progress, seconds: float) -> None:
    """Sleep ``seconds``, advancing ``progress`` by the seconds as they pass."""
    loop = asyncio.get_running_loop()
    previous = loop.time()
    end = previous + seconds
    while previous < end:
        await asyncio.sleep(min(TICK, end - previous))
        now = min(loop.time(), end)
        progress.advance(now - previous)
        previous = now
