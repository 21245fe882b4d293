"""The chaos run's illegal bot answers each game with an action of that game which its rules
refuse now, with a reason: never another game's action, which would test only the codec."""

from __future__ import annotations

import random

import pytest

from services.load.faulty_bots import Illegal
from shared.games.conformance import Table
from shared.games.interface import IllegalCommand
from shared.games.registry import GAMES, game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_illegal_bot_breaks_its_own_games_rules(name: str) -> None:
    module = game(name)
    table = Table(module, module.form.defaults, b"faulty")
    table.seat_everyone()
    bot = Illegal(random.Random(1))
    refusals: set[str] = set()
    for pick in range(200):
        waiting = module.to_act(table.state)
        if not waiting:
            break
        seat = waiting[0]
        legal = [o.action for o in module.legal_actions(table.state, seat) if o.legal]
        answer = bot.misbehave(module.view_for(table.state, seat), legal)
        assert module.load_action(module.dump_action(answer)) == answer
        with pytest.raises(IllegalCommand) as refused:
            table.apply(table.command(seat, answer))
        assert refused.value.code != "unknown_action", answer
        assert str(refused.value)
        refusals.add(refused.value.code)
        table.decide(pick * 7 + 3)
    assert refusals, "the table asked nothing of anyone"
