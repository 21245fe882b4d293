"""A stateful property test of the pure Euchre engine (hypothesis ``RuleBasedStateMachine``).

A four-seat table plays random legal decisions while, between them, wrong commands are thrown
at it (a seat out of turn, a stale or early ``seq``, an option marked illegal, a replayed
``action_id``, a card the seat does not hold, a timeout before its deadline...), deadlines
pass, players sit out and come back, drop and reconnect, leave and are replaced, and the host
ends and restarts games. After every accepted command it checks the invariants of
``checks.py`` (cards, views, defaults, codecs, deals, scores, the end of a game), that the
events rebuild the state, that every refused command left the state exactly as it was, and
that chips are conserved: the table plays for a stake, and the transfers always match the
stacks and the pot, which is empty once a game has ended.
"""

from __future__ import annotations

from shared.games.euchre import EUCHRE
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import DECK
from shared.games.euchre.state import BETWEEN_HANDS, IN_HAND, Phase, State, TableConfig
from tests.engine.euchre import checks as euchre_checks
from tests.engine.machine import LifecycleMachine, machine_settings


class EuchreMachine(LifecycleMachine[State]):
    """One four-seat table, driven by random legal play and a stream of wrong commands."""

    game = EUCHRE
    seats = 4
    stake = 20
    stack = 1_000
    in_hand = IN_HAND
    between_hands = BETWEEN_HANDS
    card_phases = frozenset({Phase.TRICKS, Phase.DISCARD})
    deck = DECK
    stray_actions = (
        ac.OrderUp(),
        ac.OrderUp(alone=True),
        ac.Pass(),
        ac.NameTrump(0),
        ac.Discard(0),
        ac.PlayCard(23),
        ac.NextHand(),
    )
    illegal_codes = frozenset({"illegal_card", "turned_down", "stick_the_dealer"})
    idle_action = ac.Pass()
    checks = euchre_checks

    def new_config(self) -> TableConfig:
        return TableConfig(target=3, timer_ms=10_000, interlude_ms=5_000, stake=self.stake)

    def card_action(self, s: State, card: int) -> ac.Action:
        return ac.PlayCard(card) if s.phase is Phase.TRICKS else ac.Discard(card)

    def check_ended(self, before: State) -> None:
        # The host's partnership forfeits to the other, when that one holds a player.
        ended, host = self.state, before.host
        assert host is not None
        if ended.forfeited:
            assert ended.winner == 1 - host % 2
            assert ended.forfeited == tuple(
                seat for seat in (host % 2, host % 2 + 2) if before.players[seat] is not None
            )
        else:
            assert ended.winner is None
            assert before.players[1 - host % 2] is None and before.players[3 - host % 2] is None


EuchreMachine.TestCase.settings = machine_settings(60, 40)
TestEuchreMachine = EuchreMachine.TestCase
