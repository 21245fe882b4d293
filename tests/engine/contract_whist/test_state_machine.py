"""A stateful property test of the pure Contract Whist engine (hypothesis
``RuleBasedStateMachine``).

A three-seat staked table plays random legal decisions while, between them, wrong commands are
thrown at it (a seat out of turn, a stale or early ``seq``, an option marked illegal (the
forbidden bid, a card that does not follow), a replayed ``action_id``, a card the seat does not
hold, a timeout before its deadline...), deadlines pass, players sit out and come back, drop
and reconnect, leave and are replaced by people or bots, and the host ends and restarts games.
After every accepted command it checks the invariants of ``checks.py`` (cards, bids, views,
defaults, codecs, deals, points, the pot), that the events rebuild the state, that the chips
the transfers moved into the pot are the pot, and that every refused command left the state
exactly as it was.
"""

from __future__ import annotations

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import DECK
from shared.games.contract_whist.state import BETWEEN_ROUNDS, IN_ROUND, Phase, State, TableConfig
from tests.engine.contract_whist import checks as whist_checks
from tests.engine.machine import COMMON_WRONG_KINDS, LifecycleMachine, machine_settings


class WhistMachine(LifecycleMachine[State]):
    """One three-seat table, driven by random legal play and a stream of wrong commands."""

    game = CONTRACT_WHIST
    seats = 3
    stake = 10
    stack = 100
    in_hand = IN_ROUND
    between_hands = BETWEEN_ROUNDS
    card_phases = frozenset({Phase.TRICKS})
    deck = DECK
    stray_actions = (
        ac.MakeBid(0),
        ac.MakeBid(2),
        ac.ChooseTrump(None),
        ac.ChooseTrump(1),
        ac.PlayCard(51),
        ac.NextHand(),
    )
    illegal_codes = frozenset({"illegal_card", "forbidden_bid"})
    idle_action = ac.NextHand()
    checks = whist_checks
    wrong_kinds = (*COMMON_WRONG_KINDS, "bad_bid")

    def new_config(self) -> TableConfig:
        return TableConfig(
            seats=self.seats, rounds=3, stake=self.stake, timer_ms=10_000, interlude_ms=5_000
        )

    def card_action(self, s: State, card: int) -> ac.Action:
        return ac.PlayCard(card)

    def check_ended(self, before: State) -> None:
        assert self.state.end_reason == "host"
        assert sum(self.state.payouts) == before.pot and self.state.pot == 0

    def game_wrong_command(self, kind: str, seat: int | None, pick: int) -> bool:
        s = self.state
        if kind == "bad_bid" and seat is not None and s.phase is Phase.BID:
            wrong = s.cards + 1 + pick % 5 if pick % 2 else -1 - pick % 5
            self.refuse(seat, ac.MakeBid(wrong), {"bad_bid"})
            return True
        return False


WhistMachine.TestCase.settings = machine_settings(40, 40)
TestWhistMachine = WhistMachine.TestCase
