"""Deciding commands: check a request against the state and find the events it causes.

``step`` works on a private copy of the state and applies each event as it is found, so later
checks see its effect (the last knock decides whether the dealer wins at once). A refused
command raises ``IllegalCommand`` before anything is returned, so the state given is untouched.

The hand runs ANTE → READY → TRUMP → KNOCK → DRAW → DEALER_KNOCK → DEALER_DRAW →
(DEALER_DISCARD) → (FACE_TRUMP) → TRICKS, skipping a phase with nobody to act, and ends early
when every non-dealer passes, when one player is left, or on a special hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared import fairness
from shared.games import lifecycle as lc
from shared.games.interface import Command, IllegalCommand
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import Card, is_face, label
from shared.games.swick.dealing import deal, entropy_context, recycled
from shared.games.swick.evolve import apply
from shared.games.swick.legal import (
    PHASE_NAMES,
    default_action,
    startable_antes,
    to_act,
    too_few_cover,
)
from shared.games.swick.play import best_special, play_rule, trick_winner
from shared.games.swick.settlement import settle
from shared.games.swick.state import (
    BETWEEN_HANDS,
    DEALER_EXTRA,
    HandEnding,
    Phase,
    SpecialHand,
    Standing,
    State,
)

MAX_ACTION_ID = 64
MAX_ENTROPY = 64
MAX_NAME = 24

SwickCommand = Command[ac.Action]


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


def step(state: State, command: SwickCommand) -> tuple[State, list[ev.Event]]:
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


def decide(state: State, command: SwickCommand) -> list[ev.Event]:
    return step(state, command)[1]


def _check_envelope(state: State, command: SwickCommand) -> None:
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


def _check_entropy(text: str) -> None:
    if not isinstance(text, str) or len(text) > MAX_ENTROPY or not text.isprintable():
        raise IllegalCommand("bad_entropy", f"Entropy is up to {MAX_ENTROPY} printable characters")


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
    elif s.phase in (Phase.LOBBY, Phase.ENDED):  # the table replaces only a game's bot
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
    if s.status[seat]:  # dealt into the hand in play: it plays on by the defaults until it ends
        if s.leaving[seat]:
            raise IllegalCommand("no_change", "You are already leaving after this hand")
        w.emit(ev.LeavingAfterHand(seat))
        return
    was_dealer = seat == s.dealer
    _vacate(w, seat)
    if s.phase is Phase.INTERLUDE and not s.interlude:
        _end_interlude(w)  # the last person looking at the result left
    if s.phase in (Phase.ANTE, Phase.READY):
        if was_dealer:
            _open_hand(w)
        elif s.phase is Phase.READY:
            _maybe_deal(w)
        elif not startable_antes(s):
            _open_hand(w)


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
    # Without this player, no ante may be able to start the hand being set up.
    ante_stuck = s.phase is Phase.ANTE and seat in s.candidates and not startable_antes(s)
    if s.phase is Phase.READY and seat in s.candidates:
        _maybe_deal(w)
    elif ante_stuck or (s.phase is Phase.WAITING and not a.sitting_out):
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
    w.emit(ev.TableClosing())


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
    """End the game, give any carry to the seated players, vacate every seat and close."""
    s = w.state
    if s.phase is Phase.INTERLUDE:
        w.emit(ev.InterludeEnded())
    if s.carry:
        shares = carry_shares(s)
        if any(shares):
            w.emit(ev.CarryShared(shares))
    if s.phase not in (Phase.LOBBY, Phase.ENDED):
        w.emit(ev.GameEnded(s.seed, _standings(s), "closed"))
    for seat, player in enumerate(s.players):
        if player is not None:
            w.emit(ev.SeatLeft(seat))
    if s.host is not None:
        w.emit(ev.HostChanged(None))
    w.emit(ev.TableClosed())


def carry_shares(s: State) -> tuple[int, ...]:
    """The carry split evenly among the seated players; the odd cents go one each to the
    seats after the button, clockwise. Nobody seated: nothing (it stays with the table)."""
    n = len(s.players)
    seated = [seat for seat, p in enumerate(s.players) if p is not None]
    shares = [0] * n
    if not seated:
        return tuple(shares)
    each, odd = divmod(s.carry, len(seated))
    start = 0 if s.button is None else s.button + 1
    order = sorted(seated, key=lambda seat: (seat - start) % n)
    for rank, seat in enumerate(order):
        shares[seat] = each + (1 if rank < odd else 0)
    return tuple(shares)


def _eligible(s: State, pay: int) -> list[int]:
    """Seats that can be dealt in, paying ``pay``: seated, present, and covering it."""
    return [
        seat
        for seat, player in enumerate(s.players)
        if player is not None
        and not s.sitting_out[seat]
        and not s.leaving[seat]
        and s.stacks[seat] >= pay
    ]


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
    least = min(s.config.antes)
    players = _eligible(s, least)
    dealers = _eligible(s, least + DEALER_EXTRA)
    if len(players) < 3 or not dealers:
        raise IllegalCommand(
            "not_enough_players", "A game needs at least 3 players present who can cover the ante"
        )
    first = fairness.choose_first_dealer(seed, dealers)
    w.emit(ev.GameStarted(a.seed, fairness.fingerprint(seed), first, tuple(dealers)))
    _open_hand(w)


def _end_game(w: _Work, actor: int | None, a: lc.EndGame, seq: int) -> None:
    s = w.state
    _host_only(s, actor)
    if s.phase not in (Phase.INTERLUDE, Phase.ANTE, Phase.READY, Phase.WAITING):
        raise IllegalCommand("hand_in_progress", "A game ends only between hands of a game")
    if s.carry:
        raise IllegalCommand(
            "carry_outstanding",
            f"The game can't end while {s.carry}¢ of set money is carried: "
            "play on until a hand ends with nobody set",
        )
    if s.phase is Phase.INTERLUDE:
        w.emit(ev.InterludeEnded())
    w.emit(ev.GameEnded(s.seed, _standings(s), "host"))


def _standings(s: State) -> tuple[Standing, ...]:
    """Every seated player, the biggest winner first."""
    standings = sorted(
        (
            Standing(seat, player.name, s.nets[seat], s.stacks[seat])
            for seat, player in enumerate(s.players)
            if player is not None
        ),
        key=lambda st: (-st.net, st.seat),
    )
    return tuple(standings)


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
        if s.phase is Phase.DEALER_DISCARD:  # one deadline covers the dealer's whole draw
            action = default_action(s, seat)
            _HANDLERS[type(action)](w, seat, action, s.seq)


# Setting up a hand.


def _open_hand(w: _Work) -> None:
    """Open the next hand; wait when fewer than 3 seats can be dealt in; end the game when they
    can but none of them can pay what a dealer pays."""
    s = w.state
    if s.closing:
        _close(w)
        return
    free_ride = s.carry > 0
    least = 0 if free_ride else min(s.config.antes)
    players = _eligible(s, least)
    dealers = set(_eligible(s, least + DEALER_EXTRA))
    n = len(s.players)
    start = (s.first_dealer or 0) if s.button is None else s.button + 1
    dealer = next((seat for k in range(n) if (seat := (start + k) % n) in dealers), None)
    if len(players) < 3 or dealer is None:
        if len(players) >= 3 and not free_ride:
            # No ante can start a hand with these stacks, and there is no carry to keep the
            # game going (rules §9): rather than wait for ever, the game ends.
            w.emit(ev.GameEnded(s.seed, _standings(s), "no_dealer"))
        elif s.phase is not Phase.WAITING:
            w.emit(ev.Waiting())
        return
    candidates = tuple(seat for k in range(1, n) if (seat := (dealer + k) % n) in players)
    w.emit(ev.HandOpened(dealer, free_ride, candidates))


def _choose_ante(w: _Work, actor: int | None, a: ac.ChooseAnte, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.ANTE)
    if a.amount not in s.config.antes:
        options = ", ".join(f"{x}¢" for x in s.config.antes)
        raise IllegalCommand("bad_ante", f"The ante is one of {options}")
    if s.stacks[seat] < a.amount + DEALER_EXTRA:
        raise IllegalCommand(
            "cannot_cover",
            f"As dealer you would pay {a.amount + DEALER_EXTRA}¢ and you have {s.stacks[seat]}¢",
        )
    too_few = too_few_cover(s, a.amount)
    if too_few:
        raise IllegalCommand("too_few_cover", too_few)
    _check_entropy(a.entropy)
    w.emit(ev.AnteChosen(a.amount, a.entropy))
    _maybe_deal(w)


def _ready(w: _Work, actor: int | None, a: ac.Ready, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.READY)
    _check_entropy(a.entropy)
    w.emit(ev.Readied(seat, a.entropy))
    _maybe_deal(w)


def _skip_hand(w: _Work, actor: int | None, a: ac.SkipHand, seq: int) -> None:
    seat = _decision(w.state, actor, seq, Phase.READY)
    w.emit(ev.HandSkipped(seat))
    _maybe_deal(w)


def _maybe_deal(w: _Work) -> None:
    """Deal once every candidate has readied or sat out."""
    s = w.state
    if to_act(s):
        return
    ready = {c for c in s.candidates if s.entropy[c] is not None and not s.sitting_out[c]}
    dealer = s.dealer
    assert dealer is not None
    if len(ready) < 2:
        _open_hand(w)
        return
    n = len(s.players)
    order = tuple(seat for k in range(1, n + 1) if (seat := (dealer + k) % n) in ready or k == n)
    context = entropy_context(order, s.entropy)
    hand_no = s.hand_no + 1
    hands, trump_card, stock = deal(bytes.fromhex(s.seed), hand_no, order, context, n)
    antes = [0] * n
    for seat in order:
        antes[seat] = s.ante
    antes[dealer] = s.ante + DEALER_EXTRA
    w.emit(ev.HandDealt(hand_no, order, tuple(antes), context.hex(), hands, trump_card, stock))


# The hand.


def _decide_trump(w: _Work, actor: int | None, a: ac.DecideTrump, seq: int) -> None:
    _decision(w.state, actor, seq, Phase.TRUMP)
    w.emit(ev.TrumpDecided(a.keep))


def _knock(w: _Work, actor: int | None, a: ac.Knock, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.KNOCK, Phase.DEALER_KNOCK)
    w.emit(ev.Knocked(seat, a.knock))
    if s.phase is Phase.DEALER_KNOCK:
        if a.knock:
            w.emit(ev.PhaseStarted(Phase.DEALER_DRAW, seat))
        else:
            _dealer_out(w)
    elif s.turn is None:
        knocked = [p for p in s.order[:-1] if s.status[p] == "in"]
        if knocked:
            w.emit(ev.PhaseStarted(Phase.DRAW, knocked[0]))
        else:
            _finish(w, "all_passed", winner=s.dealer)


def _draw(w: _Work, actor: int | None, a: ac.Draw, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.DRAW, Phase.DEALER_DRAW)
    discards = a.discards
    hand = s.hands[seat]
    if len(discards) > 3:
        raise IllegalCommand("too_many", "Discard at most 3 cards")
    if len(set(discards)) != len(discards):
        raise IllegalCommand("bad_cards", "Each card can be discarded once")
    for card in discards:
        _check_discard(s, seat, hand, card)
    need = len(discards)
    stock = s.stock
    refill: tuple[Card, ...] = ()
    if len(stock) < need:
        seed, context = bytes.fromhex(s.seed), bytes.fromhex(s.context)
        refill = recycled(seed, s.hand_no, context, s.recycles, s.discards)
        stock += refill
        if len(stock) < need:  # the rules make this impossible with 3 to 6 players
            raise IllegalCommand("stock_empty", "The stock cannot cover this draw")
    w.emit(ev.Drew(seat, discards, stock[:need], refill))
    if s.phase is Phase.DRAW:
        if s.turn is None:
            w.emit(ev.PhaseStarted(Phase.DEALER_KNOCK, s.dealer))
    elif len(s.hands[seat]) == 4:
        w.emit(ev.PhaseStarted(Phase.DEALER_DISCARD, seat))
    else:
        _before_tricks(w)


def _check_discard(s: State, seat: int, hand: tuple[Card, ...], card: Card) -> None:
    if card not in hand:
        raise IllegalCommand("bad_cards", "You can only discard cards you hold")
    if seat == s.dealer and s.kept and card == s.trump_card:
        raise IllegalCommand(
            "kept_trump", f"The kept trump card {label(card)} can never be discarded"
        )


def _discard_fourth(w: _Work, actor: int | None, a: ac.DiscardFourth, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.DEALER_DISCARD)
    _check_discard(s, seat, s.hands[seat], a.card)
    w.emit(ev.DealerDiscarded(a.card))
    _before_tricks(w)


def _before_tricks(w: _Work) -> None:
    s = w.state
    if s.kept and s.trump_card is not None and is_face(s.trump_card):
        w.emit(ev.PhaseStarted(Phase.FACE_TRUMP, s.dealer))
    else:
        _start_tricks(w)


def _face_trump(w: _Work, actor: int | None, a: ac.FaceTrump, seq: int) -> None:
    s = w.state
    card = s.trump_card
    offered = s.kept and card is not None and is_face(card)
    if s.phase is not Phase.FACE_TRUMP and actor == s.dealer and card is not None and not offered:
        kept = f"kept {label(card)}" if s.kept else "left the trump card"
        raise IllegalCommand(
            "no_face_trump",
            f"Play or Set single is only for a dealer who kept a face trump; you {kept}",
        )
    _decision(s, actor, seq, Phase.FACE_TRUMP)
    w.emit(ev.FaceTrumpDecided(a.play))
    if a.play:
        _start_tricks(w)
    else:
        _dealer_out(w)


def _dealer_out(w: _Work) -> None:
    """The dealer passed or set single: one player left takes the pot; more play on."""
    players = w.state.in_hand()
    if len(players) == 1:
        _finish(w, "last_standing", winner=players[0])
    else:
        _start_tricks(w)


def _start_tricks(w: _Work) -> None:
    s = w.state
    players = s.in_hand()
    trump = s.trump_suit
    assert trump is not None
    found = best_special([(p, s.hands[p]) for p in players], trump)
    if found is not None:
        seat, kind = found
        special = SpecialHand(seat, kind, tuple(sorted(s.hands[seat], reverse=True)))
        _finish(w, "special", winner=seat, special=special)
    else:
        w.emit(ev.PhaseStarted(Phase.TRICKS, players[0]))


def _play(w: _Work, actor: int | None, a: ac.PlayCard, seq: int) -> None:
    s = w.state
    seat = _decision(s, actor, seq, Phase.TRICKS)
    hand = s.hands[seat]
    if a.card not in hand:
        raise IllegalCommand("bad_cards", "You can only play a card you hold")
    trump = s.trump_suit
    assert trump is not None
    first_lead = not s.trick and sum(s.tricks_won) == 0
    allowed, why = play_rule(hand, s.trick, trump, first_lead)
    if allowed is not None and a.card not in allowed:
        raise IllegalCommand("illegal_card", why())
    w.emit(ev.CardPlayed(seat, a.card))
    if s.turn is None:
        w.emit(ev.TrickTaken(trick_winner(s.trick, trump)))
        if sum(s.tricks_won) == 3:
            _finish(w, "tricks")


def _finish(
    w: _Work, ending: HandEnding, winner: int | None = None, special: SpecialHand | None = None
) -> None:
    s = w.state
    w.emit(ev.HandSettled(settle(s, ending, winner, special)))
    for seat, leaving in enumerate(s.leaving):
        if leaving:
            _vacate(w, seat)
    # Every person present gets to see the result before the next hand asks anything.
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
    """Arm the deadline of the decision now pending (rules §3)."""
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
    ac.ChooseAnte: _choose_ante,
    ac.Ready: _ready,
    ac.SkipHand: _skip_hand,
    ac.NextHand: _next_hand,
    ac.DecideTrump: _decide_trump,
    ac.Knock: _knock,
    ac.Draw: _draw,
    ac.DiscardFourth: _discard_fourth,
    ac.FaceTrump: _face_trump,
    ac.PlayCard: _play,
}
