"""A stateful property test of the pure Swick engine (hypothesis ``RuleBasedStateMachine``).

A table of 3 to 6 seats with drawn stacks and antes plays random legal decisions, while every
other step throws a wrong command at it (a seat out of turn, a stale or early ``seq``, an option
marked illegal, a replayed ``action_id``, a card the seat does not hold, lifecycle misuse, a
timeout before its deadline...), lets a deadline pass, sits players out and back in, lets them
leave and new ones join, and ends and restarts games. After every accepted command it checks:

* every refused command raised ``IllegalCommand`` and left the state exactly as it was;
* money is conserved: ``sum(stacks) + pot + carry`` only moves when a player brings a stack to
  the table (``SeatTaken``) or takes one away (``SeatLeft``); every settled hand has
  ``sum(delta) + carry_out - carry_in == 0``, pays out exactly its pot, and took in exactly the
  carry that was outstanding at its deal;
* while cards are dealt, the 32 cards are each in exactly one place: a seat's hand (passed and
  dropped players keep theirs), the trump card when it was left on the table, the stock, the
  discards not yet recycled, the trick in play and the finished tricks;
* every deal and every recycled stock is the one ``docs/fairness.md`` describes, recomputed here
  from the seed, the hand number, the entropy and the seat order (except the deals this test
  rigs, as ``Table.rig`` does, to hand out special hands: three Aces, three 7s, A-K-Q of trump);
* folding the whole event list from ``new_table`` through ``evolve`` gives the current state;
* every seat's view (and a spectator's) shows only the cards that seat may see (rules §4), and a
  blind dealer's own cards as ``None``;
* the pot is divisible by 3 while cards are dealt, states survive a JSON round trip, and the
  seats the table waits for are seated, have a legal option and a running deadline;
* what the table decides for a seat (rules §3) is one of its legal options, and a card it
  plays or discards is the lowest by rank, then a non-trump before a trump, then ♣ ♦ ♥ ♠;
* every ante the dealer is offered can start a hand: set it, let everyone asked ready up, and
  the cards are dealt; a game ends by itself only without a carry, when players enough cover
  the smallest ante but none what a dealer pays;
* a table closes only between hands, once asked after being left long enough or once no person
  sits at it: any carry goes to the seated players, every seat is vacated, and it refuses
  everything after (the machine then opens a new table).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from shared import fairness
from shared.games import lifecycle as lc
from shared.games.interface import Command, IllegalCommand
from shared.games.swick import SWICK
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import ACE, DECK, KING, QUEEN, SEVEN, Card, code, label, make, parse
from shared.games.swick.codec import CODEC
from shared.games.swick.decide import step
from shared.games.swick.evolve import evolve
from shared.games.swick.legal import default_action, legal_actions, to_act
from shared.games.swick.play import special_kind
from shared.games.swick.state import (
    BETWEEN_HANDS,
    DEALER_EXTRA,
    RECENT_IDS,
    HandResult,
    Phase,
    State,
    TableConfig,
    new_table,
)
from shared.games.swick.views import view_for
from tests.engine.machine import COMMON_WRONG_KINDS, CommandsMachine, machine_settings
from tests.engine.named_cards import card_finder

TIMER_MS = 10_000
ABANDON_MS = 300_000
MAX_HAND_MOVES = 60
ANTE_MENUS: tuple[tuple[int, ...], ...] = ((3, 6, 9, 12, 15), (3,), (6, 30), (15, 150, 300))
# Mostly players who can afford many hands; now and then one who is (nearly) broke.
RICH = st.integers(100, 3_000)
STACKS = st.one_of(RICH, RICH, RICH, st.integers(0, 40))
ENTROPY_TEXTS = ("", "abc", "ünïcødé ♠ entropy", "🂡 ace of spades", "x" * 64)
BLIND_PHASES = frozenset({Phase.TRUMP, Phase.KNOCK, Phase.DRAW})
# Hand actions thrown at a table by a seat that may not take them now.
STRAY_ACTIONS: tuple[ac.Action, ...] = (
    ac.ChooseAnte(3),
    ac.Ready(),
    ac.SkipHand(),
    ac.DecideTrump(keep=True),
    ac.Knock(knock=True),
    ac.Knock(knock=False),
    ac.Draw(()),
    ac.DiscardFourth(0),
    ac.FaceTrump(play=True),
    ac.FaceTrump(play=False),
    ac.PlayCard(31),
)
WRONG_KINDS = (
    *COMMON_WRONG_KINDS,
    "end_game_bad_time",
    "bad_entropy",
    "sit_out_no_change",
    "bad_action_id",
)

cards_in_json = card_finder(DECK, label, parse)


def dealt_deck(seed: bytes, hand_no: int, context: bytes) -> list[Card]:
    """The shuffled deck of a hand, as ``docs/fairness.md`` describes it."""
    return fairness.shuffle(DECK, fairness.Stream(seed, "deal", hand_no, context))


def deal(
    deck: Sequence[Card], order: Sequence[int], seats: int
) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """One card at a time to each seat of ``order``, three rounds; then the trump; the stock."""
    hands: list[list[Card]] = [[] for _ in range(seats)]
    cards = iter(deck)
    for _round in range(3):
        for seat in order:
            hands[seat].append(next(cards))
    trump = next(cards)
    return tuple(tuple(hand) for hand in hands), trump, tuple(cards)


def public_cards(s: State) -> set[Card]:
    """Cards everyone may see: the trump card, the trick, the finished tricks, a special hand."""
    public: set[Card] = set()
    if s.trump_card is not None:
        public.add(s.trump_card)
    public.update(card for _, card in s.trick)
    public.update(card for trick in s.played for _, card in trick)
    if s.result is not None and s.result.special is not None:
        public.update(s.result.special.cards)
    return public


def special_targets(
    pick: int, order: Sequence[int]
) -> tuple[list[tuple[int, list[Card]]], int | None]:
    """Special hands to rig into a deal: ``(seat, cards)`` pairs and the trump suit they need."""
    seat = order[pick % len(order)]
    suits = [s for s in range(4) if s != (pick >> 4) % 4]
    aces = [make(ACE, s) for s in suits]
    sevens = [make(SEVEN, s) for s in suits]
    kind = (pick >> 6) % 4
    if kind == 0:
        return [(seat, aces)], None
    if kind == 1:
        return [(seat, sevens)], None
    if kind == 2:
        trump = (pick >> 4) % 4
        return [(seat, [make(ACE, trump), make(KING, trump), make(QUEEN, trump)])], trump
    other = order[(pick + 1) % len(order)]
    return [(seat, sevens), (other, aces)], None


def rigged_deal(e: ev.HandDealt, pick: int) -> ev.HandDealt:
    """``e`` with its cards swapped around so that some seats hold special hands (rules §2.8)."""
    layout = [card for seat in e.order for card in e.hands[seat]] + [e.trump_card, *e.stock]
    slots = {seat: range(3 * k, 3 * k + 3) for k, seat in enumerate(e.order)}
    targets, trump_suit = special_targets(pick, e.order)
    fixed: set[int] = set()
    for seat, cards in targets:
        for slot, card in zip(slots[seat], cards, strict=True):
            where = layout.index(card)
            layout[slot], layout[where] = layout[where], layout[slot]
            fixed.add(slot)
    top = 3 * len(e.order)
    if trump_suit is not None and layout[top] >> 3 != trump_suit:
        where = next(i for i, c in enumerate(layout) if c >> 3 == trump_suit and i not in fixed)
        layout[top], layout[where] = layout[where], layout[top]
    hands = [
        tuple(layout[i] for i in slots[seat]) if seat in slots else ()
        for seat in range(len(e.hands))
    ]
    assert sorted(layout) == list(DECK)
    return replace(e, hands=tuple(hands), trump_card=layout[top], stock=tuple(layout[top + 1 :]))


class SwickMachine(CommandsMachine[State]):
    """One table, driven by random legal play and a stream of wrong commands."""

    game = SWICK

    def __init__(self) -> None:
        super().__init__()
        self.state = new_table(TableConfig())
        self.replayed = self.state
        self.events: list[ev.Event] = []
        self.accepted: list[str] = []
        self.bank = 0  # money brought to the table minus money taken away
        self.carry_at_deal = 0
        self.hands_settled = 0
        self.rig: int | None = None  # rig the next deal with special hands (see ``rigged_deal``)

    # Driving the engine.

    def send(self, actor: int | None, action: ac.Action) -> list[ev.Event]:
        """A command that must be accepted; its events are checked and folded in."""
        command = self.command(actor, action)
        try:
            state, events = step(self.state, command)
        except IllegalCommand as error:
            raise AssertionError(f"refused {command}: {error}") from error
        assert events, "an accepted command has events"
        first = events[0]
        assert isinstance(first, ev.Accepted), first
        assert (first.action_id, first.actor) == (command.action_id, actor)
        rig = self.rig
        rigged = rig is not None and any(isinstance(e, ev.HandDealt) for e in events)
        if rig is not None and rigged:
            # As ``Table.rig`` does: the deal's cards are swapped, the rest stands.
            plain = self.replayed
            for event in events:
                plain = evolve(plain, event)
            assert plain == state, "the events do not rebuild the state step returned"
            events = [rigged_deal(e, rig) if isinstance(e, ev.HandDealt) else e for e in events]
            self.rig = None
        for event in events:
            self._fold(event, rigged=rigged)
        if rigged:
            state = self.replayed
        assert self.replayed == state, "the events do not rebuild the state step returned"
        assert state.seq == self.state.seq + 1
        self.state = state
        self.events.extend(events)
        self.accepted.append(command.action_id)
        if state.phase is Phase.CLOSED:
            self._reopen()
        return events

    def _reopen(self) -> None:
        """A closed table refuses everything; the machine goes on at a new one."""
        self.refuse(None, lc.TakeSeat(0, self.player(), 100), {"table_closed"})
        self.teardown()
        self.state = self.replayed = new_table(self.state.config)
        self.events, self.accepted, self.bank, self.carry_at_deal = [], [], 0, 0
        for seat in range(len(self.state.players)):
            self.send(None, lc.TakeSeat(seat, self.player(), 50_000))
        self._start(bytes(32))

    def _fold(self, event: ev.Event, *, rigged: bool = False) -> None:
        """Check one event against the state before it, then fold it into the replayed state."""
        s = self.replayed
        if isinstance(event, ev.SeatTaken):
            self.bank += event.stack
        elif isinstance(event, ev.SeatLeft):
            assert s.status[event.seat] == "", "a seat dealt into a hand left during it"
            self.bank -= s.stacks[event.seat]
        elif isinstance(event, ev.HandDealt):
            self._check_deal(s, event, rigged=rigged)
        elif isinstance(event, ev.Drew):
            self._check_draw(s, event)
        elif isinstance(event, ev.HandSettled):
            self._check_settlement(s, event.result)
        elif isinstance(event, ev.GameEnded):
            self._check_game_end(s, event)
        elif isinstance(event, ev.CarryShared):
            assert sum(event.shares) == s.carry
            assert all(s.players[seat] for seat, share in enumerate(event.shares) if share)
        elif isinstance(event, ev.TableClosed):
            assert s.phase in BETWEEN_HANDS and not any(s.players) and s.pot == 0
        self.replayed = evolve(s, event)

    def _check_deal(self, s: State, e: ev.HandDealt, *, rigged: bool) -> None:
        dealer = s.dealer
        assert dealer is not None
        n = len(s.players)
        assert e.hand_no == s.hand_no + 1
        assert len(e.order) >= 3 and e.order[-1] == dealer
        clockwise = [(dealer + k) % n for k in range(1, n + 1)]
        assert list(e.order) == [seat for seat in clockwise if seat in e.order]
        for seat in e.order:
            assert s.players[seat] is not None
            assert seat == dealer or (seat in s.candidates and s.entropy[seat] is not None)
        context = fairness.entropy_digest([(seat, s.entropy[seat] or "") for seat in e.order])
        assert e.context == context.hex()
        hands, trump, stock = deal(
            dealt_deck(bytes.fromhex(s.seed), e.hand_no, context), e.order, n
        )
        if not rigged:
            assert (e.hands, e.trump_card, e.stock) == (hands, trump, stock), (
                "not the deal documented"
            )
        free_ride = s.carry > 0
        assert s.free_ride == free_ride
        for seat in range(n):
            pay = (0 if free_ride else s.ante) if seat in e.order else 0
            if seat == dealer:
                pay += DEALER_EXTRA
            assert e.antes[seat] == pay
            if seat in e.order:
                assert s.stacks[seat] >= pay, "dealt in without covering the ante (rules §7)"
        self.carry_at_deal = s.carry

    def _check_draw(self, s: State, e: ev.Drew) -> None:
        assert len(e.drawn) == len(e.discards) <= 3
        if not e.recycled:
            assert len(s.stock) >= len(e.drawn)
            assert e.drawn == s.stock[: len(e.drawn)]
            return
        assert len(s.stock) < len(e.drawn), "recycled while the stock could cover the draw"
        stream = fairness.Stream(
            bytes.fromhex(s.seed), "recycle", s.hand_no, bytes.fromhex(s.context), s.recycles
        )
        assert e.recycled == tuple(fairness.shuffle(sorted(s.discards), stream))
        assert e.drawn == (*s.stock, *e.recycled)[: len(e.drawn)]

    def _check_settlement(self, s: State, r: HandResult) -> None:
        assert sum(r.delta) + r.carry_out - r.carry_in == 0
        assert r.carry_in == self.carry_at_deal
        assert r.pot == s.pot == r.carry_in + sum(r.antes)
        assert r.pot % 3 == 0
        assert sum(r.payouts) == r.pot, "a hand pays out exactly its pot"
        assert r.carry_out == sum(r.penalties)
        for seat, (paid, ante, owed) in enumerate(
            zip(r.payouts, r.antes, r.penalties, strict=True)
        ):
            assert r.delta[seat] == paid - ante - owed
            assert paid >= 0
            # Only a player still in goes set, or a dealer who kept the trump and passed or
            # chose Set single (at once); single matches the pot, double (the dealer who chose
            # Play with a face trump) is twice the pot (rules §2.10).
            assert bool(owed) == bool(r.sets[seat])
            if r.sets[seat] == "double":
                assert seat == s.dealer and s.face_play and owed == 2 * r.pot
            elif owed:
                assert owed == r.pot
                early = seat == s.dealer and s.early_sets[seat] == "single"
                assert s.status[seat] == "in" or early, f"seat {seat} set while {s.status[seat]}"
        self.hands_settled += 1

    def _check_game_end(self, s: State, e: ev.GameEnded) -> None:
        if e.reason == "closed" and not any(s.players):
            return  # nobody to give the carry to: it stays with the closed table
        assert s.carry == 0, "a game ended while a carry was outstanding (rules §9)"
        if e.reason == "no_dealer":
            least = min(s.config.antes)
            assert len(self._eligible(least, s)) >= 3
            assert not self._eligible(least + DEALER_EXTRA, s)

    # Checks after every step.

    @invariant()
    def check(self) -> None:
        s = self.state
        n = len(s.players)
        if n == 0:
            return
        assert sum(s.stacks) + s.pot + s.carry == self.bank, "money created or destroyed"
        assert s.recent_ids == tuple(self.accepted[-RECENT_IDS:])
        if s.order:
            self._check_cards(s)
        else:
            assert s.pot == 0
            assert s.hands == ((),) * n and not s.stock and not s.discards and not s.trick
            assert s.trump_card is None
        pending = to_act(s)
        for seat in pending:
            assert s.players[seat] is not None
            legal = [option.action for option in legal_actions(s, seat) if option.legal]
            assert legal, f"{seat} is stuck"
            self._check_default(s, seat, legal)
        if s.phase is Phase.ANTE:
            self._check_antes_can_start(s)
        assert (s.deadline is not None) == bool(pending), "a pending decision has no deadline"
        assert CODEC.load_state(CODEC.dump_state(s)) == s
        self._check_views(s)

    def _check_default(self, s: State, seat: int, legal: list[ac.Action]) -> None:
        """The table's choice for ``seat`` is legal; a card is the lowest of rules §3."""
        default = default_action(s, seat)
        assert default in legal, f"the default {default} is not a legal option"
        if isinstance(default, ac.PlayCard | ac.DiscardFourth):
            trump = s.trump_suit

            def order(card: Card) -> tuple[int, bool, int]:
                return card & 7, card >> 3 == trump, card >> 3

            cards = [a.card for a in legal if isinstance(a, ac.PlayCard | ac.DiscardFourth)]
            lowest = min(cards, key=order)
            assert default.card == lowest, f"the default {code(default.card)}, not {code(lowest)}"

    def _check_antes_can_start(self, s: State) -> None:
        """Each ante the dealer may set deals a hand when everyone asked readies up."""
        dealer = s.dealer
        assert dealer is not None
        for option in legal_actions(s, dealer):
            if not option.legal:
                continue
            state, _ = step(s, self._probe(dealer, option.action, s))
            while state.phase is Phase.READY and to_act(state):
                state, _ = step(state, self._probe(to_act(state)[0], ac.Ready(), state))
            assert state.phase is Phase.TRUMP, f"{option.action} did not start a hand"
            assert state.dealer == dealer

    def _probe(self, actor: int, action: ac.Action, s: State) -> Command[ac.Action]:
        """A command of a look ahead that the test throws away."""
        return Command(actor=actor, action=action, action_id=f"probe-{s.seq}", seq=s.seq, at=0)

    def _check_cards(self, s: State) -> None:
        assert s.pot % 3 == 0
        assert len(s.order) >= 3
        places: list[Card] = [card for hand in s.hands for card in hand]
        places += s.stock
        places += s.discards
        places += [card for _, card in s.trick]
        places += [card for trick in s.played for _, card in trick]
        assert s.trump_card is not None
        if not s.kept:
            places.append(s.trump_card)
        else:
            assert s.dealer is not None
            dealer_has = s.trump_card in s.hands[s.dealer]
            played = any(card == s.trump_card for t in (s.trick, *s.played) for _, card in t)
            assert dealer_has != played, "the kept trump card left the dealer other than by play"
        assert sorted(places) == list(DECK), f"cards lost or doubled: {Counter(places)}"
        for seat, hand in enumerate(s.hands):
            if seat not in s.order:
                assert not hand

    def _check_views(self, s: State) -> None:
        public = public_cards(s)
        # What the table publishes, spliced from one public part: the models' own JSON.
        spectator, spliced = CODEC.views_json(s, range(len(s.players)))
        assert spectator == CODEC.view_json(view_for(s, None))
        for seat, text in spliced.items():
            assert text == CODEC.view_json(view_for(s, seat)), f"seat {seat}'s spliced view differs"
        for seat in (*range(len(s.players)), None):
            view = view_for(s, seat)
            data = CODEC.dump_view(view)
            seen = cards_in_json(data)
            if seat is None or s.players[seat] is None:
                assert view.seat is None and view.hand == () and view.options == ()
                assert seen <= public, f"a spectator sees {seen - public}"
                continue
            hand: tuple[Card | None, ...] = s.hands[seat]
            if seat == s.dealer and s.phase in BLIND_PHASES:
                hand = tuple(c if s.kept and c == s.trump_card else None for c in s.hands[seat])
            assert view.hand == hand, f"seat {seat} at {s.phase} shown {view.hand}"
            own = {card for card in hand if card is not None} | set(s.discarded[seat])
            allowed = own | public
            assert seen <= allowed, f"seat {seat} at {s.phase} sees {seen - allowed}"

    def teardown(self) -> None:
        if self.events:
            state = new_table(self.state.config)
            for event in self.events:
                state = evolve(state, event)
            assert state == self.state, "replaying every event does not rebuild the table"

    # Setting up.

    @initialize(
        seats=st.sampled_from((3, 4, 5, 6, 6, 6)),  # six seats run the stock dry
        stacks=st.lists(STACKS, min_size=6, max_size=6),
        rich=st.booleans(),
        antes=st.sampled_from(ANTE_MENUS),
        seed=st.binary(min_size=32, max_size=32),
        pause=st.sampled_from((None, 5_000)),
    )
    def seat_players(
        self,
        seats: int,
        stacks: list[int],
        rich: bool,
        antes: tuple[int, ...],
        seed: bytes,
        pause: int | None,
    ) -> None:
        """Seat everyone (at a ``rich`` table, with stacks that last many hands) and start; at
        some tables each hand's result holds the next hand for a ``pause``."""
        self.state = self.replayed = new_table(
            TableConfig(seats=seats, antes=antes, timer_ms=TIMER_MS, interlude_ms=pause)
        )
        for seat in range(seats):
            stack = max(stacks[seat], 50_000) if rich else stacks[seat]
            self.send(None, lc.TakeSeat(seat, self.player(), stack))
        self._start(seed)

    def _eligible(self, pay: int, s: State | None = None) -> list[int]:
        """The seats that can be dealt in paying ``pay``, as every onlooker sees them: a player
        who stays (not sitting out, not leaving) with a stack that covers it."""
        return [
            seat.seat
            for seat in view_for(s or self.state, None).seats
            if seat.player is not None
            and not (seat.sitting_out or seat.leaving)
            and seat.stack >= pay
        ]

    def _start(self, seed: bytes) -> None:
        host = self.state.host
        least = min(self.state.config.antes)
        players, dealers = self._eligible(least), self._eligible(least + DEALER_EXTRA)
        if len(players) < 3 or not dealers:
            self.refuse(host, lc.StartGame(seed.hex()), {"not_enough_players"})
            return
        events = self.send(host, lc.StartGame(seed.hex()))
        started = next(e for e in events if isinstance(e, ev.GameStarted))
        assert started.first_dealer == fairness.choose_first_dealer(seed, dealers)
        assert started.fingerprint == fairness.fingerprint(seed)
        assert self.state.phase is not Phase.LOBBY

    # Rules.

    @precondition(lambda self: bool(to_act(self.state)))
    @rule(picks=st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=16))
    def play_legal(self, picks: list[int]) -> None:
        """A run of legal decisions, each by a seat the table waits for, with now and then a
        wrong command in between."""
        for k, pick in enumerate(picks):
            if k:
                self.check()
            if (pick >> 14) == 0:
                self.wrong_command(WRONG_KINDS[(pick >> 4) % len(WRONG_KINDS)], pick)
            seats = to_act(self.state)
            if not seats:
                return
            seat = seats[pick % len(seats)]
            self.now += pick % 4_000
            self.send(seat, self._choose(seat, pick, greedy=bool((pick >> 12) & 1)))

    @precondition(lambda self: bool(to_act(self.state)))
    @rule(seed=st.integers(0, 2**32 - 1))
    def play_hand(self, seed: int) -> None:
        """Legal decisions until the hand in play is settled (the play of ``play_legal``, drawn
        from a seeded generator, without wrong commands). Hypothesis runs stateful tests with
        "swarm" rule sets that leave rules out at random: two rules that play keep hands coming."""
        rng = random.Random(seed)
        greedy = rng.random() < 0.5
        settled = self.hands_settled
        for k in range(MAX_HAND_MOVES):
            seats = to_act(self.state)
            if not seats or self.hands_settled > settled:
                return
            if k:
                self.check()
            pick = rng.getrandbits(14)
            seat = seats[pick % len(seats)]
            self.now += pick % 4_000
            self.send(seat, self._choose(seat, pick, greedy=greedy))

    def _choose(self, seat: int, pick: int, *, greedy: bool) -> ac.Action:
        """A legal option: uniformly (but readying up more often than skipping the hand), or
        (``greedy``) knocking in and drawing 3 cards, so that six players run the stock dry; a
        seat holding a special hand plays it."""
        s = self.state
        options = [o.action for o in legal_actions(s, seat) if o.legal]
        assert options, f"seat {seat} has no legal option at {s.phase}"
        if s.phase is Phase.READY and pick % 8:  # mostly ready up, now and then skip the hand
            options = [a for a in options if isinstance(a, ac.Ready)] or options
        hand = s.hands[seat]
        trump = s.trump_suit
        if trump is not None and special_kind(hand, trump) is not None:
            keep = [a for a in options if a in (ac.Knock(True), ac.Draw(()))]
            if keep:
                return keep[0]
        if greedy:
            if ac.Knock(True) in options:
                return ac.Knock(True)
            most = max((len(a.discards) for a in options if isinstance(a, ac.Draw)), default=0)
            draws = [a for a in options if isinstance(a, ac.Draw) and len(a.discards) == most]
            if draws:
                return draws[pick % len(draws)]
        action = options[(pick >> 3) % len(options)]
        if isinstance(action, ac.ChooseAnte | ac.Ready) and pick % 5 == 0:
            entropy = ENTROPY_TEXTS[(pick >> 6) % len(ENTROPY_TEXTS)]
            if isinstance(action, ac.Ready):
                return ac.Ready(entropy)
            return ac.ChooseAnte(action.amount, entropy)
        return action

    @rule(pick=st.integers(0, 2**16 - 1))
    def rig_next_deal(self, pick: int) -> None:
        """Now and then the next deal gives special hands (three Aces, three 7s, A-K-Q)."""
        if self.rig is None and pick % 3 == 0:
            self.rig = pick >> 2

    @precondition(lambda self: self.state.deadline is not None)
    @rule(late=st.integers(0, 5_000), go=st.integers(0, 2))
    def time_out(self, late: int, go: int) -> None:
        """Now and then a deadline passes: the table decides for every seat it waits for."""
        if go:
            return
        deadline = self.state.deadline
        assert deadline is not None
        pause = self.state.phase is Phase.INTERLUDE
        waiting = to_act(self.state)
        self.now = max(self.now, deadline) + late
        events = self.send(None, lc.Timeout())
        timed_out = [e.seat for e in events if isinstance(e, ev.TimedOut)]
        if pause:  # a result's pause ends: nobody missed a decision
            assert timed_out == [] and ev.InterludeEnded() in events
            assert self.state.phase is not Phase.INTERLUDE
        else:
            assert timed_out == list(waiting)

    @rule(pick=st.integers(0, 5), go=st.integers(0, 3))
    def sit_out(self, pick: int, go: int) -> None:
        """A seated player sitting out comes back; now and then one who plays sits out."""
        s = self.state
        seat = pick % len(s.players)
        if s.players[seat] is None:
            self.refuse(seat, lc.SitOut(True), {"not_seated"})
        elif s.sitting_out[seat] or go == 0:
            out = not s.sitting_out[seat]
            self.send(seat, lc.SitOut(out))
            assert self.state.sitting_out[seat] == out

    @rule(pick=st.integers(0, 5), go=st.integers(0, 3))
    def connection_or_host(self, pick: int, go: int) -> None:
        """A player drops (decided for after the short grace) or comes back; now and then the
        host hands the table over to another seated player."""
        s = self.state
        seat = pick % len(s.players)
        host = s.host
        if go == 1 and host is not None:
            if seat == host or s.players[seat] is None:
                self.refuse(host, lc.HandOverHost(seat), {"bad_seat"})
            else:
                self.send(host, lc.HandOverHost(seat))
                assert self.state.host == seat
        elif s.players[seat] is None:
            self.refuse(None, lc.SetConnected(seat, False), {"not_seated"})
        elif s.leaving[seat]:
            self.refuse(None, lc.SetConnected(seat, not s.connected[seat]), {"no_change"})
        elif not s.connected[seat] or go == 0:
            self.send(None, lc.SetConnected(seat, not s.connected[seat]))

    @rule(late=st.integers(0, 10_000), go=st.integers(0, 5))
    def abandon(self, late: int, go: int) -> None:
        """Now and then every person drops; a table left long enough is closed on request,
        at once between hands, else at the end of the hand (and refused before that)."""
        s = self.state
        if s.closing:
            self.refuse(None, lc.CloseTable(ABANDON_MS), {"no_change"})
            return
        since = s.unattended_since
        if since is None:
            self.refuse(None, lc.CloseTable(ABANDON_MS), {"attended"})
            if go == 0:
                for seat, player in enumerate(s.players):
                    if player is not None and self.state.connected[seat]:
                        self.send(None, lc.SetConnected(seat, False))
            return
        if self.now < since + ABANDON_MS:
            self.refuse(None, lc.CloseTable(ABANDON_MS), {"not_due"})
            if go:
                return
            self.now = since + ABANDON_MS + late
        events = self.send(None, lc.CloseTable(ABANDON_MS))
        closed = any(isinstance(e, ev.TableClosed) for e in events)
        assert closed == (s.phase in BETWEEN_HANDS), "a table closed during a hand"
        if not closed:
            assert self.state.closing

    @rule(pick=st.integers(0, 5), stack=STACKS, leave=st.integers(0, 5))
    def leave_or_join(self, pick: int, stack: int, leave: int) -> None:
        """Now and then a player leaves; between hands a new one takes an empty seat."""
        s = self.state
        seat = pick % len(s.players)
        if s.players[seat] is None:
            if s.phase in BETWEEN_HANDS:
                self.send(None, lc.TakeSeat(seat, self.player(), stack))
            else:
                self.refuse(None, lc.TakeSeat(seat, self.player(), stack), {"hand_in_progress"})
        elif leave == 0:
            if s.status[seat] and s.leaving[seat]:
                self.refuse(seat, lc.Leave(), {"no_change"})
            else:
                events = self.send(seat, lc.Leave())
                if any(isinstance(e, ev.TableClosed) for e in events):
                    return  # the last person left: the machine went on at a new table
                if self.state.status[seat]:
                    assert self.state.leaving[seat]
                else:
                    assert self.state.players[seat] is None

    @precondition(
        lambda self: (
            self.state.phase in (Phase.INTERLUDE, Phase.ANTE, Phase.READY, Phase.WAITING)
            and self.state.host is not None
        )
    )
    @rule(go=st.integers(0, 9))
    def end_game(self, go: int) -> None:
        """Now and then the host ends the game between hands (refused while a carry is out)."""
        if go:
            return
        if self.state.carry:
            self.refuse(self.state.host, lc.EndGame(), {"carry_outstanding"})
            return
        self.send(self.state.host, lc.EndGame())
        s = self.state
        assert s.phase is Phase.ENDED
        nets = [row.net for row in s.standings]
        assert nets == sorted(nets, reverse=True)

    @precondition(
        lambda self: self.state.phase in (Phase.LOBBY, Phase.ENDED) and self.state.host is not None
    )
    @rule(seed=st.binary(min_size=32, max_size=32))
    def start_game(self, seed: bytes) -> None:
        self._start(seed)

    @rule(kind=st.sampled_from(WRONG_KINDS), pick=st.integers(0, 2**16 - 1))
    def wrong_command(self, kind: str, pick: int) -> None:
        """A command the table must refuse, changing nothing."""
        s = self.state
        n = len(s.players)
        pending = to_act(s)
        seat = pending[pick % len(pending)] if pending else None
        options = legal_actions(s, seat) if seat is not None else []
        legal = [o.action for o in options if o.legal]
        illegal = [o.action for o in options if not o.legal]
        some_legal = legal[pick % len(legal)] if legal else None
        seated = [p for p in range(n) if s.players[p] is not None]

        if kind == "not_to_act":
            others = [p for p in range(n) if p not in pending]
            actor = ([*others, None])[pick % (len(others) + 1)]
            action = some_legal or STRAY_ACTIONS[pick % len(STRAY_ACTIONS)]
            codes = {"not_your_turn", "wrong_phase", "not_seated", "no_face_trump"}
            self.refuse(actor, action, codes)
        elif kind == "stale" and some_legal is not None and s.turn_seq > 0:
            self.refuse(seat, some_legal, {"stale"}, seq=pick % s.turn_seq)
        elif kind == "illegal_option" and illegal:
            action = illegal[pick % len(illegal)]
            self.refuse(
                seat, action, {"illegal_card", "cannot_cover", "too_few_cover", "kept_trump"}
            )
        elif kind == "duplicate" and self.accepted and (some_legal is not None or seated):
            recent = self.accepted[-RECENT_IDS:]
            replay = recent[pick % len(recent)]
            if some_legal is not None:
                self.refuse(seat, some_legal, {"duplicate"}, action_id=replay)
            else:
                who = seated[pick % len(seated)]
                again = lc.SitOut(not s.sitting_out[who])
                self.refuse(who, again, {"duplicate"}, action_id=replay)
        elif kind == "not_in_hand" and seat is not None and s.phase in _CARD_PHASES:
            absent = [card for card in DECK if card not in s.hands[seat]]
            card = absent[pick % len(absent)]
            by_phase: dict[Phase, ac.Action] = {
                Phase.TRICKS: ac.PlayCard(card),
                Phase.DRAW: ac.Draw((card,)),
                Phase.DEALER_DRAW: ac.Draw((card,)),
                Phase.DEALER_DISCARD: ac.DiscardFourth(card),
            }
            self.refuse(seat, by_phase[s.phase], {"bad_cards"})
        elif kind == "take_seat_mid_hand":
            where = pick % n
            if s.phase not in BETWEEN_HANDS:
                self.refuse(None, lc.TakeSeat(where, self.player(), 100), {"hand_in_progress"})
            elif s.players[where] is not None:
                self.refuse(None, lc.TakeSeat(where, self.player(), 100), {"seat_taken"})
            else:
                self.refuse(where, lc.TakeSeat(where, self.player(), 100), {"not_allowed"})
        elif kind == "end_game_non_host":
            others = [p for p in range(n) if p != s.host]
            actor = ([*others, None])[pick % (len(others) + 1)]
            self.refuse(actor, lc.EndGame(), {"not_host", "not_seated"})
        elif (
            kind == "end_game_bad_time"
            and s.host is not None
            and (
                s.phase not in (Phase.INTERLUDE, Phase.ANTE, Phase.READY, Phase.WAITING) or s.carry
            )
        ):
            self.refuse(s.host, lc.EndGame(), {"hand_in_progress", "carry_outstanding"})
        elif (
            kind == "start_mid_game"
            and s.host is not None
            and s.phase not in (Phase.LOBBY, Phase.ENDED)
        ):
            self.refuse_restart(s.host)
        elif kind == "early_timeout":
            self.refuse_early_timeout(pick, n)
        elif kind == "bad_entropy" and s.phase in (Phase.ANTE, Phase.READY) and seat is not None:
            text = ("x" * 65, "tab\there", "new\nline")[pick % 3]
            if s.phase is Phase.READY:
                self.refuse(seat, ac.Ready(text), {"bad_entropy"})
            else:
                amounts = [a.amount for a in legal if isinstance(a, ac.ChooseAnte)]
                self.refuse(seat, ac.ChooseAnte(amounts[0], text), {"bad_entropy"})
        elif kind == "sit_out_no_change" and (
            unchanged := [x for x in seated if s.sitting_out[x] or not s.timeouts[x]]
        ):  # "I'm back" from a seat the table decided for is a change
            who = unchanged[pick % len(unchanged)]
            self.refuse(who, lc.SitOut(s.sitting_out[who]), {"no_change"})
        elif kind == "bad_action_id":
            action_id = ("", "x" * 65)[pick % 2]
            self.refuse(seat, some_legal or lc.Timeout(), {"malformed"}, action_id=action_id)
        elif kind == "bad_seat":
            self.refuse(n + pick % 3, some_legal or ac.Ready(), {"bad_seat"})
        else:  # "ahead", or a kind that does not apply now
            ahead = s.seq + 1 + pick % 5
            self.refuse(seat, some_legal or lc.Timeout(), {"bad_seq"}, seq=ahead)


_CARD_PHASES = frozenset({Phase.TRICKS, Phase.DRAW, Phase.DEALER_DRAW, Phase.DEALER_DISCARD})

SwickMachine.TestCase.settings = machine_settings(200, 60)
TestSwickMachine = SwickMachine.TestCase
