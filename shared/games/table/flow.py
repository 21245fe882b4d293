"""Running a table command: the envelope checks, then the action's handler, then the watch on
attendance and the decision's deadline. The lifecycle's handlers are here; a game's own come
from its ``Rules``.

``step`` works on a private copy of the state and applies each event as it is found, so later
checks see its effect. A refused command raises ``IllegalCommand`` before anything is returned,
so the state given is untouched.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from shared import fairness
from shared.games import lifecycle as lc
from shared.games.interface import Command, IllegalCommand
from shared.games.table import events as ev
from shared.games.table.rules import Handler, Rules, Work
from shared.games.table.state import TableState

S = TypeVar("S", bound=TableState)

MAX_ACTION_ID = 64
MAX_NAME = 24


class _Work(Work[S]):
    """A command's work, whose lifecycle steps are this module's."""

    __slots__ = ()

    def handle(self, seat: int | None, action: Any) -> None:
        _handlers(self.rules)[type(action)](self, seat, action, self.state.seq)

    def open_hand(self) -> None:
        open_hand(self)

    def vacate(self, seat: int) -> None:
        vacate(self, seat)

    def end_interlude(self) -> None:
        end_interlude(self)

    def close(self) -> None:
        close(self)


@functools.cache
def _handlers(rules: Rules[Any]) -> dict[type[Any], Handler]:
    """Every action's handler at a game's tables: the game's own decisions' and the lifecycle's
    table actions', merged once per game so that a command costs one lookup."""
    return {**HANDLERS, **rules.handlers}


def step(rules: Rules[S], state: S, command: Command[Any]) -> tuple[S, list[Any]]:
    """The state after ``command`` and the events that led there."""
    check_envelope(state, command, rules)
    handler = _handlers(rules).get(type(command.action))
    if handler is None:
        raise IllegalCommand("unknown_action", "That is not an action of this game")
    work = _Work(rules, state.copy(), command.at)
    work.emit(ev.Accepted(command.action_id, command.actor))
    handler(work, command.actor, command.action, command.seq)
    _watch_attendance(work)
    _set_deadline(work)
    return work.state, work.events


def check_envelope(state: TableState, command: Command[Any], rules: Rules[Any]) -> None:
    action_id, seq, actor = command.action_id, command.seq, command.actor
    if not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID:
        raise IllegalCommand("malformed", f"An action id is 1 to {MAX_ACTION_ID} characters")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise IllegalCommand("malformed", "The sequence number must be a whole number")
    if seq > state.seq:
        raise IllegalCommand("bad_seq", f"The table is at #{state.seq}, not yet at #{seq}")
    if actor is not None and not (
        isinstance(actor, int) and not isinstance(actor, bool) and 0 <= actor < len(state.players)
    ):
        raise IllegalCommand("bad_seat", "There is no such seat at this table")
    if action_id in state.recent_ids:
        raise IllegalCommand("duplicate", "This action was already applied")
    if state.phase is rules.closed:
        raise IllegalCommand("table_closed", "This table has closed: find another in the lobby")


# Checks shared by handlers.


def seated(s: TableState, actor: int | None) -> int:
    if actor is None or s.players[actor] is None:
        raise IllegalCommand("not_seated", "Only a seated player can do that")
    return actor


def host_only(s: TableState, actor: int | None) -> int:
    seat = seated(s, actor)
    if seat != s.host:
        raise IllegalCommand("not_host", "Only the host can do that")
    return seat


def table_only(actor: int | None) -> None:
    if actor is not None:
        raise IllegalCommand("not_allowed", "Only the table itself can do that")


def decision(w: Work[Any], actor: int | None, seq: int, *phases: Any) -> int:
    """The seat deciding now, after checking the phase, the turn and staleness."""
    s = w.state
    seat = seated(s, actor)
    if s.phase not in phases:
        raise IllegalCommand(
            "wrong_phase",
            f"That can't be done now: the table is at {w.rules.phase_names[s.phase]}",
        )
    pending = w.rules.to_act(s)
    if seat not in pending:
        waiting = [name(s, p) for p in pending]
        raise IllegalCommand(
            "not_your_turn", f"It is not your turn: waiting for {', '.join(waiting)}"
        )
    if seq < s.turn_seq:
        raise IllegalCommand(
            "stale", f"You acted on #{seq}, but this decision opened at #{s.turn_seq}: look again"
        )
    return seat


def card_decision(w: Work[Any], actor: int | None, seq: int, phase: Any, card: int) -> int:
    """The seat playing ``card`` to the trick now, after checking the decision and that the
    seat holds the card."""
    seat = decision(w, actor, seq, phase)
    if card not in w.state.hands[seat]:
        raise IllegalCommand("bad_cards", "You can only play a card you hold")
    return seat


