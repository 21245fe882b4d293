"""The conformance suite every registered game runs: the properties a game must have to be played
on this platform, checked through ``GameModule`` and the registry only.

A table is driven as a table worker drives one (``Table``): commands stepped through the game,
the events stored as JSON, chips booked by the game's transfers, records and replays built from
the stored log when a game ends. After every accepted command it checks that

* no view (a seat's, a bot's, a spectator's; the spliced ``views_json`` too) names a card its
  reader may not see (``visible_cards``), and no record or replay is served before the game
  ends;
* replaying the stored events from a new table rebuilds the live state, and a finished game's
  replay shows, frame by frame, the spectators' views the table published;
* states, events, actions and views survive their codecs;
* every option offered as illegal is refused with a reason and changes nothing; a game
  decision is accepted only when it was offered to its actor as legal;
* whoever the table waits for has a legal option, a deadline, and a default that is legal;
* while a hand is dealt its cards are the deck, each once; the chips the transfers move match
  the stacks, no chip is made or lost, and no stake stays in the pot once a game has ended;
* a finished game's record verifies against its revealed seed, and a record with one card
  changed does not.

Two drivers use it: ``ConformanceMachine`` (a Hypothesis state machine of random legal play,
wrong commands, timeouts, seats coming and going, games ended and restarted) and
``abandoned_table_ends`` (a table whose people all stop answering still reaches the end).
``tests/games/test_conformance.py`` runs both for every game in the registry, so registering a
game puts it on the suite. ``python -m shared.games.conformance --report`` runs the suite
outside pytest and prints how much it checked. It needs the dev extras (Hypothesis).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from shared.games import lifecycle as lc
from shared.games.interface import TABLE, Command, IllegalCommand
from shared.games.records import build_record
from shared.games.registry import GAMES, AnyGame
from shared.games.replays import build_replay
from shared.tables_read import PlayerResult

STACK = 10_000  # every player's chips when seated: enough for any stake or ante
ABANDON_MS = 300_000  # the table workers' default abandon time
OVER = frozenset({"ended", "closed"})
MOST_COMMANDS = 20_000  # a table left to its timers reaches the end well before this
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

settings.register_profile(
    "conformance",
    max_examples=25,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "conformance-long",
    settings.get_profile("conformance"),
    max_examples=200,
    stateful_step_count=80,
)


def profile() -> settings:
    """The suite's Hypothesis settings: ``SWICK_CONFORMANCE=conformance-long`` for a long run."""
    return settings.get_profile(os.environ.get("SWICK_CONFORMANCE", "conformance"))


@dataclass
class Tally:
    """How much the suite checked, for the report."""

    games: set[str]
    examples: int = 0
    decisions: int = 0
    commands: int = 0
    refused: int = 0
    finished: int = 0  # games played to their end, records and replays checked
    seconds: float = 0.0

    def line(self) -> str:
        return (
            f"games {len(self.games)}, examples {self.examples}, decisions {self.decisions}, "
            f"commands {self.commands}, refused {self.refused}, games finished {self.finished}, "
            f"{self.seconds:.1f} s"
        )


TALLY = Tally(set())


class CardFinder:
    """Every card a JSON document names: as a code (``"10D"``) or inside a text (``"10♦"``)."""

    def __init__(self, deck: Sequence[str]) -> None:
        self.codes = frozenset(deck)
        labels = {code[:-1] + SUITS[code[-1]]: code for code in deck if code[-1] in SUITS}
        self.labels = labels
        longest_first = sorted(labels, key=len, reverse=True)
        self.pattern = re.compile("|".join(map(re.escape, longest_first)) or "(?!)")

    def __call__(self, data: Any) -> set[str]:
        found: set[str] = set()
        stack = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                if item in self.codes:
                    found.add(item)
                found.update(self.labels[label] for label in self.pattern.findall(item))
        return found


def refusal(error: IllegalCommand) -> None:
    assert error.code and error.message, f"refused without a reason: {error!r}"


class Sender:
    """Builds what a worker sends one table: commands, each with the next action id (``ids``),
    at the table's seq and at ``now`` (ms) unless told otherwise; and new players (``names``)."""

    game: AnyGame
    state: Any
    now: int
    ids: Iterator[int]
    names: Iterator[int]

    def command(
        self,
        actor: int | None,
        action: Any,
        *,
        seq: int | None = None,
        action_id: str | None = None,
    ) -> Command[Any]:
        return Command(
            actor=actor,
            action=action,
            action_id=f"c{next(self.ids)}" if action_id is None else action_id,
            seq=self.game.seq(self.state) if seq is None else seq,
            at=self.now,
        )

    def player(self, bot: str | None = None) -> lc.Player:
        n = next(self.names)
        return lc.Player(f"p{n}", f"Player {n}", bot)


