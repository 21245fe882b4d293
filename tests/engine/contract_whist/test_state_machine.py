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

import itertools
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shared.games import lifecycle as lc
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import DECK
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.decide import step
from shared.games.contract_whist.evolve import evolve
from shared.games.contract_whist.legal import legal_actions, to_act
from shared.games.contract_whist.money import transfers
from shared.games.contract_whist.state import (
    BETWEEN_ROUNDS,
    IN_ROUND,
    RECENT_IDS,
    Phase,
    TableConfig,
)
from shared.games.contract_whist.state import new_table as fresh_table
from shared.games.interface import Command, IllegalCommand
from tests.engine.contract_whist.checks import check_event, check_state

SEATS = 3
STAKE = 10
STACK = 100
TIMER_MS = 10_000
ABANDON_MS = 300_000
STRAY_ACTIONS: tuple[ac.Action, ...] = (
    ac.MakeBid(0),
    ac.MakeBid(2),
    ac.ChooseTrump(None),
    ac.ChooseTrump(1),
    ac.PlayCard(51),
    ac.NextHand(),
)
WRONG_KINDS = (
    "not_to_act",
    "stale",
    "ahead",
    "illegal_option",
    "duplicate",
    "not_in_hand",
    "bad_bid",
    "take_seat_mid_round",
    "end_game_non_host",
    "start_mid_game",
    "early_timeout",
    "bad_seat",
)