def check_stakes(s: TableState, stake: int, seats: int) -> None:
    """Raises ``IllegalCommand("short_stack")`` unless each of the first ``seats`` can pay the
    ``stake`` a game starts with."""
    short = [seat for seat in range(seats) if s.stacks[seat] < stake]
    if short:
        names = ", ".join(name(s, seat) for seat in short)
        raise IllegalCommand(
            "short_stack", f"Every player pays the stake of {stake}¢ at the start: {names} can't"
        )


def name(s: TableState, seat: int) -> str:
    player = s.players[seat]
    return player.name if player is not None else f"seat {seat + 1}"


def _check_new_player(w: Work[Any], seat: int, player: lc.Player, stack: int) -> None:
    s, rules = w.state, w.rules
    if s.phase not in rules.between_hands:
        raise IllegalCommand("hand_in_progress", f"Seats are taken only between {rules.hand}s")
    if not 0 <= seat < len(s.players):
        raise IllegalCommand("bad_seat", "There is no such seat at this table")
    if s.players[seat] is not None:
        raise IllegalCommand("seat_taken", f"Seat {seat + 1} is taken")
    if any(p is not None and p.id == player.id for p in s.players):
        raise IllegalCommand("already_seated", f"{player.name} already has a seat here")
    if not player.name or len(player.name) > MAX_NAME or not player.name.isprintable():
        raise IllegalCommand("bad_name", f"A name is 1 to {MAX_NAME} printable characters")
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise IllegalCommand("bad_stack", "A stack is a whole number of cents, not negative")


def game_on(w: Work[Any]) -> bool:
    phase, rules = w.state.phase, w.rules
    return phase is not rules.lobby and phase is not rules.ended and phase is not rules.closed


def eligible(s: TableState) -> list[int]:
    """Seats that can be dealt in: seated, not sitting out, not leaving."""
    return [
        seat
        for seat, player in enumerate(s.players)
        if player is not None and not s.sitting_out[seat] and not s.leaving[seat]
    ]


def people(s: TableState) -> tuple[int, ...]:
    """The seats holding a person (not a bot)."""
    return tuple(seat for seat, p in enumerate(s.players) if p is not None and p.bot is None)


def _people_staying(s: TableState, without: int | None = None) -> list[int]:
    """Seated people who are not leaving (other than ``without``)."""
    return [
        seat
        for seat, p in enumerate(s.players)
        if p is not None and p.bot is None and not s.leaving[seat] and seat != without
    ]


# Seats.


def take_seat(w: Work[Any], actor: int | None, a: lc.TakeSeat, seq: int) -> None:
    table_only(actor)
    s = w.state
    _check_new_player(w, a.seat, a.player, a.stack)
    if a.player.bot is not None:
        raise IllegalCommand("not_allowed", "Bots are seated by the host")
    w.emit(ev.SeatTaken(a.seat, a.player, a.stack))
    if s.host is None:
        w.emit(ev.HostChanged(a.seat))
    if s.phase is w.rules.waiting:
        open_hand(w)


def add_bot(w: Work[Any], actor: int | None, a: lc.AddBot, seq: int) -> None:
    s = w.state
    if actor is not None:
        host_only(s, actor)
    elif not game_on(w):  # the table itself fills only a seat left during a game
        raise IllegalCommand("not_host", "Only the host can seat a bot before a game")
    _check_new_player(w, a.seat, a.player, a.stack)
    if not a.player.bot:
        raise IllegalCommand("not_a_bot", "Name the bot's level or strategy")
    w.emit(ev.SeatTaken(a.seat, a.player, a.stack))
    if s.phase is w.rules.waiting:
        open_hand(w)


def leave(w: Work[Any], actor: int | None, a: lc.Leave, seq: int) -> None:
    s, rules = w.state, w.rules
    seat = seated(s, actor)
    if rules.dealt_in(s, seat):  # it plays on by the defaults until the hand ends
        if s.leaving[seat]:
            raise IllegalCommand("no_change", f"You are already leaving after this {rules.hand}")
        w.emit(ev.LeavingAfterHand(seat))
        return
    if rules.forfeits and game_on(w) and not _people_staying(s, without=seat):
        # The last person leaves a game: it ends (they forfeit) before the seat empties.
        w.emit(rules.closing(people(s)))
        close(w)
        return
    rules.leave_between_hands(w, seat)


