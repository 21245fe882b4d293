"""Every strategy returns a legal action, whatever its seat's view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.bots.levels import Easy, Hard, Medium
from services.bots.search import sample_world
from services.bots.strategy import Strategy
from shared.games.swick.cards import DECK
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase, State
from shared.games.swick.views import view_for
from tests.bots.turns import ask_every_bot, started_swick
from tests.engine.support import Table


def strategies(rng: random.Random) -> list[Strategy]:
    return [Easy(rng), Medium(rng), Hard(rng, worlds=3)]


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2**32), decisions=st.integers(20, 120))
def test_strategies_choose_legal_actions(seats: int, seed: int, decisions: int) -> None:
    rng = random.Random(seed)
    t = started_swick(seats)
    ask_every_bot("swick", t, strategies(rng), decisions)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2**32), moves=st.integers(8, 40))
def test_sampled_worlds_agree_with_the_view(seats: int, seed: int, moves: int) -> None:
    """A hard bot's sampled world holds every card once and shows the seat what it sees."""
    rng = random.Random(seed)
    t = started_swick(seats)
    for _ in range(moves):
        seat = to_act(t.state)[0]
        if t.state.phase in (Phase.TRICKS, Phase.DRAW, Phase.KNOCK, Phase.DEALER_KNOCK):
            check_world(t.state, seat, rng)
        t.act(seat, rng.choice([o.action for o in legal_actions(t.state, seat) if o.legal]))


def check_world(state: State, seat: int, rng: random.Random) -> None:
    view = view_for(state, seat)
    world = sample_world(view, rng)
    cards = [c for hand in world.hands for c in hand] + list(world.stock) + list(world.discards)
    cards += [c for trick in world.played for _, c in trick] + [c for _, c in world.trick]
    if not world.kept and world.trump_card is not None:
        cards.append(world.trump_card)
    assert sorted(cards) == list(DECK)
    assert view_for(world, seat).hand == view.hand
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert len(world.stock) == len(state.stock)


@pytest.mark.parametrize("level", [Easy, Medium])
def test_a_strategy_can_play_a_long_game(level: type[Easy] | type[Medium]) -> None:
    rng = random.Random(7)
    t = Table(4, stack=10**6)
    t.start()
    strategy = level(rng)
    while t.state.hand_no < 200:
        seat = to_act(t.state)[0]
        legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
        t.act(seat, strategy.choose(view_for(t.state, seat), legal))
    assert sum(t.state.stacks) + t.state.carry + t.state.pot == 4 * 10**6
