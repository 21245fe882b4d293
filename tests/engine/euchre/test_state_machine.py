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

import itertools

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shared.games import lifecycle as lc
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK
from shared.games.euchre.codec import CODEC
from shared.games.euchre.decide import step
from shared.games.euchre.evolve import evolve
from shared.games.euchre.game import EUCHRE
from shared.games.euchre.legal import legal_actions, to_act
from shared.games.euchre.state import BETWEEN_HANDS, IN_HAND, RECENT_IDS, Phase, TableConfig
from shared.games.euchre.state import new_table as fresh_table
from shared.games.interface import Command, IllegalCommand
from tests.engine.euchre.checks import check_event, check_state

TIMER_MS = 10_000
STAKE = 20
STACK = 1_000
ABANDON_MS = 300_000
STRAY_ACTIONS: tuple[ac.Action, ...] = (
    ac.OrderUp(),
    ac.OrderUp(alone=True),
    ac.Pass(),
    ac.NameTrump(0),
    ac.Discard(0),
    ac.PlayCard(23),
    ac.NextHand(),
)
_CARD_PHASES = frozenset({Phase.TRICKS, Phase.DISCARD})
WRONG_KINDS = (
    "not_to_act",
    "stale",
    "ahead",
    "illegal_option",
    "duplicate",
    "not_in_hand",
    "take_seat_mid_hand",
    "end_game_non_host",
    "start_mid_game",
    "early_timeout",
    "bad_seat",
)