def sit_out(w: Work[Any], actor: int | None, a: lc.SitOut, seq: int) -> None:
    s = w.state
    seat = seated(s, actor)
    if not a.sitting_out and not s.sitting_out[seat] and w.timeouts_before[seat]:
        # "I'm back" from a seat the table decided for: it is present again (the accepted
        # command cleared its count), with the full timer if its decision is pending.
        if seat in w.rules.to_act(s) and s.config.timer_ms is not None:
            w.emit(ev.DeadlineSet(w.at + s.config.timer_ms))
        return
    if s.sitting_out[seat] == a.sitting_out:
        state = "sitting out" if a.sitting_out else "playing"
        raise IllegalCommand("no_change", f"You are already {state}")
    w.emit(ev.SatOut(seat, a.sitting_out))
    w.rules.sat_out(w, seat, a.sitting_out)


def set_connected(w: Work[Any], actor: int | None, a: lc.SetConnected, seq: int) -> None:
    table_only(actor)
    s = w.state
    if not (isinstance(a.seat, int) and 0 <= a.seat < len(s.players)):
        raise IllegalCommand("bad_seat", "There is no such seat at this table")
    seated(s, a.seat)
    if s.connected[a.seat] == a.connected or s.leaving[a.seat]:
        raise IllegalCommand("no_change", "The connection is already so")
    w.emit(ev.ConnectionChanged(a.seat, a.connected))


def hand_over_host(w: Work[Any], actor: int | None, a: lc.HandOverHost, seq: int) -> None:
    s = w.state
    host = host_only(s, actor)
    if not 0 <= a.seat < len(s.players) or a.seat == host:
        raise IllegalCommand("bad_seat", "Choose another seated player")
    player = s.players[a.seat]
    if player is None or player.bot is not None:
        raise IllegalCommand("bad_seat", "The host must be a seated person")
    w.emit(ev.HostChanged(a.seat))


def vacate(w: Work[Any], seat: int) -> None:
    """Empty ``seat``; a host leaving hands the role to the next person clockwise."""
    s = w.state
    w.emit(ev.SeatLeft(seat))
    if s.host == seat:
        n = len(s.players)
        heir = next(
            (
                p
                for k in range(1, n)
                if (player := s.players[p := (seat + k) % n]) is not None and player.bot is None
            ),
            None,
        )
        w.emit(ev.HostChanged(heir))


# The game.


def start_game(w: Work[Any], actor: int | None, a: lc.StartGame, seq: int) -> None:
    s, rules = w.state, w.rules
    host_only(s, actor)
    if s.phase is not rules.lobby and s.phase is not rules.ended:
        raise IllegalCommand("game_in_progress", "A game is already under way")
    try:
        seed = bytes.fromhex(a.seed)
    except (TypeError, ValueError):
        seed = b""
    if len(seed) != fairness.SEED_BYTES:
        raise IllegalCommand("bad_seed", "A seed is 32 bytes in hex")
    w.emit(rules.start(s, a.seed, seed))
    open_hand(w)


def end_game(w: Work[Any], actor: int | None, a: lc.EndGame, seq: int) -> None:
    s, rules = w.state, w.rules
    host_only(s, actor)
    if s.phase not in rules.host_may_end:
        raise IllegalCommand(
            "hand_in_progress", f"A game ends only between {rules.hand}s of a game"
        )
    rules.check_end(s)
    if s.phase is rules.interlude:
        w.emit(ev.InterludeEnded())
    rules.cut_short(w, "host", (s.host,) if s.host is not None else ())


def open_hand(w: Work[Any]) -> None:
    """Open the next hand, or close a table that is closing."""
    if w.state.closing:
        close(w)
    else:
        w.rules.begin_hand(w)


def after_hand(w: Work[Any]) -> None:
    """A hand's result (and any end of the game it brought) is recorded: those leaving go,
    and the result shows to the people present before the next hand opens."""
    s, rules = w.state, w.rules
    leavers = [seat for seat, leaving in enumerate(s.leaving) if leaving]
    if leavers and rules.forfeits and game_on(w) and not _people_staying(s):
        # Every person left during the hand: the game ends (they forfeit) and the table closes.
        w.emit(rules.closing(people(s)))
        close(w)
        return
    for seat in leavers:
        vacate(w, seat)
    if s.phase is rules.ended:
        return
    # Every person present gets to see the result before the next hand asks anything.
    watching = tuple(
        seat
        for seat, p in enumerate(s.players)
        if p is not None and p.bot is None and s.connected[seat] and not s.away(seat)
    )
    if s.config.interlude_ms and watching and not s.closing:
        w.emit(ev.InterludeStarted(watching, w.at + s.config.interlude_ms))
    else:
        open_hand(w)


def next_hand(w: Work[Any], actor: int | None, a: lc.NextHand, seq: int) -> None:
    """A person has seen the last hand's result."""
    s = w.state
    seat = decision(w, actor, seq, w.rules.interlude)
    w.emit(ev.ResultSeen(seat))
    if not s.interlude:
        end_interlude(w)


def end_interlude(w: Work[Any]) -> None:
    w.emit(ev.InterludeEnded())
    open_hand(w)


