"""Deciding commands: check a request against the state and find the events it causes.

``step`` works on a private copy of the state and applies each event as it is found, so later
checks see its effect. A refused command raises ``IllegalCommand`` before anything is returned,
so the state given is untouched.

A hand runs ORDER → (DISCARD) → TRICKS, or ORDER → NAME → TRICKS when all four pass the
turn-up; it is scored after five tricks, and the game ends when a team reaches the target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared import fairness
from shared.games import lifecycle as lc
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import SUITS, suit_of
from shared.games.euchre.dealing import deal, first_dealer
from shared.games.euchre.evolve import apply
from shared.games.euchre.legal import (
    PHASE_NAMES,
    STUCK,
    barred_suit,
    default_action,
    to_act,
    turned_down_reason,
)
from shared.games.euchre.money import forfeiting_team, payouts
from shared.games.euchre.play import play_reasons, trick_winner
from shared.games.euchre.scoring import score
from shared.games.euchre.state import (
    BETWEEN_HANDS,
    IN_HAND,
    SEATS,
    TRICKS_PER_HAND,
    GameEndReason,
    Phase,
    State,
    partner_of,
)
from shared.games.interface import Command, IllegalCommand

MAX_ACTION_ID = 64
MAX_NAME = 24

EuchreCommand = Command[ac.Action]


class _Work:
    """The working copy of one command: emitting an event applies it at once."""

    __slots__ = ("at", "events", "state", "timeouts_before")

    def __init__(self, state: State, at: int) -> None:
        self.state = state
        self.at = at
        self.events: list[ev.Event] = []
        self.timeouts_before = state.timeouts  # an accepted command clears its actor's count

    def emit(self, event: ev.Event) -> None:
        apply(self.state, event)
        self.events.append(event)


def step(state: State, command: EuchreCommand) -> tuple[State, list[ev.Event]]:
    """The state after ``command`` and the events that led there."""
    _check_envelope(state, command)
    handler = _HANDLERS.get(type(command.action))
    if handler is None:
        raise IllegalCommand("unknown_action", "That is not an action of this game")
    work = _Work(state.copy(), command.at)
    work.emit(ev.Accepted(command.action_id, command.actor))
    handler(work, command.actor, command.action, command.seq)
    _watch_attendance(work)
    _set_deadline(work)
    return work.state, work.events


def decide(state: State, command: EuchreCommand) -> list[ev.Event]:
    return step(state, command)[1]


def _check_envelope(state: State, command: EuchreCommand) -> None:
    action_id, seq, actor = command.action_id, command.seq, command.actor
    if not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID:
        raise IllegalCommand("malformed", f"An action id is 1 to {MAX_ACTION_ID} characters")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise IllegalCommand("malformed", "The sequence number must be a whole number")
    if seq > state.seq:
        raise IllegalCommand("bad_seq", f"The table is at #{state.seq}, not yet at #{seq}")
    if actor is not None and not (isinstance(actor, int) and 0 <= actor < len(state.players)):
        raise IllegalCommand("bad_seat", "There is no such seat at this table")
    if action_id in state.recent_ids:
        raise IllegalCommand("duplicate", "This action was already applied")
    if state.phase is Phase.CLOSED:
        raise IllegalCommand("table_closed", "This table has closed: find another in the lobby")


# Checks shared by handlers.


def _seated(s: State, actor: int | None) -> int:
    if actor is None or s.players[actor] is None:
        raise IllegalCommand("not_seated", "Only a seated player can do that")
    return actor


def _host_only(s: State, actor: int | None) -> int:
    seat = _seated(s, actor)
    if seat != s.host:
        raise IllegalCommand("not_host", "Only the host can do that")
    return seat


def _table_only(actor: int | None) -> None:
    if actor is not None:
        raise IllegalCommand("not_allowed", "Only the table itself can do that")


def _decision(s: State, actor: int | None, seq: int, *phases: Phase) -> int:
    """The seat deciding now, after checking the phase, the turn and staleness."""
    seat = _seated(s, actor)
    if s.phase not in phases:
        raise IllegalCommand(
            "wrong_phase", f"That can't be done now: the table is at {PHASE_NAMES[s.phase]}"
        )
    pending = to_act(s)
    if seat not in pending:
        waiting = [_name(s, p) for p in pending]
        raise IllegalCommand(
            "not_your_turn", f"It is not your turn: waiting for {', '.join(waiting)}"
        )
    if seq < s.turn_seq:
        raise IllegalCommand(
            "stale", f"You acted on #{seq}, but this decision opened at #{s.turn_seq}: look again"
        )
    return seat


def _name(s: State, seat: int) -> str:
    player = s.players[seat]
    return player.name if player is not None else f"seat {seat + 1}"


def _check_alone(alone: object) -> None:
    if not isinstance(alone, bool):
        raise IllegalCommand("malformed", "Going alone is true or false")


def _check_new_player(s: State, seat: int, player: lc.Player, stack: int) -> None:
    if s.phase not in BETWEEN_HANDS:
        raise IllegalCommand("hand_in_progress", "Seats are taken only between hands")
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


def _eligible(s: State) -> list[int]:
    """Seats that can be dealt in: seated, not sitting out, not leaving."""
    return [
        seat
        for seat, player in enumerate(s.players)
        if player is not None and not s.sitting_out[seat] and not s.leaving[seat]
    ]


def _people_staying(s: State, without: int | None = None) -> list[int]:
    """Seated people who are not leaving (other than ``without``)."""
    return [
        seat
        for seat, p in enumerate(s.players)
        if p is not None and p.bot is None and not s.leaving[seat] and seat != without
    ]


def _people(s: State) -> tuple[int, ...]:
    """The seats holding a person (not a bot)."""
    return tuple(seat for seat, p in enumerate(s.players) if p is not None and p.bot is None)


def _game_on(s: State) -> bool:
    return s.phase not in (Phase.LOBBY, Phase.ENDED, Phase.CLOSED)


# Table lifecycle.


def _take_seat(w: _Work, actor: int | None, a: lc.TakeSeat, seq: int) -> None:
    _table_only(actor)
    s = w.state
    _check_new_player(s, a.seat, a.player, a.stack)
    if a.player.bot is not None:
        raise IllegalCommand("not_allowed", "Bots are seated by the host")
    w.emit(ev.SeatTaken(a.seat, a.player, a.stack))
    if s.host is None:
        w.emit(ev.HostChanged(a.seat))
    if s.phase is Phase.WAITING:
        _open_hand(w)


def _add_bot(w: _Work, actor: int | None, a: lc.AddBot, seq: int) -> None:
    s = w.state
    if actor is not None:
        _host_only(s, actor)
    elif not _game_on(s):  # the table itself fills only a seat left during a game
        raise IllegalCommand("not_host", "Only the host can seat a bot before a game")
    _check_new_player(s, a.seat, a.player, a.stack)
    if not a.player.bot:
        raise IllegalCommand("not_a_bot", "Name the bot's level or strategy")
    w.emit(ev.SeatTaken(a.seat, a.player, a.stack))
    if s.phase is Phase.WAITING:
        _open_hand(w)


def _leave(w: _Work, actor: int | None, a: lc.Leave, seq: int) -> None:
    s = w.state
    seat = _seated(s, actor)
    if s.phase in IN_HAND:  # dealt into the hand in play: it plays on by the defaults
        if s.leaving[seat]:
            raise IllegalCommand("no_change", "You are already leaving after this hand")
        w.emit(ev.LeavingAfterHand(seat))
        return
    if _game_on(s) and not _people_staying(s, without=seat):
        # The last person leaves a game: it ends (their side forfeits) before the seat empties.
        w.emit(ev.TableClosing(_people(s)))
        _close(w)
        return
    _vacate(w, seat)
    if s.phase is Phase.INTERLUDE and not s.interlude:
        _end_interlude(w)  # the last person looking at the result left


def _sit_out(w: _Work, actor: int | None, a: lc.SitOut, seq: int) -> None:
    s = w.state
    seat = _seated(s, actor)
    if not a.sitting_out and not s.sitting_out[seat] and w.timeouts_before[seat]:
        # "I'm back" from a seat the table decided for: it is present again (the accepted
        # command cleared its count), with the full timer if its decision is pending.
        if seat in to_act(s) and s.config.timer_ms is not None:
            w.emit(ev.DeadlineSet(w.at + s.config.timer_ms))
        return
    if s.sitting_out[seat] == a.sitting_out:
        state = "sitting out" if a.sitting_out else "playing"
        raise IllegalCommand("no_change", f"You are already {state}")
    w.emit(ev.SatOut(seat, a.sitting_out))
    if s.phase is Phase.WAITING and not a.sitting_out:
        _open_hand(w)


def _set_connected(w: _Work, actor: int | None, a: lc.SetConnected, seq: int) -> None:
    _table_only(actor)
    s = w.state
    _seated(s, a.seat)
    if s.connected[a.seat] == a.connected or s.leaving[a.seat]:
        raise IllegalCommand("no_change", "The connection is already so")
    w.emit(ev.ConnectionChanged(a.seat, a.connected))


def _close_table(w: _Work, actor: int | None, a: lc.CloseTable, seq: int) -> None:
    _table_only(actor)
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
    w.emit(ev.TableClosing(_people(s) if a.unattended_ms else ()))


def _watch_attendance(w: _Work) -> None:
    """After every command: a table with no person seated closes; one whose people are all
    away notes since when; a closing table closes once between hands."""
    s = w.state
    if s.phase is Phase.CLOSED:
        return
    people = [seat for seat, p in enumerate(s.players) if p is not None and p.bot is None]
    if not people and not s.closing:
        w.emit(ev.TableClosing())  # bots never play on their own
    if s.closing:
        if s.phase in BETWEEN_HANDS:
            _close(w)
        return
    present = any(s.connected[seat] for seat in people)
    since = None if present else (w.at if s.unattended_since is None else s.unattended_since)
    if since != s.unattended_since:
        w.emit(ev.AttendanceChanged(since))


def _close(w: _Work) -> None:
    """End the game (the quitters' side forfeits, rules §12.5), vacate every seat and close."""
    s = w.state
    if s.phase is Phase.INTERLUDE:
        w.emit(ev.InterludeEnded())
    if s.phase not in (Phase.LOBBY, Phase.ENDED):
        _cut_short(w, "closed", s.quitters)
    for seat, player in enumerate(s.players):
        if player is not None:
            w.emit(ev.SeatLeft(seat))
    if s.host is not None:
        w.emit(ev.HostChanged(None))
    w.emit(ev.TableClosed())


def _start_game(w: _Work, actor: int | None, a: lc.StartGame, seq: int) -> None:
    s = w.state
    _host_only(s, actor)
    if s.phase not in (Phase.LOBBY, Phase.ENDED):
        raise IllegalCommand("game_in_progress", "A game is already under way")
    try:
        seed = bytes.fromhex(a.seed)
    except (TypeError, ValueError):
        seed = b""
    if len(seed) != fairness.SEED_BYTES:
        raise IllegalCommand("bad_seed", "A seed is 32 bytes in hex")
    if len(_eligible(s)) < SEATS:
        raise IllegalCommand(
            "not_enough_players", "Euchre needs four players present: two partnerships"
        )
    stake = s.config.stake
    short = [seat for seat in range(SEATS) if s.stacks[seat] < stake]
    if short:
        names = ", ".join(_name(s, seat) for seat in short)
        raise IllegalCommand(
            "short_stack", f"Every player pays the stake of {stake}¢ at the start: {names} can't"
        )
    stakes = (stake,) * SEATS if stake else ()
    w.emit(ev.GameStarted(a.seed, fairness.fingerprint(seed), first_dealer(seed), stakes))
    _open_hand(w)


def _end_game(w: _Work, actor: int | None, a: lc.EndGame, seq: int) -> None:
    s = w.state
    _host_only(s, actor)
    if s.phase not in (Phase.INTERLUDE, Phase.WAITING):
        raise IllegalCommand("hand_in_progress", "A game ends only between hands of a game")
    if s.phase is Phase.INTERLUDE:
        w.emit(ev.InterludeEnded())
    _cut_short(w, "host", (s.host,) if s.host is not None else ())


def _cut_short(w: _Work, reason: GameEndReason, quitters: tuple[int, ...]) -> None:
    """End the game before a team reached the target: the partnership of ``quitters`` forfeits
    the pot to the other as if it had won; without one, the stakes go back (rules §12.5)."""
    s = w.state
    team = forfeiting_team(s, quitters)
    winner = None if team is None else 1 - team
    forfeited = () if team is None else _team_seated(s, team)
    w.emit(ev.GameEnded(s.seed, s.scores, winner, reason, payouts(s, winner), forfeited))


def _team_seated(s: State, team: int) -> tuple[int, ...]:
    return tuple(seat for seat in range(SEATS) if seat % 2 == team and s.players[seat] is not None)


def _hand_over_host(w: _Work, actor: int | None, a: lc.HandOverHost, seq: int) -> None:
    s = w.state
    host = _host_only(s, actor)
    if not 0 <= a.seat < len(s.players) or a.seat == host:
        raise IllegalCommand("bad_seat", "Choose another seated player")
    player = s.players[a.seat]
    if player is None or player.bot is not None:
        raise IllegalCommand("bad_seat", "The host must be a seated person")
    w.emit(ev.HostChanged(a.seat))


def _vacate(w: _Work, seat: int) -> None:
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


def _timeout(w: _Work, actor: int | None, a: lc.Timeout, seq: int) -> None:
    _table_only(actor)
    s = w.state
    if s.deadline is None or w.at < s.deadline:
        raise IllegalCommand("not_due", "No decision has passed its deadline")
    if s.phase is Phase.INTERLUDE:  # the pause is over: nobody missed a decision
        _end_interlude(w)
        return
    for seat in to_act(s):
        w.emit(ev.TimedOut(seat))
        action = default_action(s, seat)
        _HANDLERS[type(action)](w, seat, action, s.seq)


# Dealing.


def _open_hand(w: _Work) -> None:
    """Deal the next hand, the deal one seat left of the last; wait without four players."""
    s = w.state
    if s.closing:
        _close(w)
        return
    if len(_eligible(s)) < SEATS:
        if s.phase is not Phase.WAITING:
            w.emit(ev.Waiting())
        return
    dealer = (s.first_dealer or 0) if s.button is None else (s.button + 1) % SEATS
    hand_no = s.hand_no + 1
    hands, turn_up, kitty = deal(bytes.fromhex(s.seed), hand_no, dealer)
    w.emit(ev.HandDealt(hand_no, dealer, hands, turn_up, kitty))


# Making trump.


def _order_up(w: _Work, actor: int | None, a: ac.OrderUp, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.ORDER)
    _check_alone(a.alone)
    assert s.turn_up is not None and s.dealer is not None
    w.emit(ev.TrumpMade(seat, suit_of(s.turn_up), a.alone))
    if a.alone and partner_of(seat) == s.dealer:
        _start_tricks(w)  # the dealer sits out: the turn-up stays on the kitty
    else:
        w.emit(ev.TurnUpTaken())


def _pass(w: _Work, actor: int | None, a: ac.Pass, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.ORDER, Phase.NAME)
    if s.phase is Phase.NAME and seat == s.dealer:
        raise IllegalCommand("stick_the_dealer", STUCK)
    w.emit(ev.Passed(seat))
    if s.turn is None:  # the dealer passed the turn-up
        w.emit(ev.TurnedDown())


def _name_trump(w: _Work, actor: int | None, a: ac.NameTrump, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.NAME)
    _check_alone(a.alone)
    if a.suit not in SUITS:
        raise IllegalCommand("malformed", "Name one of the four suits")
    if a.suit == barred_suit(s):
        raise IllegalCommand("turned_down", turned_down_reason(a.suit))
    w.emit(ev.TrumpMade(seat, a.suit, a.alone))
    _start_tricks(w)


def _discard(w: _Work, actor: int | None, a: ac.Discard, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.DISCARD)
    if a.card not in s.hands[seat]:
        raise IllegalCommand("bad_cards", "You can only discard a card you hold")
    w.emit(ev.DealerDiscarded(a.card))
    _start_tricks(w)


def _start_tricks(w: _Work) -> None:
    """The dealer's left leads, or the next seat when that one sits out."""
    w.emit(ev.TricksStarted(w.state.active()[0]))


# The tricks.


def _play(w: _Work, actor: int | None, a: ac.PlayCard, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.TRICKS)
    hand = s.hands[seat]
    if a.card not in hand:
        raise IllegalCommand("bad_cards", "You can only play a card you hold")
    trump = s.trump
    assert trump is not None
    why = dict(play_reasons(hand, s.trick, trump))[a.card]
    if why:
        raise IllegalCommand("illegal_card", why)
    w.emit(ev.CardPlayed(seat, a.card))
    if s.turn is None:
        w.emit(ev.TrickTaken(trick_winner(s.trick, trump)))
        if len(s.winners) == TRICKS_PER_HAND:
            _finish(w)


def _finish(w: _Work) -> None:
    s = w.state
    w.emit(ev.HandScored(score(s)))
    reached = [team for team in (0, 1) if s.scores[team] >= s.config.target]
    if reached:
        # Only the team that scored this hand gained points, so at most one team reaches it.
        # The pot is paid out before anyone leaving is vacated (they played the hand).
        w.emit(ev.GameEnded(s.seed, s.scores, reached[0], "target", payouts(s, reached[0])))
    leavers = [seat for seat, leaving in enumerate(s.leaving) if leaving]
    if leavers and _game_on(s) and not _people_staying(s):
        # Every person left during the hand: the game ends (their side forfeits) and the table
        # closes.
        w.emit(ev.TableClosing(_people(s)))
        _close(w)
        return
    for seat in leavers:
        _vacate(w, seat)
    if s.phase is Phase.ENDED:
        return
    # Every person present gets to see the result before the next hand is dealt.
    watching = tuple(
        seat
        for seat, p in enumerate(s.players)
        if p is not None and p.bot is None and s.connected[seat] and not s.away(seat)
    )
    if s.config.interlude_ms and watching and not s.closing:
        w.emit(ev.InterludeStarted(watching, w.at + s.config.interlude_ms))
    else:
        _open_hand(w)


def _next_hand(w: _Work, actor: int | None, a: ac.NextHand, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.INTERLUDE)
    w.emit(ev.ResultSeen(seat))
    if not s.interlude:
        _end_interlude(w)


def _end_interlude(w: _Work) -> None:
    w.emit(ev.InterludeEnded())
    _open_hand(w)


def _set_deadline(w: _Work) -> None:
    """Arm the deadline of the decision now pending (rules §7)."""
    s = w.state
    if s.phase is Phase.INTERLUDE:
        return  # the pause keeps its own end
    pending = to_act(s)
    bots = bool(pending) and all(_is_bot(s, seat) for seat in pending)
    if s.deadline is None and s.config.timer_ms is None and not _anyone_away(s) and not bots:
        return  # a table without a timer waits for people who are present, never for a bot
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


def _is_bot(s: State, seat: int) -> bool:
    player = s.players[seat]
    return player is not None and player.bot is not None


def _anyone_away(s: State) -> bool:
    return not all(s.connected) or max(s.timeouts) >= 2 or any(s.leaving)


_HANDLERS: dict[type[Any], Callable[[_Work, int | None, Any, int], None]] = {
    lc.TakeSeat: _take_seat,
    lc.AddBot: _add_bot,
    lc.Leave: _leave,
    lc.SitOut: _sit_out,
    lc.SetConnected: _set_connected,
    lc.StartGame: _start_game,
    lc.EndGame: _end_game,
    lc.HandOverHost: _hand_over_host,
    lc.CloseTable: _close_table,
    lc.Timeout: _timeout,
    ac.OrderUp: _order_up,
    ac.Pass: _pass,
    ac.NameTrump: _name_trump,
    ac.Discard: _discard,
    ac.PlayCard: _play,
    ac.NextHand: _next_hand,
}