class EuchreMachine(RuleBasedStateMachine):
    """One table, driven by random legal play and a stream of wrong commands."""

    def __init__(self) -> None:
        super().__init__()
        config = TableConfig(target=3, timer_ms=TIMER_MS, interlude_ms=5_000, stake=STAKE)
        self.state = fresh_table(config)
        # The chips as the ledger would book them: every wallet that sat here, and the pot.
        self.books: dict[str, int] = {"pot": 0}
        self.brought = 0
        self.replayed = self.state
        self.accepted: list[str] = []
        self.now = 0
        self._ids = itertools.count(1)
        self._players = itertools.count(1)
        for seat in range(4):
            self.send(None, lc.TakeSeat(seat, self._new_player(), STACK))
        self.send(0, lc.StartGame(bytes(32).hex()))

    def _new_player(self, bot: str | None = None) -> lc.Player:
        n = next(self._players)
        return lc.Player(f"p{n}", f"Player {n}", bot)

    def _command(
        self, actor: int | None, action: ac.Action, *, seq: int | None = None, action_id: str = ""
    ) -> Command[ac.Action]:
        return Command(
            actor=actor,
            action=action,
            action_id=action_id or f"id-{next(self._ids)}",
            seq=self.state.seq if seq is None else seq,
            at=self.now,
        )

    def send(self, actor: int | None, action: ac.Action) -> list[ev.Event]:
        command = self._command(actor, action)
        try:
            state, events = step(self.state, command)
        except IllegalCommand as error:
            raise AssertionError(f"refused {command}: {error}") from error
        assert isinstance(events[0], ev.Accepted)
        if isinstance(action, lc.TakeSeat | lc.AddBot):
            self.books[f"wallet:{action.player.id}"] = action.stack
            self.brought += action.stack
        for move in EUCHRE.transfers(self.state, events):
            self.books[move.debit] -= move.amount
            self.books[move.credit] += move.amount
        assert sum(self.books.values()) == self.brought, "chips were created or destroyed"
        assert self.books["pot"] == state.pot
        for seat, player in enumerate(state.players):
            if player is not None:
                assert self.books[f"wallet:{player.id}"] == state.stacks[seat]
        if state.phase is Phase.ENDED:
            assert state.pot == 0
        for event in events:
            check_event(self.replayed, event)
            self.replayed = evolve(self.replayed, event)
        assert self.replayed == state, "the events do not rebuild the state step returned"
        self.state = state
        self.accepted.append(command.action_id)
        if state.phase is Phase.CLOSED:
            self._reopen()
        return events

    def _reopen(self) -> None:
        """A closed table refuses everything; the machine goes on at a new one."""
        self.refuse(None, lc.TakeSeat(0, self._new_player(), 0), {"table_closed"})
        assert self.books["pot"] == 0, "a closed table's pot was paid out"
        self.state = self.replayed = fresh_table(self.state.config)
        self.accepted = []
        for seat in range(4):
            self.send(None, lc.TakeSeat(seat, self._new_player(), STACK))
        self.send(0, lc.StartGame(bytes(32).hex()))

    def refuse(
        self,
        actor: int | None,
        action: ac.Action,
        codes: set[str],
        *,
        seq: int | None = None,
        action_id: str = "",
    ) -> None:
        command = self._command(actor, action, seq=seq, action_id=action_id)
        before = self.state.copy()
        dumped = CODEC.dump_state(self.state)
        try:
            step(self.state, command)
        except IllegalCommand as error:
            assert error.code in codes, f"{command} refused with {error}, expected one of {codes}"
        else:
            raise AssertionError(f"accepted a wrong command {command} at {self.state.phase}")
        assert self.state == before and CODEC.dump_state(self.state) == dumped

    @invariant()
    def check(self) -> None:
        s = self.state
        check_state(s)
        assert s.recent_ids == tuple(self.accepted[-RECENT_IDS:])
        pending = to_act(s)
        assert (s.deadline is not None) == bool(pending) or s.phase is Phase.INTERLUDE
        if s.phase in IN_HAND:
            assert all(p is not None for p in s.players), "a hand is played by four"

    @precondition(lambda self: bool(to_act(self.state)))
    @rule(picks=st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=30))
    def play_legal(self, picks: list[int]) -> None:
        for k, pick in enumerate(picks):
            if k:
                self.check()
            seats = to_act(self.state)
            if not seats:
                return
            seat = seats[pick % len(seats)]
            options = [o.action for o in legal_actions(self.state, seat) if o.legal]
            self.now += pick % 3_000
            self.send(seat, options[(pick >> 3) % len(options)])

    @precondition(lambda self: self.state.deadline is not None)
    @rule(late=st.integers(0, 5_000))
    def time_out(self, late: int) -> None:
        deadline = self.state.deadline
        assert deadline is not None
        pause = self.state.phase is Phase.INTERLUDE
        waiting = to_act(self.state)
        self.now = max(self.now, deadline) + late
        events = self.send(None, lc.Timeout())
        timed_out = [e.seat for e in events if isinstance(e, ev.TimedOut)]
        assert timed_out == ([] if pause else list(waiting))

    @rule(seat=st.integers(0, 3))
    def sit_out(self, seat: int) -> None:
        s = self.state
        if s.players[seat] is None:
            self.refuse(seat, lc.SitOut(True), {"not_seated"})
            return
        out = not s.sitting_out[seat]
        self.send(seat, lc.SitOut(out))
        assert self.state.sitting_out[seat] == out

    @rule(seat=st.integers(0, 3))
    def connection(self, seat: int) -> None:
        s = self.state
        if s.players[seat] is None:
            self.refuse(None, lc.SetConnected(seat, False), {"not_seated"})
        elif s.leaving[seat]:
            self.refuse(None, lc.SetConnected(seat, True), {"no_change"})
        else:
            self.send(None, lc.SetConnected(seat, not s.connected[seat]))

    @rule(seat=st.integers(0, 3), bot=st.booleans())
    def leave_or_join(self, seat: int, bot: bool) -> None:
        s = self.state
        if s.players[seat] is None:
            if s.phase not in BETWEEN_HANDS:
                self.refuse(
                    None, lc.TakeSeat(seat, self._new_player(), STACK), {"hand_in_progress"}
                )
            elif bot and s.host is not None:
                self.send(s.host, lc.AddBot(seat, self._new_player("easy"), STACK))
            else:
                self.send(None, lc.TakeSeat(seat, self._new_player(), STACK))
        elif s.leaving[seat]:
            self.refuse(seat, lc.Leave(), {"no_change"})
        else:
            in_hand = s.phase in IN_HAND
            events = self.send(seat, lc.Leave())
            if any(isinstance(e, ev.TableClosed) for e in events):
                return
            if in_hand:
                assert self.state.leaving[seat] or self.state.players[seat] is None
            else:
                assert self.state.players[seat] is None

    @rule(late=st.integers(0, 10_000))
    def abandon(self, late: int) -> None:
        s = self.state
        if s.closing:
            self.refuse(None, lc.CloseTable(ABANDON_MS), {"no_change"})
            return
        if s.unattended_since is None:
            self.refuse(None, lc.CloseTable(ABANDON_MS), {"attended"})
            return
        self.now = max(self.now, s.unattended_since + ABANDON_MS + late)
        events = self.send(None, lc.CloseTable(ABANDON_MS))
        closed = any(isinstance(e, ev.TableClosed) for e in events)
        assert closed == (s.phase in BETWEEN_HANDS)

    @rule()
    def end_or_start_game(self) -> None:
        s = self.state
        host = s.host
        if host is None:
            return
        if s.phase in (Phase.INTERLUDE, Phase.WAITING):
            self.send(host, lc.EndGame())
            ended = self.state
            assert ended.phase is Phase.ENDED
            # The host's partnership forfeits to the other, when that one holds a player.
            if ended.forfeited:
                assert ended.winner == 1 - host % 2
                assert ended.forfeited == tuple(
                    seat for seat in (host % 2, host % 2 + 2) if s.players[seat] is not None
                )
            else:
                assert ended.winner is None
                assert s.players[1 - host % 2] is None and s.players[3 - host % 2] is None
        elif s.phase in (Phase.LOBBY, Phase.ENDED):
            eligible = [
                seat
                for seat, p in enumerate(s.players)
                if p is not None and not s.sitting_out[seat] and not s.leaving[seat]
            ]
            if len(eligible) == 4:
                self.send(host, lc.StartGame(bytes(range(32)).hex()))
                assert self.state.phase is not Phase.ENDED
            else:
                self.refuse(host, lc.StartGame(bytes(32).hex()), {"not_enough_players"})
        else:
            self.refuse(host, lc.EndGame(), {"hand_in_progress"})

    @rule(kind=st.sampled_from(WRONG_KINDS), pick=st.integers(0, 2**16 - 1))
    def wrong_command(self, kind: str, pick: int) -> None:
        s = self.state
        pending = to_act(s)
        seat = pending[pick % len(pending)] if pending else None
        options = legal_actions(s, seat) if seat is not None else []
        legal = [o.action for o in options if o.legal]
        illegal = [o.action for o in options if not o.legal]
        some_legal = legal[pick % len(legal)] if legal else None
        if kind == "not_to_act":
            others = [p for p in range(4) if p not in pending]
            actor = [*others, None][pick % (len(others) + 1)]
            action = some_legal or STRAY_ACTIONS[pick % len(STRAY_ACTIONS)]
            self.refuse(actor, action, {"not_your_turn", "wrong_phase", "not_seated"})
        elif kind == "stale" and some_legal is not None and s.turn_seq > 0:
            self.refuse(seat, some_legal, {"stale"}, seq=pick % s.turn_seq)
        elif kind == "illegal_option" and illegal:
            action = illegal[pick % len(illegal)]
            self.refuse(seat, action, {"illegal_card", "turned_down", "stick_the_dealer"})
        elif kind == "duplicate" and self.accepted and some_legal is not None:
            recent = self.accepted[-RECENT_IDS:]
            self.refuse(seat, some_legal, {"duplicate"}, action_id=recent[pick % len(recent)])
        elif kind == "not_in_hand" and seat is not None and s.phase in _CARD_PHASES:
            absent = [card for card in DECK if card not in s.hands[seat]]
            card = absent[pick % len(absent)]
            wrong: ac.Action = ac.PlayCard(card) if s.phase is Phase.TRICKS else ac.Discard(card)
            self.refuse(seat, wrong, {"bad_cards"})
        elif kind == "take_seat_mid_hand" and s.phase in IN_HAND:
            self.refuse(None, lc.TakeSeat(pick % 4, self._new_player(), 0), {"hand_in_progress"})
        elif kind == "end_game_non_host":
            others = [p for p in range(4) if p != s.host]
            actor = [*others, None][pick % (len(others) + 1)]
            self.refuse(actor, lc.EndGame(), {"not_host", "not_seated"})
        elif (
            kind == "start_mid_game"
            and s.host is not None
            and s.phase
            not in (
                Phase.LOBBY,
                Phase.ENDED,
            )
        ):
            self.refuse(s.host, lc.StartGame(bytes(32).hex()), {"game_in_progress"})
        elif kind == "early_timeout":
            if s.deadline is None or self.now < s.deadline:
                self.refuse(None, lc.Timeout(), {"not_due"})
            else:
                self.refuse(pick % 4, lc.Timeout(), {"not_allowed"})
        elif kind == "bad_seat":
            self.refuse(4 + pick % 3, some_legal or ac.Pass(), {"bad_seat"})
        else:  # "ahead", or a kind that does not apply now
            self.refuse(seat, some_legal or lc.Timeout(), {"bad_seq"}, seq=s.seq + 1 + pick % 5)


EuchreMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEuchreMachine = EuchreMachine.TestCase