class Table(Sender):
    """One table of ``game`` driven as a worker drives it, checking every accepted command."""

    def __init__(self, game: AnyGame, config: Mapping[str, Any], seed: bytes = b"") -> None:
        TALLY.games.add(game.name)
        self.seed = seed  # each game's secret seed is drawn from it, so examples repeat
        self.game = game
        self.config = dict(config)
        self.state = game.new_table(game.make_config(self.config))
        self.seats = len(game.players(self.state))
        self.find_cards = CardFinder(game.deck)
        self.now = 0
        self.ids = itertools.count(1)
        self.names = itertools.count(1)
        self.batches: list[tuple[int, list[Any]]] = []  # the stored log: (seq, events as JSON)
        self.replayed = game.new_table(game.make_config(self.config))
        self.accepted: list[str] = []
        self.games = 0  # games started at this table
        self.published: list[str] = []  # the spectators' view after each batch of this game
        self.books: Counter[str] = Counter()  # the ledger's accounts, by the game's transfers
        self.books_at_start: Counter[str] = Counter()  # and as the current game began
        self.brought = 0
        self.offered: set[str] = set()  # every game decision offered so far, as JSON text
        self.snapshot: tuple[int, str] | None = None  # batches logged then, the state as JSON
        self.check()

    # Commands.

    def send(self, actor: int | None, action: Any) -> list[Any]:
        """A command the table must accept."""
        command = self.command(actor, action)
        try:
            return self.apply(command)
        except IllegalCommand as error:
            raise AssertionError(f"refused {command}: {error}") from error

    def attempt(self, command: Command[Any]) -> list[Any] | None:
        """A command the table may accept or refuse: the events, or ``None`` if refused."""
        try:
            return self.apply(command)
        except IllegalCommand as error:
            refusal(error)
            return None

    def refuse(self, command: Command[Any]) -> IllegalCommand:
        """A command the table must refuse: with a reason, leaving everything as it was."""
        try:
            self.apply(command)
        except IllegalCommand as error:
            refusal(error)
            return error
        raise AssertionError(f"accepted a wrong command {command} at {self.phase}")

    @property
    def phase(self) -> str:
        return self.game.phase(self.state)

    def apply(self, command: Command[Any]) -> list[Any]:
        g, before = self.game, self.state
        dumped = g.dump_state(before)
        waiting = g.to_act(before)
        try:
            after, events = g.step(before, command)
        except IllegalCommand:
            TALLY.refused += 1
            assert g.dump_state(before) == dumped and before == self.state, "a refusal changed it"
            raise
        assert g.decide(before, command) == events, "step is not decide then evolve"
        decision = self.is_decision(command.action)
        if decision and command.actor is not None:
            offered = [o.action for o in g.legal_actions(before, command.actor) if o.legal]
            assert command.action in offered, f"accepted {command.action}, not offered as legal"
        TALLY.commands += 1
        TALLY.decisions += bool(waiting) and (command.actor in waiting or decision is None)
        if any(getattr(event, "kind", None) == "game_started" for event in events):
            self.books_at_start = Counter(self.books)
        self.book(before, command, events, after)
        stored = [g.dump_event(event) for event in events]
        for event, data in zip(events, stored, strict=True):
            loaded = g.load_event(json.loads(json.dumps(data)))
            assert loaded == event, f"{event} does not survive its codec"
            self.replayed = g.evolve(self.replayed, loaded)
        assert self.replayed == after, "the stored events do not rebuild the state"
        self.state = after
        self.accepted.append(command.action_id)
        self.batches.append((g.seq(after), stored))
        if any(g.checkpoint(event) for event in events):
            self.snapshot = len(self.batches), json.dumps(g.dump_state(after))
        kinds = [data.get("kind") for data in stored]
        if "game_started" in kinds:
            self.games += kinds.count("game_started")
            self.published = []
        self.published.append(g.view_json(g.view_for(after, None)))
        if "game_ended" in kinds:
            ending = before  # the table as the game ended (a batch may go on to close it)
            for event in events[: kinds.index("game_ended") + 1]:
                ending = g.evolve(ending, event)
            self.check_finished(ending)
        self.check()
        return events

    def is_decision(self, action: Any) -> bool | None:
        """Whether ``action`` is one of the game's own decisions (not a table action); ``None``
        for the table's timeout."""
        kind = self.game.dump_action(action).get("kind")
        if kind == "timeout":
            return None
        return kind not in lc.TABLE_ACTION_KINDS

    def book(self, before: Any, command: Command[Any], events: Sequence[Any], after: Any) -> None:
        """Move the chips as the ledger would, and check them against the table."""
        action = command.action
        if isinstance(action, lc.TakeSeat | lc.AddBot):
            self.books[f"wallet:{action.player.id}"] += action.stack
            self.brought += action.stack
        for move in self.game.transfers(before, events):
            assert move.amount > 0 and move.code, f"a transfer of nothing: {move}"
            self.books[move.debit] -= move.amount
            self.books[move.credit] += move.amount
        assert sum(self.books.values()) == self.brought, "chips were made or lost"
        assert self.books["pot"] >= 0 and self.books["carry"] >= 0, f"owed: {self.books}"
        for seat, player in enumerate(self.game.players(after)):
            if player is not None:
                stack = self.game.stacks(after)[seat]
                assert self.books[f"wallet:{player.id}"] == stack, f"seat {seat}'s chips"
        if self.game.phase(after) in OVER:
            assert self.books["pot"] == 0, "a stake stayed in the pot after the game"

    # Checks.

    def check(self) -> None:
        g, s = self.game, self.state
        assert g.load_state(json.loads(json.dumps(g.dump_state(s)))) == s, "the state codec"
        in_play = g.cards_in_play(s)
        assert not in_play or sorted(in_play) == sorted(g.deck), f"cards: {Counter(in_play)}"
        self.check_views(s)
        self.check_decisions(s)

    def check_views(self, s: Any) -> None:
        g = self.game
        public, spliced = g.views_json(s, range(self.seats))
        for reader in (None, *range(self.seats)):
            view = g.view_for(s, reader)
            text = g.view_json(view)
            assert text == (public if reader is None else spliced[reader]), "spliced views"
            data = g.dump_view(view)
            assert json.loads(text) == json.loads(json.dumps(data)), "view_json is dump_view"
            seen = self.find_cards(data)
            allowed = g.visible_cards(s, reader)
            assert seen <= allowed, f"{reader=} at {g.phase(s)} sees {seen - allowed}"
        if g.phase(s) not in OVER:
            self.check_unserved()

    def check_unserved(self) -> None:
        """While a game is on, neither its record nor its replay exists to be served."""
        done = len(self.published)  # commands since the game started
        if not self.games or done & (done - 1):
            return  # both are built from the whole log: check after 1, 2, 4, 8... commands
        events = [data for _, logged in self.batches for data in logged]
        seats = self.seats
        record = build_record("t", events, seats, self.games, self.game.name, self.config)
        assert record is None, "a record served before its game ended"
        replay = build_replay("t", self.game.name, self.config, self.batches, self.games)
        assert replay is None, "a replay served before its game ended"

    def check_decisions(self, s: Any) -> None:
        g = self.game
        waiting = g.to_act(s)
        assert not waiting or g.deadline(s) is not None, "a decision that never times out"
        players = g.players(s)
        dumped: str | None = None
        for seat in waiting:
            assert players[seat] is not None, f"the table waits for the empty seat {seat}"
            options = g.legal_actions(s, seat)
            legal = [o.action for o in options if o.legal]
            assert legal, f"seat {seat} is stuck at {g.phase(s)}"
            default = g.default_action(s, seat)
            assert default in legal, f"the default {default} is not legal"
            for option in options:
                data = g.dump_action(option.action)
                self.offered.add(json.dumps(data, sort_keys=True))
                assert g.load_action(json.loads(json.dumps(data))) == option.action
                if option.legal:
                    continue
                assert option.reason, f"{option.action} is illegal with no reason"
                dumped = dumped or json.dumps(g.dump_state(s))
                try:
                    g.step(s, self.command(seat, option.action))
                except IllegalCommand as error:
                    refusal(error)
                else:
                    raise AssertionError(f"accepted {option.action}, offered as illegal")
                assert json.dumps(g.dump_state(s)) == dumped, "a refusal changed the state"

    def check_rebuilt(self) -> None:
        """The stored log rebuilds the live state, from a new table and, as a worker taking the
        table over does, from the last snapshot and the events logged after it."""
        g = self.game
        rebuilt = g.new_table(g.make_config(self.config))
        for _, logged in self.batches:
            for data in logged:
                rebuilt = g.evolve(rebuilt, g.load_event(data))
        assert rebuilt == self.state, "the stored log does not rebuild the table"
        if self.snapshot is not None:
            taken, text = self.snapshot
            resumed = g.load_state(json.loads(text))
            for _, logged in self.batches[taken:]:
                for data in logged:
                    resumed = g.evolve(resumed, g.load_event(data))
            assert resumed == self.state, "the snapshot and the log after it differ from the table"

    def check_finished(self, ending: Any) -> None:
        """A game just ended (``ending``: the table as it did): its record verifies, its
        results are the table's, and its replay shows what was published."""
        TALLY.finished += 1
        self.check_rebuilt()
        g, events = self.game, [data for _, logged in self.batches for data in logged]
        earlier = [data for _, logged in self.batches[:-1] for data in logged]
        assert build_record("t", earlier, self.seats, self.games, g.name, self.config) is None
        found = build_record("t", events, self.seats, self.games, g.name, self.config)
        assert found is not None, "no record of a finished game"
        self.check_results(found.results, ending)
        data = json.loads(found.data)
        verdict = g.verify_record(data)
        assert verdict.ok, f"the record does not verify: {verdict.mismatch}"
        tampered = self.tamper(data)
        if tampered is not None:
            assert not g.verify_record(tampered).ok, "a record with a card changed verifies"
        text = build_replay("t", g.name, self.config, self.batches, self.games)
        assert text is not None, "no replay of a finished game"
        frames = json.loads(text)["frames"]
        shown = [frame["view"] for frame in frames]
        assert shown == [json.loads(view) for view in self.published], "the replay differs"

    def check_results(self, results: Sequence[PlayerResult], ending: Any) -> None:
        """Everyone seated at the end has their seat's result, once; places start at 1 and
        those who left come last; a player's chips are what their wallet gained or lost over
        the game."""
        seated = {p.id: seat for seat, p in enumerate(self.game.players(ending)) if p}
        stayed = {r.player_id: r for r in results if not r.left}
        assert {r.player_id: r.seat for r in stayed.values()} == seated, "results by seat"
        placed = [r.place for r in results if r.place is not None]
        if placed:
            assert min(placed) == 1 and len(placed) == len(results), f"places: {results}"
            assert all(r.place == max(placed) for r in results if r.left), "a leaver placed"
        for r in stayed.values():
            wallet = f"wallet:{r.player_id}"
            gained = self.books[wallet] - self.books_at_start[wallet]
            assert r.chips is None or r.chips == gained, f"{r.name}'s chips: {r.chips}, {gained}"

    def tamper(self, data: Any) -> Any | None:
        """``data`` with its first card replaced by another card, or ``None`` if it has none."""
        text = json.dumps(data)
        for code in self.game.deck:
            quoted = json.dumps(code)
            if quoted in text:
                other = next(c for c in self.game.deck if c != code)
                return json.loads(text.replace(quoted, json.dumps(other), 1))
        return None

    # Whole moves.

    def seat_everyone(self, bots: Sequence[bool] = ()) -> None:
        """Fill every seat (a bot where ``bots`` says, seated by the host) and start a game."""
        for seat in range(self.seats):
            player = self.game.players(self.state)[seat]
            if player is not None:
                continue
            host = self.host()
            if seat < len(bots) and bots[seat] and host is not None:
                self.send(host, lc.AddBot(seat, self.player("easy"), STACK))
            else:
                self.send(TABLE, lc.TakeSeat(seat, self.player(), STACK))
        self.send(self.host(), lc.StartGame(self.next_seed()))

    def next_seed(self) -> str:
        return hashlib.sha256(self.seed + str(next(self.ids)).encode()).hexdigest()

    def host(self) -> int | None:
        """The host, found by who may end the game: the first seated player the dumped view
        names as host."""
        host = self.game.dump_view(self.game.view_for(self.state, None)).get("host")
        return host if isinstance(host, int) else None

    def decide(self, pick: int) -> bool:
        """One legal decision of a seat the table waits for; ``False`` if it waits for none."""
        waiting = self.game.to_act(self.state)
        if not waiting:
            return False
        seat = waiting[pick % len(waiting)]
        legal = [o.action for o in self.game.legal_actions(self.state, seat) if o.legal]
        self.now += pick % 3_000
        self.send(seat, legal[(pick >> 3) % len(legal)])
        return True

    def wake(self) -> bool:
        """What a worker does when the table's timer fires: decide a timeout, or close the table
        left unattended; ``False`` when it has nothing to wake for."""
        g, s = self.game, self.state
        deadline = g.deadline(s)
        since = g.unattended_since(s)
        closing = None if since is None else since + ABANDON_MS
        times = [t for t in (deadline, closing) if t is not None]
        if not times:
            return False
        self.now = max(self.now, min(times))
        if deadline is not None and self.now >= deadline:
            self.apply(g.timeout(s, f"timeout:{g.seq(s)}", self.now))
        else:
            self.send(TABLE, lc.CloseTable(ABANDON_MS))
        return True


