"""A socket's message limits, on a clock the test moves: a flood is told by how many of its
messages were refused, never by how fast the server happened to read them."""

from __future__ import annotations

from services.gateway.limits import Admission
from tests.clock import Clock


def admission(clock: Clock) -> Admission:
    return Admission(rate=30, burst=60, patience=200, forgive=2, clock=clock)


def test_a_burst_goes_through_then_the_rate_holds() -> None:
    clock = Clock()
    gate = admission(clock)
    assert all(gate.admit() for _ in range(60))
    assert not gate.admit()
    clock.now += 1.0
    assert sum(gate.admit() for _ in range(100)) == 30


def test_a_flood_is_cut_after_as_many_refusals_however_slowly_it_is_read() -> None:
    for seconds_per_message in (0.0, 0.002, 0.01):  # from as fast as can be to 100 a second
        clock = Clock()
        gate = admission(clock)
        refused = 0
        for _ in range(10_000):
            clock.now += seconds_per_message
            if not gate.admit():
                refused += 1
                if gate.exhausted():
                    break
        else:
            raise AssertionError(f"never cut at {seconds_per_message} s a message")
        assert 200 < refused < 260, (seconds_per_message, refused)


def test_a_client_just_over_the_rate_now_and_then_is_not_a_flood() -> None:
    clock = Clock()
    gate = admission(clock)
    for _ in range(3600):  # an hour of bursts of 31 messages a second
        clock.now += 1.0
        for _ in range(31):
            if not gate.admit():
                assert not gate.exhausted()
