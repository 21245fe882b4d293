"""``swick bench engine``: random legal hands on one core, as fast as the engine goes: Swick's
(``run``, at 3 and 6 seats) or another game's through its ``GameModule`` (``run_game``:
``--game euchre``, ``--game contract-whist``)."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import asdict, dataclass

from services.progress import SILENT, Progress
from shared.games.interface import Command
from shared.games.lifecycle import Player, StartGame, TakeSeat
from shared.games.registry import game as game_module
from shared.games.swick.actions import Action
from shared.games.swick.codec import CODEC
from shared.games.swick.decide import step
from shared.games.swick.events import HandSettled
from shared.games.swick.legal import READY, legal_actions, to_act
from shared.games.swick.state import Phase, State, TableConfig, new_table
from shared.games.swick.views import view_for

VIEWS_EVERY = 10  # commands between two measurements of the views

BENCH_SEED = bytes(range(32)).hex()


@dataclass(frozen=True, slots=True)
class EngineFigures:
    seats: int
    hands: int
    commands: int
    seconds: float
    cpu_seconds: float  # of this process: the engine's cost, whatever else the machine does
    hands_per_second: float
    step_microseconds: float  # mean time of one decide + evolve
    # What a command publishes, the spectators' view and every seat's, as JSON text:
    views_microseconds: float  # each view built and encoded on its own
    spliced_microseconds: float  # the public part built and encoded once (what tables do)
    game: str = "swick"
    commands_per_second: float = 0.0
    view_microseconds: float = 0.0  # one seat's view, built and encoded


# The event that ends a hand (a round) of each game besides Swick, by its class name.
HAND_ENDS = {"euchre": "HandScored", "contract-whist": "RoundScored"}


def run_figures(
    game: str,
    seats: int,
    played: int,
    commands: int,
    started: tuple[float, float],
    in_step: float,
    in_views: float,
    in_spliced: float,
    measured: int,
) -> EngineFigures:
    """A run's figures, now that it is over: it ``started`` at (``perf_counter``,
    ``process_time``), played ``commands`` in ``in_step`` seconds, and measured its views
    ``measured`` times."""
    seconds = time.perf_counter() - started[0]
    cpu_seconds = time.process_time() - started[1]
    views = max(measured, 1)
    return EngineFigures(
        seats,
        played,
        commands,
        seconds,
        cpu_seconds,
        played / seconds,
        in_step / commands * 1e6,
        in_views / views * 1e6,
        in_spliced / views * 1e6,
        game,
        commands / seconds,
        in_views / views / (seats + 1) * 1e6,
    )


def seated_table(seats: int, stack: int = 10**12, seed: int = 0) -> State:
    """A started game with ``seats`` players who can afford any hand; ``seed`` picks the
    game's shuffle seed."""
    state = new_table(TableConfig(seats=seats, timer_ms=None, private=True))
    for seat in range(seats):
        player = Player(f"bench-{seat}", f"Bench {seat + 1}")
        state, _ = step(
            state,
            Command(
                actor=None,
                action=TakeSeat(seat, player, stack),
                action_id=f"seat-{seat}",
                seq=state.seq,
            ),
        )
    state, _ = step(
        state,
        Command(
            actor=0,
            action=StartGame(BENCH_SEED if not seed else random.Random(seed).randbytes(32).hex()),
            action_id="start",
            seq=state.seq,
        ),
    )
    return state