class ConformanceMachine(RuleBasedStateMachine):
    """A table of ``game`` under random legal play and a stream of wrong commands, timeouts,
    seats coming and going and games ended and restarted; a closed table is replaced."""

    game: ClassVar[AnyGame]

    def __init__(self) -> None:
        super().__init__()
        TALLY.examples += 1
        self.config: Mapping[str, Any] = {}
        self.bots: Sequence[bool] = ()
        self.seed = b""
        self.opened = 0

    @initialize(
        index=st.integers(0, 99),
        bots=st.lists(st.booleans(), min_size=8, max_size=8),
        seed=st.binary(min_size=8, max_size=8),
    )
    def open_table(self, index: int, bots: list[bool], seed: bytes) -> None:
        samples = self.game.sample_settings
        self.config, self.bots, self.seed = samples[index % len(samples)], bots, seed
        self.open()

    def open(self) -> None:
        self.table = Table(self.game, self.config, self.seed + bytes([self.opened]))
        self.opened += 1
        self.table.seat_everyone(self.bots)

    def teardown(self) -> None:
        if hasattr(self, "table"):
            self.table.check_rebuilt()

    def reopen_if_closed(self) -> None:
        if self.table.phase == "closed":
            closed = self.table
            closed.refuse(closed.command(TABLE, lc.TakeSeat(0, closed.player(), STACK)))
            closed.check_rebuilt()
            self.open()

    @precondition(lambda self: bool(self.table.game.to_act(self.table.state)))
    @rule(picks=st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=40))
    def play(self, picks: list[int]) -> None:
        for pick in picks:
            if not self.table.decide(pick):
                break
        self.reopen_if_closed()

    @precondition(lambda self: self.table.game.deadline(self.table.state) is not None)
    @rule(late=st.integers(0, 5_000))
    def time_out(self, late: int) -> None:
        t = self.table
        deadline = t.game.deadline(t.state)
        assert deadline is not None
        early = t.command(TABLE, t.game.timeout(t.state, "early", deadline - 1).action)
        if t.now < deadline:
            t.refuse(early)
        t.now = max(t.now, deadline) + late
        t.send(TABLE, t.game.timeout(t.state, f"timeout:{t.game.seq(t.state)}", t.now).action)
        self.reopen_if_closed()

    @rule(
        kind=st.sampled_from(("other_seat", "table", "ahead", "duplicate", "bad_seat", "offered")),
        pick=st.integers(0, 2**16 - 1),
    )
    def wrong_command(self, kind: str, pick: int) -> None:
        """A command that must be refused, or (``offered``: any decision offered so far, sent by
        anyone) accepted only if legal for its actor now."""
        t, g = self.table, self.table.game
        waiting = g.to_act(t.state)
        seat = waiting[pick % len(waiting)] if waiting else None
        options = g.legal_actions(t.state, seat) if seat is not None else []
        legal = [o.action for o in options if o.legal]
        offered = sorted(t.offered)
        some = legal[pick % len(legal)] if legal else None
        if some is None and offered:
            some = g.load_action(json.loads(offered[pick % len(offered)]))
        if some is None:
            return
        if kind == "other_seat":
            others = [s for s in range(t.seats) if s not in waiting]
            if others:
                t.refuse(t.command(others[pick % len(others)], some))
        elif kind == "table":
            t.refuse(t.command(TABLE, some))
        elif kind == "ahead":
            t.refuse(t.command(seat, some, seq=g.seq(t.state) + 1 + pick % 5))
        elif kind == "duplicate" and t.accepted and seat is not None:
            t.refuse(t.command(seat, some, action_id=t.accepted[-1]))
        elif kind == "bad_seat":
            t.refuse(t.command(t.seats + pick % 3, some))
        elif kind == "offered" and offered:
            actor = [*range(t.seats), None][pick % (t.seats + 1)]
            action = g.load_action(json.loads(offered[(pick >> 4) % len(offered)]))
            t.attempt(t.command(actor, action))  # checked against the legal options in apply
            self.reopen_if_closed()

    @rule(
        kind=st.sampled_from(
            ("sit_out", "connect", "leave", "take_seat", "add_bot", "end", "start", "host")
        ),
        seat=st.integers(0, 7),
        flag=st.booleans(),
        late=st.integers(0, 60_000),
    )
    def lifecycle(self, kind: str, seat: int, flag: bool, late: int) -> None:
        """A table action, accepted or refused with a reason."""
        t = self.table
        seat %= t.seats
        host = t.host()
        t.now += late
        action: Any
        actor: int | None = seat
        if kind == "sit_out":
            action = lc.SitOut(flag)
        elif kind == "connect":
            action, actor = lc.SetConnected(seat, flag), TABLE
        elif kind == "leave":
            action = lc.Leave()
        elif kind == "take_seat":
            action, actor = lc.TakeSeat(seat, t.player(), STACK), TABLE
        elif kind == "add_bot":
            actor = host if flag else TABLE  # the table seats a bot where one left
            action = lc.AddBot(seat, t.player("easy"), STACK)
        elif kind == "end":
            action, actor = lc.EndGame(), host if flag else seat
        elif kind == "start":
            action, actor = lc.StartGame(t.next_seed()), host if flag else seat
        else:
            action, actor = lc.HandOverHost(seat), host
        t.attempt(t.command(actor, action))
        self.reopen_if_closed()

    @rule(late=st.integers(0, 10_000))
    def abandon(self, late: int) -> None:
        t = self.table
        since = t.game.unattended_since(t.state)
        if since is not None:
            t.now = max(t.now, since + ABANDON_MS + late)
        t.attempt(t.command(TABLE, lc.CloseTable(ABANDON_MS)))
        self.reopen_if_closed()


