"""A log line for something that may happen thousands of times a second (a flood of forbidden
requests): the first one is written, then at most one line per ``every`` seconds, which says
how many like it were left out since. Counting each one is the metrics' job."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field


@dataclass(eq=False)
class SampledLog:
    logger: logging.Logger
    _: KW_ONLY
    every: float = 10.0
    clock: Callable[[], float] = time.monotonic
    left_out: int = field(init=False, default=0)  # occurrences not written since the last line
    _last: float | None = field(init=False, default=None)

    def warning(self, message: str, *args: object, extra: Mapping[str, object]) -> bool:
        """Write ``message`` if the last line is ``every`` seconds old (or there was none);
        true if it was written."""
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            self.left_out += 1
            return False
        self.logger.warning(
            message, *args, extra={**extra, "left_out": self.left_out, "every_s": self.every}
        )
        self._last, self.left_out = now, 0
        return True
