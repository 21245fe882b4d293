"""The ``hard`` Euchre bot: determinized sampling with the pure engine.

For each decision it deals the cards it cannot see at random, consistently with what it has
seen (its own hand, the cards played, the turn-up where it lies, the suits a seat showed it
has none of), then plays each of its options on to the end of the hand with the ``medium``
rules of thumb for every seat, and takes the option whose hands scored best for its side over
all the worlds. The budget is a number of worlds, so with the same seed a decision is the same
on any machine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from services.bots.budget import EUCHRE_WORLDS
from services.bots.engine_playout import Engine, play_out
from services.bots.euchre import heuristics
from services.bots.euchre.knowledge import from_state, from_view
from services.bots.world_table import world_table
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK, effective_suit
from shared.games.euchre.game import EUCHRE
from shared.games.euchre.state import Phase, State, team_of
from shared.games.euchre.views import EuchreView

WORLDS = EUCHRE_WORLDS
PLAYOUT_LIMIT = 40  # a hand takes at most 8 calls, a discard and 20 cards
SAMPLING_TRIES = 30
SEARCHED = frozenset({Phase.ORDER, Phase.NAME, Phase.DISCARD, Phase.TRICKS})
HEURISTIC_EDGE = 1e-6  # ties go to the rules of thumb's own choice


class Search:
    def __init__(self, rng: random.Random, worlds: int = WORLDS) -> None:
        self.rng = rng
        self.worlds = worlds

    def choose(self, view: EuchreView, legal: Sequence[ac.Action]) -> ac.Action:
        assert view.seat is not None
        hint = heuristics.choose(from_view(view), legal)
        if len(legal) == 1 or view.phase not in SEARCHED:
            return hint
        totals: dict[int, float] = defaultdict(float)
        totals[legal.index(hint)] += HEURISTIC_EDGE
        for _ in range(self.worlds):
            world = sample_world(view, self.rng)
            for index, action in enumerate(legal):
                totals[index] += playout(world, view.seat, action)
        return legal[max(range(len(legal)), key=lambda i: totals[i])]


def playout(world: State, seat: int, action: ac.Action) -> float:
    """The hand's points for ``seat``'s side less the other side's, if ``seat`` takes
    ``action`` in ``world`` and every seat plays on by the rules of thumb."""
    return play_out(ENGINE, world, seat, action)


def _paid(event: ev.Event, seat: int) -> float | None:
    if not isinstance(event, ev.HandScored):
        return None
    points = event.result.points
    return float(points[team_of(seat)] - points[1 - team_of(seat)])


ENGINE = Engine(EUCHRE, from_state, heuristics.choose, _paid, PLAYOUT_LIMIT)


def voids(view: EuchreView) -> list[set[int]]:
    """The suits each seat showed it has none of, by not following."""
    found: list[set[int]] = [set() for _ in view.seats]
    trump = view.trump
    if trump is None:
        return found
    for trick in (*view.played, view.trick):
        if not trick:
            continue
        led = effective_suit(trick[0][1], trump)
        for seat, card in trick[1:]:
            if effective_suit(card, trump) != led:
                found[seat].add(led)
    return found


def sample_world(view: EuchreView, rng: random.Random) -> State:
    """A full state consistent with ``view``: what the seat cannot see, dealt at random.

    The turn-up is public: on the kitty it is no one's; taken, the dealer holds it until it is
    played (a dealer rarely discards the card they picked up, so the worlds assume they kept it).
    """
    seat, dealer = view.seat, view.dealer
    assert seat is not None and dealer is not None
    played = {card for trick in (*view.played, view.trick) for _, card in trick}
    known = set(view.hand) | played | set(view.discarded)
    if view.turn_up is not None:
        known.add(view.turn_up)
    pool = [card for card in DECK if card not in known]
    taken_by_other = (
        view.turn_up is not None
        and view.turn_up_at == "taken"
        and dealer != seat
        and view.turn_up not in played
    )
    # A dealer left with no card who never played the turn-up can only have discarded it.
    dealer_keeps = taken_by_other and view.seats[dealer].cards > 0
    discarded_turn_up = taken_by_other and not dealer_keeps
    hidden_discard = (
        view.turn_up_at == "taken" and not view.discarded and view.phase is not (Phase.DISCARD)
    )
    seen_voids = voids(view)
    trump = view.trump
    # The seats that showed the most voids are dealt first, each only cards it may hold; when
    # the cards left cannot fit (rare), the deal starts again, and at last ignores the voids.
    order = sorted(
        (other for other in range(len(view.seats)) if other != seat),
        key=lambda other: -len(seen_voids[other]),
    )
    hands: list[tuple[int, ...]] = [()] * len(view.seats)
    rest: list[int] = []
    for attempt in range(SAMPLING_TRIES + 1):
        rng.shuffle(pool)
        rest = list(pool)
        strict = attempt < SAMPLING_TRIES and trump is not None
        fitted = True
        for other in order:
            keeps = other == dealer and dealer_keeps
            wanted = view.seats[other].cards - keeps
            lacks = seen_voids[other] if strict else set()
            fits = [c for c in rest if trump is None or effective_suit(c, trump) not in lacks]
            if len(fits) < wanted:
                fitted = False
                break
            drawn = fits[:wanted]
            rest = [card for card in rest if card not in drawn]
            if keeps:
                assert view.turn_up is not None
                drawn.append(view.turn_up)
            hands[other] = tuple(drawn)
        if fitted:
            break
    hands[seat] = view.hand
    discard = view.discarded[0] if view.discarded else None
    if discarded_turn_up:
        discard = view.turn_up
    elif hidden_discard:
        discard = rest.pop()
    return _state(view, tuple(hands), tuple(rest[:3]), discard, rng)


def _state(
    view: EuchreView,
    hands: tuple[tuple[int, ...], ...],
    kitty: tuple[int, ...],
    discard: int | None,
    rng: random.Random,
) -> State:
    return State(
        config=view.config,
        **world_table(view, rng),
        stacks=(0,) * len(view.seats),
        fingerprint=view.fingerprint,
        hand_no=view.hand_no,
        button=view.dealer,
        dealer=view.dealer,
        phase=view.phase,
        scores=view.scores,
        hands=hands,
        turn_up=view.turn_up,
        turn_up_at=view.turn_up_at,
        kitty=kitty,
        discard=discard,
        calls=view.calls,
        trump=view.trump,
        maker=view.maker,
        alone=view.alone,
        resting=view.resting,
        turn=view.to_act[0] if view.to_act else None,
        trick=view.trick,
        played=view.played,
        winners=view.winners,
        result=view.result,
    )
