"""Deciding Swick's commands: its decisions' handlers and its part in the table's lifecycle.

The table's lifecycle (``shared.games.table.flow``) runs every command: seating, leaving,
deadlines and closing are its; the handlers here check a hand's decisions and find the events
they cause, each applied as it is found, so later checks see its effect (the last knock decides
whether the dealer wins at once).

The hand runs ANTE → READY → TRUMP → KNOCK → DRAW → DEALER_KNOCK → DEALER_DRAW →
(DEALER_DISCARD) → (FACE_TRUMP) → TRICKS, skipping a phase with nobody to act, and ends early
when every non-dealer passes, when one player is left, or on a special hand.
"""

from __future__ import annotations

from functools import partial

from shared import fairness
from shared.games.interface import IllegalCommand
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
    GameEndReason,
    HandEnding,
    Phase,
    SpecialHand,
    Standing,
    State,
)
from shared.games.table import flow
from shared.games.table.flow import card_decision, decision
from shared.games.table.rules import CutShort, Rules, Work

MAX_ENTROPY = 64


def _check_entropy(text: str) -> None:
    if not isinstance(text, str) or len(text) > MAX_ENTROPY or not text.isprintable():
        raise IllegalCommand("bad_entropy", f"Entropy is up to {MAX_ENTROPY} printable characters")


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


def _cut_short(s: State, reason: GameEndReason) -> ev.GameEnded:
    return ev.GameEnded(s.seed, _standings(s), reason)


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


# Setting up a hand.


def _begin_hand(w: Work[State], after: int | None = None) -> None:
    """Open the next hand, dealt by the first seat that can deal after ``after`` (by default
    the button); wait when fewer than 3 seats can be dealt in; end the game when they can but
    none of them can pay what a dealer pays."""
    s = w.state
    free_ride = s.carry > 0
    least = 0 if free_ride else min(s.config.antes)
    players = _eligible(s, least)
    dealers = set(_eligible(s, least + DEALER_EXTRA))
    n = len(s.players)
    if after is None:
        after = s.button
    start = (s.first_dealer or 0) if after is None else after + 1
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


def _choose_ante(w: Work[State], actor: int | None, a: ac.ChooseAnte, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.ANTE)
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


def _ready(w: Work[State], actor: int | None, a: ac.Ready, seq: int) -> None:
    seat = decision(w, actor, seq, Phase.READY)
    _check_entropy(a.entropy)
    w.emit(ev.Readied(seat, a.entropy))
    _maybe_deal(w)


def _skip_hand(w: Work[State], actor: int | None, a: ac.SkipHand, seq: int) -> None:
    seat = decision(w, actor, seq, Phase.READY)
    w.emit(ev.HandSkipped(seat))
    _maybe_deal(w)


def _maybe_deal(w: Work[State]) -> None:
    """Deal once every candidate has readied or sat out."""
    s = w.state
    if to_act(s):
        return
    ready = {c for c in s.candidates if s.entropy[c] is not None and not s.sitting_out[c]}
    dealer = s.dealer
    assert dealer is not None
    if len(ready) < 2:
        # The hand cannot start and the deal passes on, as after a hand: no seat deals while
        # the others are asked for ever, and a table left to its timers asks everyone in turn.
        if s.closing:
            flow.open_hand(w)
        else:
            _begin_hand(w, after=dealer)
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


def _decide_trump(w: Work[State], actor: int | None, a: ac.DecideTrump, seq: int) -> None:
    decision(w, actor, seq, Phase.TRUMP)
    w.emit(ev.TrumpDecided(a.keep))


def _knock(w: Work[State], actor: int | None, a: ac.Knock, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.KNOCK, Phase.DEALER_KNOCK)
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


def _draw(w: Work[State], actor: int | None, a: ac.Draw, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.DRAW, Phase.DEALER_DRAW)
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


def _discard_fourth(w: Work[State], actor: int | None, a: ac.DiscardFourth, seq: int) -> None:
    s = w.state
    seat = decision(w, actor, seq, Phase.DEALER_DISCARD)
    _check_discard(s, seat, s.hands[seat], a.card)
    w.emit(ev.DealerDiscarded(a.card))
    _before_tricks(w)


def _before_tricks(w: Work[State]) -> None:
    s = w.state
    if s.kept and s.trump_card is not None and is_face(s.trump_card):
        w.emit(ev.PhaseStarted(Phase.FACE_TRUMP, s.dealer))
    else:
        _start_tricks(w)


def _face_trump(w: Work[State], actor: int | None, a: ac.FaceTrump, seq: int) -> None:
    s = w.state
    card = s.trump_card
    offered = s.kept and card is not None and is_face(card)
    if s.phase is not Phase.FACE_TRUMP and actor == s.dealer and card is not None and not offered:
        kept = f"kept {label(card)}" if s.kept else "left the trump card"
        raise IllegalCommand(
            "no_face_trump",
            f"Play or Set single is only for a dealer who kept a face trump; you {kept}",
        )
    decision(w, actor, seq, Phase.FACE_TRUMP)
    w.emit(ev.FaceTrumpDecided(a.play))
    if a.play:
        _start_tricks(w)
    else:
        _dealer_out(w)