class WhistMachine(RuleBasedStateMachine):
    """One table, driven by random legal play and a stream of wrong commands."""

    def __init__(self) -> None:
        super().__init__()
        config = TableConfig(
            seats=SEATS, rounds=3, stake=STAKE, timer_ms=TIMER_MS, interlude_ms=5_000
        )
        self.config = config
        self.now = 0
        self._ids = itertools.count(1)
        self._players = itertools.count(1)
        self._open_table()

    def _open_table(self) -> None:
        self.state = self.replayed = fresh_table(self.config)
        self.accepted: list[str] = []
        self.net: Counter[str] = Counter()
        for seat in range(SEATS):
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
        for move in transfers(self.state, events):
            assert move.amount > 0
            self.net[move.debit] -= move.amount
            self.net[move.credit] += move.amount
        for event in events:
            check_event(self.replayed, event)
            self.replayed = evolve(self.replayed, event)
        assert self.replayed == state, "the events do not rebuild the state step returned"
        self.state = state
        self.accepted.append(command.action_id)
        assert sum(self.net.values()) == 0 and self.net["pot"] == state.pot
        if state.phase is Phase.CLOSED:
            self.refuse(None, lc.TakeSeat(0, self._new_player(), 0), {"table_closed"})
            self._open_table()  # a closed table refuses everything: go on at a new one
        return events

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
        if s.phase in IN_ROUND:
            assert all(p is not None for p in s.players), "a round is played by every seat"

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

    @rule(seat=st.integers(0, SEATS - 1))
    def sit_out(self, seat: int) -> None:
        s = self.state
        if s.players[seat] is None:
            self.refuse(seat, lc.SitOut(True), {"not_seated"})
            return
        out = not s.sitting_out[seat]
        self.send(seat, lc.SitOut(out))
        assert self.state.sitting_out[seat] == out

    @rule(seat=st.integers(0, SEATS - 1))
    def connection(self, seat: int) -> None:
        s = self.state
        if s.players[seat] is None:
            self.refuse(None, lc.SetConnected(seat, False), {"not_seated"})
        elif s.leaving[seat]:
            self.refuse(None, lc.SetConnected(seat, True), {"no_change"})
        else:
            self.send(None, lc.SetConnected(seat, not s.connected[seat]))

    @rule(seat=st.integers(0, SEATS - 1), bot=st.booleans())
    def leave_or_join(self, seat: int, bot: bool) -> None:
        s = self.state
        if s.players[seat] is None:
            if s.phase not in BETWEEN_ROUNDS:
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
            in_round = s.phase in IN_ROUND
            game_no = s.game_no
            events = self.send(seat, lc.Leave())
            if any(isinstance(e, ev.TableClosed) for e in events):
                return
            assert self.state.game_no == game_no
            if in_round:
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
        in_round = s.phase in IN_ROUND
        events = self.send(None, lc.CloseTable(ABANDON_MS))
        closed = any(isinstance(e, ev.TableClosed) for e in events)
        assert closed == (not in_round)

    @rule()
    def end_or_start_game(self) -> None:
        s = self.state
        host = s.host
        if host is None:
            return
        if s.phase in (Phase.INTERLUDE, Phase.WAITING):
            pot = s.pot
            self.send(host, lc.EndGame())
            assert self.state.phase is Phase.ENDED and self.state.end_reason == "host"
            assert sum(self.state.payouts) == pot and self.state.pot == 0
        elif s.phase in (Phase.LOBBY, Phase.ENDED):
            eligible = [
                seat
                for seat, p in enumerate(s.players)
                if p is not None and not s.sitting_out[seat] and not s.leaving[seat]
            ]
            if len(eligible) < SEATS:
                self.refuse(host, lc.StartGame(bytes(32).hex()), {"not_enough_players"})
            elif min(s.stacks) < STAKE:
                self.refuse(host, lc.StartGame(bytes(32).hex()), {"short_stack"})
            else:
                self.send(host, lc.StartGame(bytes(range(32)).hex()))
                assert self.state.phase is not Phase.ENDED and self.state.pot == STAKE * SEATS
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
            others = [p for p in range(SEATS) if p not in pending]
            actor = [*others, None][pick % (len(others) + 1)]
            action = some_legal or STRAY_ACTIONS[pick % len(STRAY_ACTIONS)]
            self.refuse(actor, action, {"not_your_turn", "wrong_phase", "not_seated"})
        elif kind == "stale" and some_legal is not None and s.turn_seq > 0:
            self.refuse(seat, some_legal, {"stale"}, seq=pick % s.turn_seq)
        elif kind == "illegal_option" and illegal:
            action = illegal[pick % len(illegal)]
            self.refuse(seat, action, {"illegal_card", "forbidden_bid"})
        elif kind == "duplicate" and self.accepted and some_legal is not None:
            recent = self.accepted[-RECENT_IDS:]
            self.refuse(seat, some_legal, {"duplicate"}, action_id=recent[pick % len(recent)])
        elif kind == "not_in_hand" and seat is not None and s.phase is Phase.TRICKS:
            absent = [card for card in DECK if card not in s.hands[seat]]
            self.refuse(seat, ac.PlayCard(absent[pick % len(absent)]), {"bad_cards"})
        elif kind == "bad_bid" and seat is not None and s.phase is Phase.BID:
            wrong = s.cards + 1 + pick % 5 if pick % 2 else -1 - pick % 5
            self.refuse(seat, ac.MakeBid(wrong), {"bad_bid"})
        elif kind == "take_seat_mid_round" and s.phase in IN_ROUND:
            self.refuse(
                None, lc.TakeSeat(pick % SEATS, self._new_player(), 0), {"hand_in_progress"}
            )
        elif kind == "end_game_non_host":
            others = [p for p in range(SEATS) if p != s.host]
            actor = [*others, None][pick % (len(others) + 1)]
            self.refuse(actor, lc.EndGame(), {"not_host", "not_seated"})
        elif kind == "start_mid_game" and s.host is not None and s.phase not in _NO_GAME:
            self.refuse(s.host, lc.StartGame(bytes(32).hex()), {"game_in_progress"})
        elif kind == "early_timeout":
            if s.deadline is None or self.now < s.deadline:
                self.refuse(None, lc.Timeout(), {"not_due"})
            else:
                self.refuse(pick % SEATS, lc.Timeout(), {"not_allowed"})
        elif kind == "bad_seat":
            self.refuse(SEATS + pick % 3, some_legal or ac.NextHand(), {"bad_seat"})
        else:  # "ahead", or a kind that does not apply now
            self.refuse(seat, some_legal or lc.Timeout(), {"bad_seq"}, seq=s.seq + 1 + pick % 5)


_NO_GAME = (Phase.LOBBY, Phase.ENDED)

WhistMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestWhistMachine = WhistMachine.TestCase
