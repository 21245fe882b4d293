"""Reconnect churn cannot grow a table's log: a seat's connection changes are applied when they
change something, a disconnect at most once per window (on a clock the test controls)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from services.table.presence import Apply, Defer, Ignore, Presence


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_report_that_changes_nothing_is_ignored() -> None:
    presence = Presence(Clock(), window=5.0)
    assert presence.report(0, True, current=True) == Ignore()
    assert presence.report(0, False, current=False) == Ignore()


def test_a_disconnect_then_a_reconnect_apply_at_once() -> None:
    presence = Presence(Clock(), window=5.0)
    assert presence.report(0, False, current=True) == Apply(False)
    assert presence.report(0, True, current=False) == Apply(True)


def test_a_second_disconnect_within_the_window_waits_for_its_end() -> None:
    clock = Clock()
    presence = Presence(clock, window=5.0)
    assert presence.report(0, False, current=True) == Apply(False)
    clock.now += 1
    assert presence.report(0, True, current=False) == Apply(True)
    clock.now += 1
    assert presence.report(0, False, current=True) == Defer(1005.0)
    clock.now += 1
    assert presence.report(0, True, current=True) == Ignore()  # back: nothing to apply
    assert presence.report(0, False, current=True) == Defer(1005.0)
    assert presence.report(0, False, current=True) == Ignore()  # its check is under way
    clock.now = 1005.0
    assert presence.due(0, current=True) == Apply(False)  # still gone when the window ended
    assert presence.due(0, current=False) == Ignore()  # a second check finds nothing to do


def test_a_player_back_before_the_window_ends_is_never_shown_gone() -> None:
    clock = Clock()
    presence = Presence(clock, window=5.0)
    presence.report(0, False, current=True)
    presence.report(0, True, current=False)
    clock.now += 1
    assert isinstance(presence.report(0, False, current=True), Defer)
    assert presence.report(0, True, current=True) == Ignore()
    clock.now += 10
    assert presence.due(0, current=True) == Ignore()


def test_seats_are_debounced_apart() -> None:
    clock = Clock()
    presence = Presence(clock, window=5.0)
    assert presence.report(0, False, current=True) == Apply(False)
    assert presence.report(1, False, current=True) == Apply(False)


@given(
    st.lists(
        st.tuples(st.floats(min_value=0.0, max_value=3.0), st.booleans()),
        min_size=1,
        max_size=200,
    )
)
def test_churn_applies_at_most_two_changes_per_window(reports: list[tuple[float, bool]]) -> None:
    """However reports and due checks interleave, the seat's applied changes alternate, follow
    the reports, and number at most two per window (one disconnect and one reconnect)."""
    clock = Clock()
    start = clock.now
    presence = Presence(clock, window=5.0)
    connected = True
    applied: list[tuple[float, bool]] = []
    due_at: float | None = None

    def run(decision: Apply | Defer | Ignore) -> None:
        nonlocal connected, due_at
        if isinstance(decision, Apply):
            assert decision.connected != connected
            connected = decision.connected
            applied.append((clock.now, connected))
        elif isinstance(decision, Defer):
            due_at = decision.at

    for gap, report in reports:
        clock.now += gap
        if due_at is not None and clock.now >= due_at:
            clock.now, at = due_at, clock.now
            due_at = None
            run(presence.due(0, connected))
            clock.now = at
        run(presence.report(0, report, connected))
    if due_at is not None:
        clock.now = max(clock.now, due_at)
        run(presence.due(0, connected))
    assert connected == reports[-1][1]  # once the checks ran, the table shows the last report
    disconnects = [at for at, state in applied if not state]
    assert all(b - a >= 5.0 - 1e-9 for a, b in itertools.pairwise(disconnects))  # float sums
    windows = int((clock.now - start) // 5.0) + 1
    assert len(applied) <= 2 * windows
