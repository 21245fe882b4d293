"""The fast playout pays exactly what the engine-based playout pays.

Over positions of random tables at 3 to 6 seats, in every phase the hard bot searches (and the
trump and ante decisions too), a world is sampled from the seat's view as the search samples it,
and for every legal action ``fast_playout`` must equal the reference: the playout through the
engine (``engine_playout.play_out``, the module's own fallback; the lean playout never uses
it). The lean playout must also never need the engine on such positions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.bots import heuristics
from services.bots.engine_playout import play_out
from services.bots.knowledge import from_view
from services.bots.playout import ENGINE, fast_playout, lean_playout
from services.bots.search import sample_world
from shared.games.interface import IllegalCommand
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import Card
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase, State
from shared.games.swick.views import view_for
from tests.engine.support import Table

CHECKED = frozenset(
    {
        Phase.ANTE,
        Phase.TRUMP,
        Phase.KNOCK,
        Phase.DRAW,
        Phase.DEALER_KNOCK,
        Phase.DEALER_DRAW,
        Phase.DEALER_DISCARD,
        Phase.FACE_TRUMP,
        Phase.TRICKS,
    }
)


def playout(world: State, seat: int, action: ac.Action, seen: Counter[str] | None = None) -> float:
    """The playout through the engine, noting in ``seen`` what happened on the way."""
    watch = None if seen is None else lambda events: note(events, seen)
    return play_out(ENGINE, world, seat, action, watch)


def note(events: list[ev.Event], seen: Counter[str]) -> None:
    for event in events:
        if isinstance(event, ev.Drew) and event.recycled:
            seen["stock ran out"] += 1
        elif isinstance(event, ev.FaceTrumpDecided):
            seen["face trump: play" if event.play else "face trump: set single"] += 1
        elif isinstance(event, ev.Knocked) and not event.knock:
            seen["a pass"] += 1
        elif isinstance(event, ev.HandSettled):
            seen[f"ending: {event.result.ending}"] += 1
            if "double" in event.result.sets:
                seen["set double"] += 1


def positions(
    seats: int, rng: random.Random, decisions: int, greedy: bool
) -> Iterator[tuple[State, int, list[ac.Action]]]:
    """The decisions of one random table: mostly the rules of thumb, some random choices;
    ``greedy``: everyone knocks and draws all they may, so that the stock runs out."""
    t = Table(seats, stack=10**9)
    t.start()
    for _ in range(decisions):
        if not to_act(t.state):
            return
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        yield t.state, seat, legal
        draws = [a for a in legal if isinstance(a, ac.Draw)]
        action: ac.Action
        if greedy and ac.Knock(knock=True) in legal:
            action = ac.Knock(knock=True)
        elif greedy and draws:
            action = max(draws, key=lambda a: len(a.discards))
        elif greedy and ac.Ready() in legal:
            action = ac.Ready()
        elif rng.random() < 0.7:
            action = heuristics.choose(from_view(view_for(t.state, seat)), legal)
        else:
            action = rng.choice(legal)
        t.act(seat, action)


def compare(
    state: State, seat: int, legal: list[ac.Action], rng: random.Random, seen: Counter[str]
) -> None:
    world = sample_world(view_for(state, seat), rng)
    for action in legal:
        expected = playout(world, seat, action, seen)
        assert lean_playout(world, seat, action) == expected, (state.phase, action)
        assert fast_playout(world, seat, action) == expected, (state.phase, action)
        seen[f"phase: {state.phase}"] += 1


@settings(max_examples=150, deadline=None)
@given(
    seats=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    decisions=st.integers(5, 60),
    greedy=st.booleans(),
)
def test_the_fast_playout_pays_what_the_engine_playout_pays(
    seats: int, seed: int, decisions: int, greedy: bool
) -> None:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for state, seat, legal in positions(seats, rng, decisions, greedy):
        if state.phase in CHECKED:
            compare(state, seat, legal, rng, seen)


def test_the_comparison_reaches_every_kind_of_hand() -> None:
    """Seeded tables that reach the stock running out, special hands, both face-trump
    decisions, a set double, all passing and one survivor, from every checked phase."""
    seen: Counter[str] = Counter()
    for seats, seed, greedy in ((3, 1, False), (4, 2, False), (5, 3, True), (6, 4, True)):
        rng = random.Random(seed)
        for state, seat, legal in positions(seats, rng, 150, greedy):
            if state.phase in CHECKED:
                compare(state, seat, legal, rng, seen)
    kinds = [
        "stock ran out",
        "face trump: play",
        "face trump: set single",
        "set double",
        "a pass",
        "ending: tricks",
        "ending: special",
        "ending: all_passed",
        "ending: last_standing",
        *(f"phase: {phase}" for phase in CHECKED),
    ]
    assert all(seen[kind] > 0 for kind in kinds), {kind: seen[kind] for kind in kinds}


def test_an_action_the_engine_refuses_is_refused_alike() -> None:
    """The lean playout leaves any action it would not take to the engine, which refuses it:
    a card the rules of play forbid, an action of another phase, another seat's turn."""
    rng = random.Random(7)
    refused: Counter[str] = Counter()
    for state, seat, _legal in positions(4, rng, 200, False):
        if state.phase is not Phase.TRICKS:
            continue
        world = sample_world(view_for(state, seat), rng)
        wrong: list[tuple[int, ac.Action]] = [
            (seat, option.action) for option in legal_actions(world, seat) if not option.legal
        ]
        wrong += [(seat, ac.Knock(knock=True)), ((seat + 1) % 4, world_card(world, seat))]
        for actor, action in wrong:
            assert lean_playout(world, actor, action) is None
            with pytest.raises(IllegalCommand) as engine:
                playout(world, actor, action)
            with pytest.raises(IllegalCommand) as fast:
                fast_playout(world, actor, action)
            assert fast.value.code == engine.value.code
            refused[engine.value.code] += 1
    assert {"illegal_card", "wrong_phase", "not_your_turn"} <= set(refused), refused


def world_card(world: State, seat: int) -> ac.PlayCard[Card]:
    """A card ``seat`` may play now, to be sent by another seat."""
    return next(
        option.action
        for option in legal_actions(world, seat)
        if option.legal and isinstance(option.action, ac.PlayCard)
    )