def _dealer_out(w: Work[State]) -> None:
    """The dealer passed or set single: one player left takes the pot; more play on."""
    players = w.state.in_hand()
    if len(players) == 1:
        _finish(w, "last_standing", winner=players[0])
    else:
        _start_tricks(w)


def _start_tricks(w: Work[State]) -> None:
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


def _play(w: Work[State], actor: int | None, a: ac.PlayCard[Card], seq: int) -> None:
    s = w.state
    seat = card_decision(w, actor, seq, Phase.TRICKS, a.card)
    hand = s.hands[seat]
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
    w: Work[State],
    ending: HandEnding,
    winner: int | None = None,
    special: SpecialHand | None = None,
) -> None:
    w.emit(ev.HandSettled(settle(w.state, ending, winner, special)))
    flow.after_hand(w)


class SwickRules(Rules[State]):
    """Swick's part in the table's lifecycle: a pot game that players come and go from, so a
    game cut short has no winner and no forfeit; only the carry is shared out on closing."""

    def __init__(self) -> None:
        super().__init__(
            Phase,
            apply=apply,
            to_act=to_act,
            default_action=default_action,
            phase_names=PHASE_NAMES,
            between_hands=BETWEEN_HANDS,
            host_may_end=frozenset({Phase.INTERLUDE, Phase.ANTE, Phase.READY, Phase.WAITING}),
            handlers={
                ac.ChooseAnte: _choose_ante,
                ac.Ready: _ready,
                ac.SkipHand: _skip_hand,
                ac.DecideTrump: _decide_trump,
                ac.Knock: _knock,
                ac.Draw: _draw,
                ac.DiscardFourth: _discard_fourth,
                ac.FaceTrump: _face_trump,
                ac.PlayCard: _play,
            },
        )

    def dealt_in(self, s: State, seat: int) -> bool:
        return bool(s.status[seat])

    def start(self, s: State, seed_hex: str, seed: bytes) -> ev.GameStarted:
        least = min(s.config.antes)
        players = _eligible(s, least)
        dealers = _eligible(s, least + DEALER_EXTRA)
        if len(players) < 3 or not dealers:
            raise IllegalCommand(
                "not_enough_players",
                "A game needs at least 3 players present who can cover the ante",
            )
        first = fairness.choose_first_dealer(seed, dealers)
        return ev.GameStarted(seed_hex, fairness.fingerprint(seed), first, tuple(dealers))

    def begin_hand(self, w: Work[State]) -> None:
        _begin_hand(w)

    def check_end(self, s: State) -> None:
        if s.carry:
            raise IllegalCommand(
                "carry_outstanding",
                f"The game can't end while {s.carry}¢ of set money is carried: "
                "play on until a hand ends with nobody set",
            )

    def cut_short(self, w: Work[State], reason: CutShort, quitters: tuple[int, ...]) -> None:
        w.emit(_cut_short(w.state, reason))

    def close_game(self, w: Work[State]) -> None:
        """Give any carry to the seated players and end the game."""
        s = w.state
        if s.carry:
            shares = carry_shares(s)
            if any(shares):
                w.emit(ev.CarryShared(shares))
        if s.phase not in (Phase.LOBBY, Phase.ENDED):
            w.emit(_cut_short(s, "closed"))

    def closing(self, quitters: tuple[int, ...]) -> ev.TableClosing:
        return ev.TableClosing()

    def leave_between_hands(self, w: Work[State], seat: int) -> None:
        s = w.state
        was_dealer = seat == s.dealer
        super().leave_between_hands(w, seat)
        if s.phase in (Phase.ANTE, Phase.READY):
            if was_dealer:
                flow.open_hand(w)
            elif s.phase is Phase.READY:
                _maybe_deal(w)
            elif not startable_antes(s):
                flow.open_hand(w)

    def sat_out(self, w: Work[State], seat: int, sitting_out: bool) -> None:
        s = w.state
        # Without this player, no ante may be able to start the hand being set up.
        ante_stuck = s.phase is Phase.ANTE and seat in s.candidates and not startable_antes(s)
        if s.phase is Phase.READY and seat in s.candidates:
            _maybe_deal(w)
        elif ante_stuck or (s.phase is Phase.WAITING and not sitting_out):
            flow.open_hand(w)

    def decide_by_default(self, w: Work[State], seat: int) -> None:
        s = w.state
        w.handle(seat, default_action(s, seat))
        if s.phase is Phase.DEALER_DISCARD:  # one deadline covers the dealer's whole draw
            w.handle(seat, default_action(s, seat))


RULES = SwickRules()
step = partial(flow.step, RULES)
"""The state after a command and the events that led there."""
