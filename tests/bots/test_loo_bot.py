"""The example Loo bot answers legally everywhere, and follows its own rules of thumb."""

from __future__ import annotations

import random

import pytest

from examples.loo_bot import LooPlayer
from services.bots.check import check
from services.bots.strategy import load_strategy
from shared.games.swick import actions as ac
from shared.games.swick.cards import parse
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase
from shared.games.swick.views import view_for
from tests.engine.support import Table


def decide(t: Table, seat: int, bot: LooPlayer) -> ac.Action:
    """The bot's answer for ``seat``, checked legal, then played."""
    assert seat in to_act(t.state)
    legal = [o.action for o in legal_actions(t.state, seat) if o.legal]
    action = bot.choose(view_for(t.state, seat), legal)
    assert action in legal
    t.act(seat, action)
    return action


def dealt(hands: dict[int, str], trump: str, *, keep: bool = False) -> Table:
    """Three seats (0 deals, 1 and 2 knock in that order), the hand rigged, the trump decided."""
    t = Table(3, stack=10**6)
    t.start()
    t.rig(hands, trump)
    t.act(0, ac.DecideTrump(keep=keep))
    return t


@pytest.mark.parametrize("seats", [(3,), (4,), (5,), (6,)])
def test_no_illegal_answers_or_errors_at_any_table_size(seats: tuple[int]) -> None:
    report = check(load_strategy("examples.loo_bot:LooPlayer"), positions=1500, seats=seats)
    assert report.positions == 1500
    assert not report.illegal and not report.errors, report.describe()


def test_passes_a_hand_with_no_trump_and_no_ace() -> None:
    t = dealt({0: "7C 8C 9C", 1: "KC QD 9H", 2: "10C JC QC"}, trump="8S")
    assert decide(t, 1, LooPlayer(random.Random(1))) == ac.Knock(knock=False)


def test_knocks_with_the_trump_ace_even_behind_two_knocks() -> None:
    t = Table(4, stack=10**6)
    t.start()
    t.rig({0: "7C 8C 9C", 1: "KC QD 9H", 2: "10C JC QC", 3: "AS 7D 8H"}, trump="8S")
    t.act(0, ac.DecideTrump(keep=False))
    t.act(1, ac.Knock(knock=True))
    t.act(2, ac.Knock(knock=True))
    assert decide(t, 3, LooPlayer(random.Random(1))) == ac.Knock(knock=True)


def test_draws_to_trumps_and_aces() -> None:
    t = dealt({0: "7C 8C 9C", 1: "9S AD 8H", 2: "10C JC QC"}, trump="8S")
    bot = LooPlayer(random.Random(1))
    assert decide(t, 1, bot) == ac.Knock(knock=True)
    t.act(2, ac.Knock(knock=False))
    action = decide(t, 1, bot)
    assert isinstance(action, ac.Draw) and action.discards == (parse("8H"),)


def test_the_dealer_keeps_a_high_trump_and_never_discards_it() -> None:
    t = Table(3, stack=10**6)
    t.start()
    t.rig({0: "7C 8D 9H", 1: "AS 7D 8H", 2: "10C JC QC"}, trump="KS")
    bot, kept = LooPlayer(random.Random(1)), parse("KS")
    assert decide(t, 0, bot) == ac.DecideTrump(keep=True)
    for seat in (1, 2):
        t.act(seat, ac.Knock(knock=True))
    for seat in (1, 2):
        t.act(seat, ac.Draw(discards=()))
    assert decide(t, 0, bot) == ac.Knock(knock=True)  # passing would set it at once
    drawn = decide(t, 0, bot)
    assert isinstance(drawn, ac.Draw) and kept not in drawn.discards and len(drawn.discards) == 3
    fourth = decide(t, 0, bot)
    assert isinstance(fourth, ac.DiscardFourth) and fourth.card != kept
    assert kept in t.state.hands[0]


def test_leads_the_top_trump_and_wins_cheaply() -> None:
    # The Ace of trump lies on the table, so the King is the top trump.
    t = dealt({0: "7H 8H 9H", 1: "KS 9C 10D", 2: "10C JC QS"}, trump="AS")
    bot = LooPlayer(random.Random(1))
    for seat in (1, 2):
        t.act(seat, ac.Knock(knock=True))
    for seat in (1, 2):
        t.act(seat, ac.Draw(discards=()))
    t.act(0, ac.Knock(knock=False))
    assert t.state.phase is Phase.TRICKS
    assert decide(t, 1, bot) == ac.PlayCard(parse("KS"))
    assert decide(t, 2, bot) == ac.PlayCard(parse("QS"))  # forced: M must follow
    assert decide(t, 1, bot) == ac.PlayCard(parse("9C"))  # no sure card: its cheapest
    assert decide(t, 2, bot) == ac.PlayCard(parse("10C"))  # 10C or JC heads it: the cheaper