def run(seats: int, hands: int, seed: int = 1, progress: Progress = SILENT) -> EngineFigures:
    """Play ``hands`` hands: everyone readies up; every other decision is a uniform choice
    among the legal options of the seat to act."""
    progress.stage(f"{seats} seats", hands)
    rng = random.Random(seed)
    state = seated_table(seats)
    clock = time.perf_counter
    played = commands = 0
    in_step = in_views = in_spliced = 0.0
    measured = 0
    started = clock(), time.process_time()
    while played < hands:
        pending = to_act(state)
        if not pending:  # set money grew past the stacks: the table waits; deal a fresh one
            state = seated_table(seats)
            continue
        seat = pending[0]
        if state.phase is Phase.READY:
            action: Action = READY  # everyone always plays: no need to list the options
        else:
            action = rng.choice([o.action for o in legal_actions(state, seat) if o.legal])
        command = Command(actor=seat, action=action, action_id=f"c{commands}", seq=state.seq)
        before = clock()
        state, events = step(state, command)
        in_step += clock() - before
        commands += 1
        if commands % VIEWS_EVERY == 0:
            measured += 1
            before = clock()
            CODEC.view_json(view_for(state, None))
            for view_seat in range(seats):
                CODEC.view_json(view_for(state, view_seat))
            in_views += clock() - before
            before = clock()
            CODEC.views_json(state, range(seats))
            in_spliced += clock() - before
        if any(type(event) is HandSettled for event in events):
            played += 1
            progress.advance()
    return run_figures(
        "swick", seats, played, commands, started, in_step, in_views, in_spliced, measured
    )


def run_game(name: str, hands: int, seed: int = 1, progress: Progress = SILENT) -> EngineFigures:
    """Play ``hands`` hands of the game ``name`` (at its default seats, for points, with no
    timer) through its ``GameModule``: every decision a uniform choice among the legal options
    of the seat to act; a game that ends is followed by the next one."""
    g = game_module(name)
    seats = int(g.form.defaults["seats"])
    hand_end = HAND_ENDS[name]
    progress.stage(f"{name}, {seats} seats", hands)
    rng = random.Random(seed)
    config = g.make_config({"timer_ms": None, "private": True, "seats": seats})
    state = g.new_table(config)
    table_ids = itertools.count()

    def command(actor: int | None, action: object) -> None:
        """A command of the table's own (seating, starting a game), outside the figures."""
        nonlocal state
        request = Command(
            actor=actor, action=action, action_id=f"t{next(table_ids)}", seq=g.seq(state)
        )
        state, _ = g.step(state, request)

    for seat in range(seats):
        command(None, TakeSeat(seat, Player(f"bench-{seat}", f"Bench {seat + 1}"), 0))
    command(0, StartGame(BENCH_SEED))
    clock = time.perf_counter
    played = commands = games = 0
    in_step = in_views = in_spliced = 0.0
    measured = 0
    started = clock(), time.process_time()
    while played < hands:
        pending = g.to_act(state)
        if not pending:  # the game ended: the host starts the next one
            games += 1
            command(0, StartGame(random.Random(games).randbytes(32).hex()))
            continue
        seat = pending[0]
        action = rng.choice([o.action for o in g.legal_actions(state, seat) if o.legal])
        request = Command(actor=seat, action=action, action_id=f"c{commands}", seq=g.seq(state))
        before = clock()
        state, events = g.step(state, request)
        in_step += clock() - before
        commands += 1
        if commands % VIEWS_EVERY == 0:
            measured += 1
            before = clock()
            g.view_json(g.view_for(state, None))
            for view_seat in range(seats):
                g.view_json(g.view_for(state, view_seat))
            in_views += clock() - before
            before = clock()
            g.views_json(state, range(seats))
            in_spliced += clock() - before
        ended = sum(type(event).__name__ == hand_end for event in events)
        if ended:
            played += ended
            progress.advance(ended)
    return run_figures(
        name, seats, played, commands, started, in_step, in_views, in_spliced, measured
    )


def report(figures: list[EngineFigures]) -> dict[str, object]:
    return {"benchmark": "engine", "runs": [asdict(f) for f in figures]}


def describe(f: EngineFigures) -> str:
    game = "" if f.game == "swick" else f"{f.game}, "
    return (
        f"{game}{f.seats} seats: {f.hands_per_second:,.0f} hands/s, "
        f"{f.commands_per_second:,.0f} commands/s "
        f"({f.hands:,} hands, {f.commands:,} commands in {f.seconds:.2f} s, "
        f"{f.cpu_seconds:.2f} s of CPU); "
        f"decide+evolve {f.step_microseconds:.1f} µs mean; a view {f.view_microseconds:.0f} µs; "
        f"every view of a command {f.views_microseconds:.0f} µs one by one, "
        f"{f.spliced_microseconds:.0f} µs spliced"
    )