def machine_for(game: AnyGame) -> type[ConformanceMachine]:
    """The state machine of ``game``."""
    return type(
        f"{game.name.title().replace('-', '')}Conformance", (ConformanceMachine,), {"game": game}
    )


def run_machine(game: AnyGame, using: settings | None = None) -> None:
    """Run ``game``'s state machine for as many examples as the settings say."""
    started = time.perf_counter()
    try:
        run_state_machine_as_test(machine_for(game), settings=using or profile())
    finally:
        TALLY.seconds += time.perf_counter() - started


def abandoned_table_ends(
    game: AnyGame,
    config: Mapping[str, Any],
    picks: Sequence[int],
    seed: bytes = b"",
    stay_connected: bool = False,
) -> None:
    """Play ``picks`` legal decisions, then every person stops answering, their clients gone
    or, with ``stay_connected``, left open: the table, left to its timers as a worker runs it,
    ends its game or closes, with every check passing on the way. (Swick, a run of pots, has
    no end of its own: its table closes as abandoned.)"""
    TALLY.examples += 1
    table = Table(game, config, seed)
    table.seat_everyone()
    for pick in picks:
        if not table.decide(pick):
            break
    for seat, player in enumerate(game.players(table.state)):
        if player is not None and player.bot is None and not stay_connected:
            table.attempt(table.command(TABLE, lc.SetConnected(seat, False)))
    for _ in range(MOST_COMMANDS):
        if table.phase in OVER or not table.wake():
            break
    assert table.phase in OVER, f"the table is left at {table.phase}, its game unfinished"
    table.check_rebuilt()


def run_abandoned(game: AnyGame, using: settings | None = None) -> None:
    """Run ``abandoned_table_ends`` over ``game``'s sample settings and random play."""
    samples = game.sample_settings

    @(using or profile())
    @given(
        index=st.integers(0, len(samples) - 1),
        picks=st.lists(st.integers(0, 2**16 - 1), max_size=60),
        seed=st.binary(min_size=8, max_size=8),
        stay_connected=st.booleans(),
    )
    def abandoned(index: int, picks: list[int], seed: bytes, stay_connected: bool) -> None:
        abandoned_table_ends(game, samples[index], picks, seed, stay_connected)

    started = time.perf_counter()
    try:
        abandoned()
    finally:
        TALLY.seconds += time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="print how much was checked")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args(argv)
    using = settings(profile(), database=None)
    for name in args.game or sorted(GAMES):
        game = GAMES[name]
        run_machine(game, using)
        run_abandoned(game, using)
    if args.report:
        print(TALLY.line())


if __name__ == "__main__":
    main()