# Closing.


def close_table(w: Work[Any], actor: int | None, a: lc.CloseTable, seq: int) -> None:
    table_only(actor)
    s = w.state
    if s.closing:
        raise IllegalCommand("no_change", "The table is already closing")
    if a.unattended_ms:
        since = s.unattended_since
        if since is None:
            raise IllegalCommand("attended", "A player is present at this table")
        if w.at < since + a.unattended_ms:
            raise IllegalCommand("not_due", "The table has not been left long enough to close")
    # Abandoned, its people end the game; a table that could not be set up, nobody.
    w.emit(w.rules.closing(people(s) if a.unattended_ms else ()))


def _watch_attendance(w: Work[Any]) -> None:
    """After every command: a table with no person seated closes; one whose people are all
    away notes since when; a closing table closes once between hands.

    Away is disconnected, or connected but timed out twice running: a table whose people
    left their screens open and stopped answering is abandoned like one they closed."""
    s, rules = w.state, w.rules
    if s.phase is rules.closed:
        return
    # One pass over the seats (this runs after every command): a person, and one who is here.
    anyone = attended = False
    for seat, p in enumerate(s.players):
        if p is not None and p.bot is None:
            anyone = True
            if not s.away(seat):
                attended = True
                break
    if not anyone and not s.closing:
        w.emit(rules.closing(()))  # bots never play on their own
    if s.closing:
        if s.phase in rules.between_hands:
            close(w)
        return
    since = None if attended else (w.at if s.unattended_since is None else s.unattended_since)
    if since != s.unattended_since:
        w.emit(ev.AttendanceChanged(since))


def close(w: Work[Any]) -> None:
    """End the game, vacate every seat and close."""
    s = w.state
    if s.phase is w.rules.interlude:
        w.emit(ev.InterludeEnded())
    w.rules.close_game(w)
    for seat, player in enumerate(s.players):
        if player is not None:
            w.emit(ev.SeatLeft(seat))
    if s.host is not None:
        w.emit(ev.HostChanged(None))
    w.emit(ev.TableClosed())


# Deadlines.


def timeout(w: Work[Any], actor: int | None, a: lc.Timeout, seq: int) -> None:
    table_only(actor)
    s = w.state
    if s.deadline is None or w.at < s.deadline:
        raise IllegalCommand("not_due", "No decision has passed its deadline")
    if s.phase is w.rules.interlude:  # the pause is over: nobody missed a decision
        end_interlude(w)
        return
    for seat in w.rules.to_act(s):
        w.emit(ev.TimedOut(seat))
        w.rules.decide_by_default(w, seat)


def _set_deadline(w: Work[Any]) -> None:
    """Arm the deadline of the decision now pending."""
    s = w.state
    if s.phase is w.rules.interlude:
        return  # the pause keeps its own end
    untimed = s.deadline is None and s.config.timer_ms is None and not _anyone_away(s)
    if untimed and not _any_bot(s):
        return  # a table without a timer waits for people who are present...
    pending = w.rules.to_act(s)
    bots = bool(pending) and all(_is_bot(s, seat) for seat in pending)
    if untimed and not bots:
        return  # ... and never for a bot
    target: int | None = None
    if pending:
        away = all(s.away(p) for p in pending)
        timer = lc.BOT_DECISION_MS if bots and s.config.timer_ms is None else s.config.timer_ms
        length = s.config.away_grace_ms if away else timer
        if s.turn_seq == s.seq or s.deadline is None:
            target = None if length is None else w.at + length
        elif away and length is not None:
            target = min(s.deadline, w.at + length)
        else:
            target = s.deadline
    if target != s.deadline:
        w.emit(ev.DeadlineSet(target))


def _any_bot(s: TableState) -> bool:
    # A loop, not a generator (any(...)): this runs after every command.
    for player in s.players:  # noqa: SIM110
        if player is not None and player.bot is not None:
            return True
    return False


def _is_bot(s: TableState, seat: int) -> bool:
    player = s.players[seat]
    return player is not None and player.bot is not None


def _anyone_away(s: TableState) -> bool:
    return not all(s.connected) or max(s.timeouts) >= 2 or any(s.leaving)


HANDLERS: dict[type[Any], Handler] = {
    lc.TakeSeat: take_seat,
    lc.AddBot: add_bot,
    lc.Leave: leave,
    lc.SitOut: sit_out,
    lc.SetConnected: set_connected,
    lc.StartGame: start_game,
    lc.EndGame: end_game,
    lc.HandOverHost: hand_over_host,
    lc.CloseTable: close_table,
    lc.Timeout: timeout,
    lc.NextHand: next_hand,
}
"""The lifecycle's handlers of the table's actions; a game's ``Rules.handlers`` has its own
decisions'."""
