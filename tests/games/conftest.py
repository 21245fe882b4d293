"""Reports how much the conformance suite checked (the figures of ``shared.games.conformance``)."""

from __future__ import annotations

import pytest

from shared.games.conformance import TALLY


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY.examples:
        terminalreporter.write_sep("-", "game conformance")
        terminalreporter.write_line(TALLY.line())
