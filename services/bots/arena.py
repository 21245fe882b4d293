"""``swick arena``: strategies play each other in-process with the pure engine.

Seats rotate every hand, so that over every ``n * n`` hands at ``n`` seats each strategy plays
every seat, and deals, equally often. For each strategy the arena reports the mean cents won
per hand with a 95% confidence interval, and for each pair of different strategies the mean
difference per hand with its interval (from the per-hand differences, so the luck of the deal
that both share cancels out).

Duplicate (``play_duplicate``): each deal is played ``n`` times from the same fresh table, the
strategies seated one seat further round each time, so every strategy holds every seat's cards
(and deals) once per deal and the luck of the cards cancels out. The figures are then per deal:
each strategy's mean over its seats and seatings, and each pair's difference.

The same seed gives the same result on any machine, loaded or not: hard bots search a number
of worlds with no wall-clock cap (the effort they spent is reported beside the figures).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial

from services.benchmarks.engine import seated_table
from services.bots.levels import LEVELS, Hard
from services.bots.search import Effort
from services.bots.strategy import Strategy, named_strategy
from services.progress import SILENT, Progress
from shared.games.interface import Command
from shared.games.swick.decide import step
from shared.games.swick.events import Event, HandSettled
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import BETWEEN_HANDS, State
from shared.games.swick.views import view_for

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Interval:
        mean = statistics.fmean(samples)
        half = (
            Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
            if len(samples) > 1
            else math.inf
        )
        return cls(mean, mean - half, mean + half)

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class ArenaResult:
    names: tuple[str, ...]
    hands: int
    seconds: float
    cpu_seconds: float
    per_strategy: dict[str, Interval]
    differences: dict[str, Interval]  # "a - b"
    search: Effort  # what the hard bots' searches did, all of them together
    duplicate: bool = False  # every deal played once a seating: the samples are deals

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds


def lineup(
    names: Sequence[str],
    seed: int,
    *,
    hard_worlds: int,
    hard_cap_ms: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Strategy]:
    """The strategies named (``easy``, ``medium``, ``hard`` or ``package.module:Class``), each
    with its own generator drawn from ``seed``; hard bots search ``hard_worlds`` worlds, with
    ``hard_cap_ms`` as their wall-clock cap (none by default) measured by ``clock``."""
    rng = random.Random(seed)
    hard = partial(Hard, worlds=hard_worlds, cap_ms=hard_cap_ms, clock=clock)
    return [named_strategy(name, random.Random(rng.random()), LEVELS, hard) for name in names]


def play(
    names: Sequence[str],
    strategies: Sequence[Strategy],
    hands: int,
    seed: int,
    progress: Progress = SILENT,
) -> ArenaResult:
    """Play ``hands`` hands with ``strategies[i]`` rotating through the seats."""
    n = len(strategies)
    progress.stage(", ".join(names), hands)
    state = seated_table(n, seed=seed)
    won: dict[str, list[float]] = {name: [] for name in set(names)}
    per_hand: list[dict[str, float]] = []
    played = commands = 0
    started, started_cpu = time.perf_counter(), time.process_time()
    while played < hands:
        pending = to_act(state)
        if not pending:  # set money grew past the stacks: the table waits; deal a fresh one
            state = seated_table(n, seed=seed + played)
            continue
        seat = pending[0]
        hand_no = state.hand_no + (state.phase in BETWEEN_HANDS)  # the hand being played
        state, events = take_turn(state, seat, strategies[sitter(seat, hand_no, n)], commands)
        commands += 1
        for event in events:
            if isinstance(event, HandSettled):
                hand: dict[str, list[float]] = {}
                for s, delta in enumerate(event.result.delta):
                    name = names[sitter(s, event.result.hand_no, n)]
                    hand.setdefault(name, []).append(delta)
                for name, deltas in hand.items():
                    won[name].extend(deltas)
                per_hand.append({name: statistics.fmean(d) for name, d in hand.items()})
                played += 1
                progress.advance()
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - started_cpu
    return _result(names, strategies, played, seconds, cpu_seconds, won, per_hand)


def sitter(seat: int, hand_no: int, n: int) -> int:
    """The strategy that sits at ``seat`` in hand ``hand_no`` of ``n`` seats.

    The dealer moves one seat each hand, so a plain rotation (``seat + hand_no``) would seat
    only every other strategy at the dealer's place at 4 and 6 seats. Moving the strategies one
    seat back each hand keeps the same strategy dealing for ``n`` hands, and one more seat each
    ``n`` hands gives the deal to the next: over ``n * n`` hands every strategy plays every
    seat, and deals, ``n`` times."""
    return (seat - hand_no + hand_no // n) % n


def play_duplicate(
    names: Sequence[str],
    strategies: Sequence[Strategy],
    deals: int,
    seed: int,
    progress: Progress = SILENT,
) -> ArenaResult:
    """Play ``deals`` deals, each from a fresh table with the same seed ``n`` times, with
    ``strategies[(seat + r) % n]`` at each seat in the ``r``-th seating."""
    n = len(strategies)
    progress.stage(f"{', '.join(names)} (duplicate)", deals)
    rotations = [[(seat + rotation) % n for seat in range(n)] for rotation in range(n)]
    played = play_deals(
        names,
        rotations,
        deals,
        seed,
        lambda seating, deal_seed: play_one_hand(strategies, seating, deal_seed),
        progress,
    )
    result = _result(
        names,
        strategies,
        deals * n,
        played.seconds,
        played.cpu_seconds,
        played.won,
        played.per_deal,
    )
    return replace(result, duplicate=True)


def play_one_hand(
    strategies: Sequence[Strategy], seating: Sequence[int], seed: int
) -> tuple[int, ...]:
    """What the first hand of a fresh table seeded ``seed`` paid each seat, with
    ``strategies[seating[seat]]`` deciding for ``seat``."""
    state = seated_table(len(seating), seed=seed)
    commands = 0
    while True:
        seat = to_act(state)[0]
        state, events = take_turn(state, seat, strategies[seating[seat]], commands)
        commands += 1
        for event in events:
            if isinstance(event, HandSettled):
                return event.result.delta


def take_turn(
    state: State, seat: int, strategy: Strategy, commands: int
) -> tuple[State, list[Event]]:
    """``strategy``'s decision for ``seat``, taken as the table's command number ``commands``
    (the one legal action without asking)."""
    legal = [o.action for o in legal_actions(state, seat) if o.legal]
    action = legal[0] if len(legal) == 1 else strategy.choose(view_for(state, seat), legal)
    return step(state, Command(actor=seat, action=action, action_id=f"a{commands}", seq=state.seq))


@dataclass(frozen=True, slots=True)
class Deals:
    """What each strategy got in duplicate deals: its mean over its seats and seatings."""

    won: dict[str, list[float]]  # per strategy, one mean a deal
    per_deal: list[dict[str, float]]  # per deal, every strategy's mean
    seconds: float
    cpu_seconds: float


def play_deals(
    names: Sequence[str],
    seatings: Sequence[Sequence[int]],
    deals: int,
    seed: int,
    play_seating: Callable[[Sequence[int], int], Sequence[float]],
    progress: Progress,
) -> Deals:
    """Play ``deals`` deals, their seeds drawn from ``seed``, each at every seating (the
    lineup's index at each seat): ``play_seating(seating, deal_seed)`` is what each seat got."""
    won: dict[str, list[float]] = {name: [] for name in names}
    per_deal: list[dict[str, float]] = []
    rng = random.Random(seed)
    started, started_cpu = time.perf_counter(), time.process_time()
    for _ in range(deals):
        deal_seed = rng.randrange(1, 2**62)
        deal: dict[str, list[float]] = {}
        for seating in seatings:
            for seat, got in enumerate(play_seating(seating, deal_seed)):
                deal.setdefault(names[seating[seat]], []).append(got)
        means = {name: statistics.fmean(got) for name, got in deal.items()}
        for name, mean in means.items():
            won[name].append(mean)
        per_deal.append(means)
        progress.advance()
    return Deals(won, per_deal, time.perf_counter() - started, time.process_time() - started_cpu)


def differences(
    names: Sequence[str], samples: Sequence[Mapping[str, float]]
) -> dict[str, Interval]:
    """Each pair of ``names``' difference ``"a - b"`` over the samples (a hand or a deal)."""
    return {
        f"{a} - {b}": Interval.of([sample[a] - sample[b] for sample in samples])
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    }


def _result(
    names: Sequence[str],
    strategies: Sequence[Strategy],
    hands: int,
    seconds: float,
    cpu_seconds: float,
    won: dict[str, list[float]],
    samples: Sequence[dict[str, float]],
) -> ArenaResult:
    unique = sorted(set(names), key=names.index)
    efforts = [s.search.effort for s in strategies if isinstance(s, Hard)]
    search = Effort(
        decisions=sum(e.decisions for e in efforts),
        worlds=sum(e.worlds for e in efforts),
        capped=sum(e.capped for e in efforts),
    )
    return ArenaResult(
        tuple(names),
        hands,
        seconds,
        cpu_seconds,
        {name: Interval.of(won[name]) for name in unique},
        differences(unique, samples),
        search,
    )


def report(result: ArenaResult) -> dict[str, object]:
    return {
        "game": "swick",
        "seats": list(result.names),
        "hands": result.hands,
        "duplicate": result.duplicate,
        "deals": result.hands // len(result.names) if result.duplicate else None,
        "seconds": result.seconds,
        "cpu_seconds": result.cpu_seconds,
        "hands_per_second": result.hands_per_second,
        "cents_per_hand": {name: i.to_json() for name, i in result.per_strategy.items()},
        "differences": {pair: i.to_json() for pair, i in result.differences.items()},
        "hard_search": asdict(result.search),
    }


def describe(result: ArenaResult) -> str:
    deals = f", {result.hands // len(result.names):,} deals each played at every seating" * (
        result.duplicate
    )
    lines = [
        f"{result.hands:,} hands of {', '.join(result.names)}{deals} "
        f"({result.hands_per_second:,.0f} hands/s; {result.seconds:.1f} s, "
        f"{result.cpu_seconds:.1f} s of CPU)"
    ]
    for name, i in result.per_strategy.items():
        lines.append(f"  {name:>8}: {i.mean:+7.2f} ¢/hand  (95% CI {i.low:+.2f} to {i.high:+.2f})")
    for pair, i in result.differences.items():
        verdict = "significant" if i.excludes_zero() else "not significant"
        lines.append(
            f"  {pair}: {i.mean:+.2f} ¢/hand  (95% CI {i.low:+.2f} to {i.high:+.2f}, {verdict})"
        )
    search = result.search
    if search.decisions:
        lines.append(
            f"  hard bots searched {search.decisions:,} decisions, {search.worlds:,} worlds"
            f" ({search.worlds / search.decisions:.1f} a decision)"
            + (
                f"; the wall-clock cap cut {search.capped:,} short: NOT REPRODUCIBLE"
                if search.capped
                else ""
            )
        )
    return "\n".join(lines)
