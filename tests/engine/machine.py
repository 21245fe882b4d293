"""The stateful property tests of the engines (hypothesis ``RuleBasedStateMachine``).

``CommandsMachine`` sends one table of a game the commands it must accept or refuse: a refused
one must raise ``IllegalCommand`` with an expected code and leave the state exactly as it was.
``LifecycleMachine`` adds what Euchre and Contract Whist are tested by alike: a staked table
plays random legal decisions while wrong commands are thrown at it (a seat out of turn, a stale
or early ``seq``, an option marked illegal, a replayed ``action_id``, a card the seat does not
hold, a timeout before its deadline...), deadlines pass, players sit out and come back, drop and
reconnect, leave and are replaced by people or bots, and the host ends and restarts games. After
every accepted command it checks the game's invariants (its ``checks.py``), that the events
rebuild the state, and that chips are conserved: the transfers always match the stacks and the
pot, which is empty once a game has ended. Each game's machine supplies only what differs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence, Set
from typing import Any, Generic, Protocol, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shared.games import lifecycle as lc
from shared.games.conformance import Sender
from shared.games.interface import GameModule, IllegalCommand
from shared.games.table import events as te
from shared.games.table.state import RECENT_IDS, TableState
from tests.engine.books import Books, Staked


class GameState(TableState, Staked, Protocol):
    """The fields of a game's ``State`` the machines read besides the lifecycle's."""

    hands: tuple[tuple[int, ...], ...]
    game_no: int


S = TypeVar("S", bound=GameState)
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class GameChecks(Protocol[S_contra]):
    """A game's ``checks.py``: the invariants of every state and of every event."""

    def check_state(self, s: S_contra) -> None: ...

    def check_event(self, before: S_contra, event: Any) -> None: ...


# The lifecycle phases every game has, under the same names.
LOBBY, WAITING, INTERLUDE, ENDED, CLOSED = "lobby", "waiting", "interlude", "ended", "closed"
PICK = st.integers(0, 2**16 - 1)
SEAT_PICK = st.integers(0, 11)  # a seat of a table of 3 or 4, as ``pick % seats``


