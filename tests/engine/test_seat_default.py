"""A bot's fallback is the table's timeout decision: from the seat's view alone, the same
action ``default_action`` takes from the whole state, at every decision of random games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games.swick.legal import default_action, legal_actions, to_act
from shared.games.swick.seat_default import seat_default
from shared.games.swick.state import Phase
from shared.games.swick.views import view_for
from tests.engine.support import Table


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    stack=st.sampled_from([300, 2_000, 10**6]),
    decisions=st.integers(20, 200),
)
def test_the_seat_default_is_the_timeout_decision(
    seats: int, seed: int, stack: int, decisions: int
) -> None:
    rng = random.Random(seed)
    t = Table(seats, stack=stack)
    t.start()
    seen: set[Phase] = set()
    for _ in range(decisions):
        acting = to_act(t.state)
        if not acting:
            break
        seat = acting[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        default = seat_default(view_for(t.state, seat))
        assert default == default_action(t.state, seat), t.state.phase
        assert default in legal, (t.state.phase, default)
        seen.add(t.state.phase)
        t.act(seat, rng.choice(legal))
    assert seen