def machine_settings(max_examples: int, steps: int) -> settings:
    """How many tables a machine's test runs and how many rules each; never against a clock."""
    return settings(
        max_examples=max_examples,
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


class CommandsMachine(RuleBasedStateMachine, Sender, Generic[S]):
    """Commands to one table of ``game``; actions are the game's or the lifecycle's."""

    game: GameModule[Any, S, Any, Any, Any]
    state: S

    def __init__(self) -> None:
        super().__init__()
        self.now = 0
        self.ids = itertools.count(1)
        self.names = itertools.count(1)

    def refuse(
        self,
        actor: int | None,
        action: Any,
        codes: Set[str],
        *,
        seq: int | None = None,
        action_id: str | None = None,
    ) -> None:
        """A command that must be refused with one of ``codes``, changing nothing."""
        command = self.command(actor, action, seq=seq, action_id=action_id)
        before = self.state.copy()
        dumped = self.game.dump_state(self.state)
        try:
            self.game.step(self.state, command)
        except IllegalCommand as error:
            assert error.code in codes, f"{command} refused with {error}, expected one of {codes}"
        else:
            raise AssertionError(f"accepted a wrong command {command} at {self.state.phase}")
        assert self.state == before, "a refused command changed the state"
        assert self.game.dump_state(self.state) == dumped, "a refused command changed the state"

    def refuse_restart(self, host: int) -> None:
        """The host may not start a game while one is going on."""
        self.refuse(host, lc.StartGame(bytes(32).hex()), {"game_in_progress"})

    def refuse_early_timeout(self, pick: int, seats: int) -> None:
        """A timeout is not due before the deadline; once it is, only the table may send it."""
        deadline = self.state.deadline
        if deadline is None or self.now < deadline:
            self.refuse(None, lc.Timeout(), {"not_due"})
        else:
            self.refuse(pick % seats, lc.Timeout(), {"not_allowed"})


COMMON_WRONG_KINDS = (
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


class LifecycleMachine(CommandsMachine[S]):
    """One staked table of ``seats``, driven by random legal play and a stream of wrong
    commands. A closed table refuses everything; the machine goes on at a new one."""

    seats: int
    stake: int
    stack: int
    abandon_ms = 300_000
    in_hand: frozenset[Any]  # the phases of a hand under way
    between_hands: frozenset[Any]  # the phases a table may close in, or seat a newcomer in
    card_phases: frozenset[Any]  # the phases a seat names a card of its hand in
    deck: Sequence[int]
    stray_actions: tuple[Any, ...]  # hand actions thrown by a seat that may not take them
    illegal_codes: frozenset[str]  # the refusals of an option offered as illegal
    idle_action: Any  # a hand action for when no seat has a legal one
    checks: GameChecks[S]
    wrong_kinds: tuple[str, ...] = COMMON_WRONG_KINDS

    def __init__(self) -> None:
        super().__init__()
        self.books = Books()  # every wallet that sat here, new tables' too, and the pot
        self._open_table()

    # What each game supplies.

    def new_config(self) -> Any:
        raise NotImplementedError

    def check_ended(self, before: S) -> None:
        """The game the host ended, from the table as it was before."""
        raise NotImplementedError

    def card_action(self, s: S, card: int) -> Any:
        """The action that names ``card`` in a card phase."""
        raise NotImplementedError

    def game_wrong_command(self, kind: str, seat: int | None, pick: int) -> bool:
        """Send a wrong command of a kind only this game has; whether one applied now."""
        return False

    # Driving the engine.

    def _open_table(self) -> None:
        self.state = self.replayed = self.game.new_table(self.new_config())
        self.accepted: list[str] = []
        for seat in range(self.seats):
            self.send(None, lc.TakeSeat(seat, self.player(), self.stack))
        self.send(0, lc.StartGame(bytes(32).hex()))

    def send(self, actor: int | None, action: Any) -> list[Any]:
        """A command that must be accepted; its events are checked and folded in."""
        command = self.command(actor, action)
        try:
            state, events = self.game.step(self.state, command)
        except IllegalCommand as error:
            raise AssertionError(f"refused {command}: {error}") from error
        assert isinstance(events[0], te.Accepted)
        if isinstance(action, lc.TakeSeat | lc.AddBot):
            self.books.seat(action.player, action.stack)
        moves = self.game.transfers(self.state, events)
        self.books.book(moves, state)
        if state.phase == ENDED:
            assert state.pot == 0
        for event in events:
            self.checks.check_event(self.replayed, event)
            self.replayed = self.game.evolve(self.replayed, event)
        assert self.replayed == state, "the events do not rebuild the state step returned"
        self.state = state
        self.accepted.append(command.action_id)
        if state.phase == CLOSED:
            self.refuse(None, lc.TakeSeat(0, self.player(), 0), {"table_closed"})
            assert self.books.accounts["pot"] == 0, "a closed table's pot was paid out"
            self._open_table()
        return events

    @invariant()
    def check(self) -> None:
        s = self.state
        self.checks.check_state(s)
        assert s.recent_ids == tuple(self.accepted[-RECENT_IDS:])
        pending = self.game.to_act(s)
        assert (s.deadline is not None) == bool(pending) or s.phase == INTERLUDE
        if s.phase in self.in_hand:
            assert all(p is not None for p in s.players), "a hand is played by every seat"

    # Rules.

    @precondition(lambda self: bool(self.game.to_act(self.state)))
    @rule(picks=st.lists(PICK, min_size=1, max_size=30))
    def play_legal(self, picks: list[int]) -> None:
        for k, pick in enumerate(picks):
            if k:
                self.check()
            seats = self.game.to_act(self.state)
            if not seats:
                return
            seat = seats[pick % len(seats)]
            options = [o.action for o in self.game.legal_actions(self.state, seat) if o.legal]
            self.now += pick % 3_000
            self.send(seat, options[(pick >> 3) % len(options)])

    @precondition(lambda self: self.state.deadline is not None)
    @rule(late=st.integers(0, 5_000))
    def time_out(self, late: int) -> None:
        deadline = self.state.deadline
        assert deadline is not None
        pause = self.state.phase == INTERLUDE
        waiting = self.game.to_act(self.state)
        self.now = max(self.now, deadline) + late
        events = self.send(None, lc.Timeout())
        timed_out = [e.seat for e in events if isinstance(e, te.TimedOut)]
        assert timed_out == ([] if pause else list(waiting))

    @rule(pick=SEAT_PICK)
    def sit_out(self, pick: int) -> None:
        s = self.state
        seat = pick % self.seats
        if s.players[seat] is None:
            self.refuse(seat, lc.SitOut(True), {"not_seated"})
            return
        out = not s.sitting_out[seat]
        self.send(seat, lc.SitOut(out))
        assert self.state.sitting_out[seat] == out

    @rule(pick=SEAT_PICK)
    def connection(self, pick: int) -> None:
        s = self.state
        seat = pick % self.seats
        if s.players[seat] is None:
            self.refuse(None, lc.SetConnected(seat, False), {"not_seated"})
        elif s.leaving[seat]:
            self.refuse(None, lc.SetConnected(seat, True), {"no_change"})
        else:
            self.send(None, lc.SetConnected(seat, not s.connected[seat]))

    @rule(pick=SEAT_PICK, bot=st.booleans())
    def leave_or_join(self, pick: int, bot: bool) -> None:
        s = self.state
        seat = pick % self.seats
        if s.players[seat] is None:
            if s.phase not in self.between_hands:
                self.refuse(
                    None, lc.TakeSeat(seat, self.player(), self.stack), {"hand_in_progress"}
                )
            elif bot and s.host is not None:
                self.send(s.host, lc.AddBot(seat, self.player("easy"), self.stack))
            else:
                self.send(None, lc.TakeSeat(seat, self.player(), self.stack))
        elif s.leaving[seat]:
            self.refuse(seat, lc.Leave(), {"no_change"})
        else:
            in_hand = s.phase in self.in_hand
            game_no = s.game_no
            events = self.send(seat, lc.Leave())
            if any(isinstance(e, te.TableClosed) for e in events):
                return
            assert self.state.game_no == game_no
            if in_hand:
                assert self.state.leaving[seat] or self.state.players[seat] is None
            else:
                assert self.state.players[seat] is None

    @rule(late=st.integers(0, 10_000))
    def abandon(self, late: int) -> None:
        s = self.state
        if s.closing:
            self.refuse(None, lc.CloseTable(self.abandon_ms), {"no_change"})
            return
        if s.unattended_since is None:
            self.refuse(None, lc.CloseTable(self.abandon_ms), {"attended"})
            return
        self.now = max(self.now, s.unattended_since + self.abandon_ms + late)
        events = self.send(None, lc.CloseTable(self.abandon_ms))
        closed = any(isinstance(e, te.TableClosed) for e in events)
        assert closed == (s.phase in self.between_hands)

    @rule()
    def end_or_start_game(self) -> None:
        s = self.state
        host = s.host
        if host is None:
            return
        if s.phase in (INTERLUDE, WAITING):
            self.send(host, lc.EndGame())
            assert self.state.phase == ENDED
            self.check_ended(s)
        elif s.phase in (LOBBY, ENDED):
            eligible = [
                seat
                for seat, p in enumerate(s.players)
                if p is not None and not s.sitting_out[seat] and not s.leaving[seat]
            ]
            if len(eligible) < self.seats:
                self.refuse(host, lc.StartGame(bytes(32).hex()), {"not_enough_players"})
            elif min(s.stacks) < self.stake:
                self.refuse(host, lc.StartGame(bytes(32).hex()), {"short_stack"})
            else:
                self.send(host, lc.StartGame(bytes(range(32)).hex()))
                assert self.state.phase != ENDED
                assert self.state.pot == self.stake * self.seats
        else:
            self.refuse(host, lc.EndGame(), {"hand_in_progress"})

    @rule(data=st.data(), pick=PICK)
    def wrong_command(self, data: st.DataObject, pick: int) -> None:
        kind = data.draw(st.sampled_from(self.wrong_kinds), label="kind")
        s = self.state
        n = self.seats
        pending = self.game.to_act(s)
        seat = pending[pick % len(pending)] if pending else None
        if self.game_wrong_command(kind, seat, pick):
            return
        options = self.game.legal_actions(s, seat) if seat is not None else []
        legal = [o.action for o in options if o.legal]
        illegal = [o.action for o in options if not o.legal]
        some_legal = legal[pick % len(legal)] if legal else None
        if kind == "not_to_act":
            others = [p for p in range(n) if p not in pending]
            actor = [*others, None][pick % (len(others) + 1)]
            action = some_legal or self.stray_actions[pick % len(self.stray_actions)]
            self.refuse(actor, action, {"not_your_turn", "wrong_phase", "not_seated"})
        elif kind == "stale" and some_legal is not None and s.turn_seq > 0:
            self.refuse(seat, some_legal, {"stale"}, seq=pick % s.turn_seq)
        elif kind == "illegal_option" and illegal:
            self.refuse(seat, illegal[pick % len(illegal)], self.illegal_codes)
        elif kind == "duplicate" and self.accepted and some_legal is not None:
            recent = self.accepted[-RECENT_IDS:]
            self.refuse(seat, some_legal, {"duplicate"}, action_id=recent[pick % len(recent)])
        elif kind == "not_in_hand" and seat is not None and s.phase in self.card_phases:
            absent = [card for card in self.deck if card not in s.hands[seat]]
            self.refuse(seat, self.card_action(s, absent[pick % len(absent)]), {"bad_cards"})
        elif kind == "take_seat_mid_hand" and s.phase in self.in_hand:
            self.refuse(None, lc.TakeSeat(pick % n, self.player(), 0), {"hand_in_progress"})
        elif kind == "end_game_non_host":
            others = [p for p in range(n) if p != s.host]
            actor = [*others, None][pick % (len(others) + 1)]
            self.refuse(actor, lc.EndGame(), {"not_host", "not_seated"})
        elif kind == "start_mid_game" and s.host is not None and s.phase not in (LOBBY, ENDED):
            self.refuse_restart(s.host)
        elif kind == "early_timeout":
            self.refuse_early_timeout(pick, n)
        elif kind == "bad_seat":
            self.refuse(n + pick % 3, some_legal or self.idle_action, {"bad_seat"})
        else:  # "ahead", or a kind that does not apply now
            self.refuse(seat, some_legal or lc.Timeout(), {"bad_seq"}, seq=s.seq + 1 + pick % 5)
