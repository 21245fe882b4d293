"""The ``hard`` bot: determinized Monte Carlo search over the pure engine.

For each decision it repeatedly samples a *world*: the cards it cannot see dealt at random to
the other hands, the stock and the discards, keeping to what its view shows for certain (card
counts; its own discards, which no other hand holds unless a later draw recycled them; and what
the rules of play reveal: see ``forbidden``). In each world it tries every legal
action, plays the hand out with the medium heuristics for everyone, and scores the action by
what the hand paid its seat. The best average wins. The same worlds serve every action, so the
comparison is fair.

The budget is a number of worlds per decision, and every random draw comes from the bot's own
generator: a bot seeded alike decides alike, however fast or loaded the machine. A wall-clock
cap is only a safety net for live tables (a decision it cuts short is counted in ``effort``);
the arena runs without it, so that its results are reproducible.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.bots import heuristics
from services.bots.knowledge import from_state, from_view
from shared.games.interface import Command
from shared.games.swick import actions as ac
from shared.games.swick.cards import ACE, DECK, Card, is_face
from shared.games.swick.decide import step
from shared.games.swick.events import HandSettled
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import NOT_SET, Phase, SetKind, State
from shared.games.swick.views import SwickView

PLAYOUT_LIMIT = 60
SAMPLING_TRIES = 30
# What a discarded card may have been worth to its player's knock (``heuristics.card_value``).
DISCARD_WORTH = 0.5
QUICK = frozenset({Phase.ANTE, Phase.READY})


MIN_WORLDS = 2  # even when the cap cuts a search short: one world is a coin toss


@dataclass(slots=True)
class Effort:
    """What the searches of one bot have done so far."""

    decisions: int = 0  # decisions searched (not those the heuristics take alone)
    worlds: int = 0  # worlds sampled over all of them
    capped: int = 0  # decisions the wall-clock cap cut short


class Search:
    def __init__(
        self,
        rng: random.Random,
        worlds: int,
        cap_ms: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``worlds`` sampled per decision; ``cap_ms``: the wall-clock safety cap (none: the
        worlds alone decide, as in the arena), measured by ``clock``."""
        self.rng = rng
        self.worlds = worlds
        self.cap = None if cap_ms is None else cap_ms / 1000
        self.clock = clock
        self.effort = Effort()

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        if len(legal) == 1 or view.phase in QUICK or view.phase is Phase.TRUMP:
            # Nothing to weigh, or a blind choice: the heuristics know as much as a search.
            return heuristics.choose(from_view(view), legal)
        assert view.seat is not None
        deadline = None if self.cap is None else self.clock() + self.cap
        totals: dict[int, float] = defaultdict(float)
        worlds = 0
        while worlds < self.worlds:
            if worlds >= MIN_WORLDS and deadline is not None and self.clock() > deadline:
                self.effort.capped += 1
                break
            world = sample_world(view, self.rng)
            for index, action in enumerate(legal):
                totals[index] += playout(world, view.seat, action)
            worlds += 1
        self.effort.decisions += 1
        self.effort.worlds += worlds
        best = max(range(len(legal)), key=lambda i: totals[i])
        return legal[best]


def playout(world: State, seat: int, action: ac.Action) -> float:
    """What the hand pays ``seat`` if it takes ``action`` in ``world`` and all play on."""
    state, events = step(world, Command(actor=seat, action=action, action_id="p0", seq=world.seq))
    for n in range(PLAYOUT_LIMIT):
        for event in events:
            if isinstance(event, HandSettled):
                return float(event.result.delta[seat])
        actor = to_act(state)[0]
        options = [o.action for o in legal_actions(state, actor) if o.legal]
        choice = heuristics.choose(from_state(state, actor), options)
        state, events = step(
            state, Command(actor=actor, action=choice, action_id=f"p{n + 1}", seq=state.seq)
        )
    return 0.0


def sample_world(view: SwickView, rng: random.Random) -> State:
    """A full state consistent with ``view``: what the seat cannot see, dealt at random.

    The other players' hands are drawn uniformly among the deals that agree with everything the
    seat knows for certain (rejection sampling; a matching when that keeps failing): no card the
    seat has seen (its own, its discards unless a later draw may have recycled them, the trump
    card, the cards played) and no card the rules say a player cannot hold (``forbidden``).
    """
    seat = view.seat
    assert seat is not None
    n = len(view.seats)
    mine = tuple(card for card in view.hand if card is not None)
    played = {card for trick in (*view.played, view.trick) for _, card in trick}
    public: set[Card] = set(mine) | played
    if view.trump_card is not None:
        public.add(view.trump_card)
    own_discards = () if discards_recycled(view) else view.discarded
    public.update(own_discards)
    unseen = [card for card in DECK if card not in public]
    banned = forbidden(view)
    counts = [s.cards for s in view.seats]
    kept = [
        other == view.dealer
        and view.kept
        and view.trump_card is not None
        and view.trump_card not in played
        for other in range(n)
    ]
    needs = {
        other: counts[other] - kept[other]
        for other in range(n)
        if other != seat and counts[other] - kept[other] > 0
    }
    hands: list[tuple[Card, ...]] = [()] * n
    likely = _plausible(view)
    dealt = (
        _rejection(unseen, needs, banned, rng, likely)
        or _rejection(unseen, needs, banned, rng)
        or _matching(unseen, needs, banned, rng)
    )
    for other, cards in dealt.items():
        hands[other] = tuple(cards)
    for other in range(n):
        if kept[other] and other != seat and view.trump_card is not None:
            hands[other] += (view.trump_card,)
    taken = {card for cards in dealt.values() for card in cards}
    rest_unseen = [card for card in unseen if card not in taken]
    rng.shuffle(rest_unseen)  # the stock, the discards and a blind dealer's own hidden cards
    pool = iter(rest_unseen)
    if None in view.hand:  # a blind dealer: their own hidden cards are unseen too
        hidden = [next(pool) for card in view.hand if card is None]
        mine = tuple(hidden) + mine
    hands[seat] = mine
    rest = list(pool)
    stock = tuple(rest[: view.stock])
    discards = tuple(rest[view.stock :]) + tuple(own_discards)
    return _state(view, hands, stock, discards, rng)


def _rejection(
    unseen: Sequence[Card],
    needs: dict[int, int],
    banned: Sequence[frozenset[Card]],
    rng: random.Random,
    likely: Callable[[int, Sequence[Card]], bool] | None = None,
) -> dict[int, list[Card]] | None:
    """Deal at random until no player holds a card it cannot (a uniform draw among the deals
    that agree), and, with ``likely``, each hand is one its player's actions make likely;
    ``None`` after ``SAMPLING_TRIES`` failures."""
    cards = list(unseen)
    for _ in range(SAMPLING_TRIES):
        rng.shuffle(cards)
        dealt: dict[int, list[Card]] = {}
        at = 0
        for other, need in needs.items():
            dealt[other] = cards[at : at + need]
            at += need
        if all(not banned[other].intersection(hand) for other, hand in dealt.items()) and (
            likely is None or all(likely(other, hand) for other, hand in dealt.items())
        ):
            return dealt
    return None


def _plausible(view: SwickView) -> Callable[[int, Sequence[Card]], bool]:
    """Whether a hand fits what its player did: one who knocked in of their own accord (not
    the dealer) kept, of the three cards they knocked with, the cards worth keeping, and those
    were worth knocking with. So the best ``3 - drew`` of the cards they held after drawing
    (the hand, and what they played since) are worth at least about what a knock needs, less
    what the discards may have been worth. A likelihood, not a certainty: the sampler gives it
    up when no deal it tries fits."""
    trump = None if view.trump_card is None else view.trump_card >> 3
    by_player: dict[int, list[Card]] = {}
    for trick in (*view.played, view.trick):
        for player, card in trick:
            by_player.setdefault(player, []).append(card)

    def likely(player: int, hand: Sequence[Card]) -> bool:
        seat = view.seats[player]
        if seat.status != "in" or player == view.dealer:
            return True
        kept = 3 - (seat.drew or 0)
        if kept <= 0:
            return True
        values = sorted(
            (heuristics.card_value(card, trump) for card in (*hand, *by_player.get(player, ()))),
            reverse=True,
        )
        return sum(values[:kept]) >= heuristics.KNOCK_AT - DISCARD_WORTH * (3 - kept)

    return likely


def _matching(
    unseen: Sequence[Card],
    needs: dict[int, int],
    banned: Sequence[frozenset[Card]],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """A random deal that agrees, found as a matching of hand places to cards (there is one:
    the true deal). Each place takes a card it may hold, moving earlier ones when it must."""
    cards = list(unseen)
    rng.shuffle(cards)
    places = [other for other, need in needs.items() for _ in range(need)]
    rng.shuffle(places)
    holder: dict[Card, int] = {}  # card -> index of the place holding it

    def place(i: int, visited: set[Card]) -> bool:
        for card in cards:
            if card in visited or card in banned[places[i]]:
                continue
            visited.add(card)
            if card not in holder or place(holder[card], visited):
                holder[card] = i
                return True
        return False

    for i in range(len(places)):
        if not place(i, set()):  # cannot happen for a view of a real table
            raise ValueError("no deal agrees with the view")
    dealt: dict[int, list[Card]] = {other: [] for other in needs}
    for card, i in holder.items():
        dealt[places[i]].append(card)
    return dealt


def discards_recycled(view: SwickView) -> bool:
    """Whether a draw after the seat's own may have taken its discards back from the pile.

    The stock runs out only at many seats: then the discards so far go under it, and a later
    drawer may draw them. The view shows how many each player drew, in play order."""
    players = len(view.order)
    if view.seat is None or view.seats[view.seat].drew is None or not players:
        return False
    stock = len(DECK) - 3 * players - 1
    pile = 0
    mine_in_pile = False
    for other in view.order:
        drew = view.seats[other].drew
        if drew is None:
            continue
        if stock < drew:
            if mine_in_pile:
                return True
            stock += pile
            pile = 0
        stock -= drew
        pile += drew
        mine_in_pile = mine_in_pile or other == view.seat
    return False


def forbidden(view: SwickView) -> list[frozenset[Card]]:
    """The cards each player cannot hold now, by the rules (§2.9) and what they played:

    - a player who did not follow the led suit holds none of it, and none of the trump suit
      either if they did not trump;
    - a player who followed below the highest card of the led suit so far holds no card of
      that suit above it (they would have had to play one);
    - the leader of trick 1 who did not lead the Ace of trump does not hold it.
    """
    banned: list[set[Card]] = [set() for _ in view.seats]
    trump = None if view.trump_card is None else view.trump_card >> 3
    tricks = [trick for trick in (*view.played, view.trick) if trick]
    for trick in tricks:
        led = trick[0][1] >> 3
        highest = trick[0][1]
        for player, card in trick[1:]:
            suit = card >> 3
            if suit != led:
                banned[player].update(range(led * 8, led * 8 + 8))
                if trump is not None and suit != trump:
                    banned[player].update(range(trump * 8, trump * 8 + 8))
            elif card < highest:
                banned[player].update(range(highest + 1, led * 8 + 8))
            else:
                highest = card
    if trump is not None and tricks:
        leader, first = tricks[0][0]
        ace = trump * 8 + ACE
        if first != ace:
            banned[leader].add(ace)
    return [frozenset(cards) for cards in banned]


def _state(
    view: SwickView,
    hands: list[tuple[Card, ...]],
    stock: tuple[Card, ...],
    discards: tuple[Card, ...],
    rng: random.Random,
) -> State:
    seats = view.seats
    n = len(seats)
    dealer = view.dealer
    assert dealer is not None
    order = tuple(
        sorted((i for i in range(n) if seats[i].status), key=lambda i: (i - dealer - 1) % n)
    )
    early: list[SetKind] = list(NOT_SET * n)
    if seats[dealer].status == "dropped" or (seats[dealer].status == "passed" and view.kept):
        early[dealer] = "single"
    face = view.trump_card is not None and view.kept and is_face(view.trump_card)
    turn = view.to_act[0] if view.to_act else None
    return State(
        config=view.config,
        seq=view.seq,
        turn_seq=view.seq,
        players=tuple(s.player for s in seats),
        stacks=tuple(s.stack for s in seats),
        nets=tuple(s.net for s in seats),
        sitting_out=tuple(s.sitting_out for s in seats),
        leaving=(False,) * n,
        connected=(True,) * n,
        timeouts=(0,) * n,
        host=view.host,
        game_no=view.game_no,
        seed=rng.randbytes(32).hex(),
        hand_no=view.hand_no,
        button=dealer,
        dealer=dealer,
        carry=view.carry,
        phase=view.phase,
        free_ride=view.free_ride,
        ante=view.ante,
        entropy=(None,) * n,
        context=rng.randbytes(32).hex(),
        order=order,
        antes=tuple(s.ante for s in seats),
        pot=view.pot,
        hands=tuple(hands),
        trump_card=view.trump_card,
        kept=view.kept,
        status=tuple(s.status for s in seats),
        drawn=tuple(-1 if s.drew is None else s.drew for s in seats),
        stock=stock,
        discards=discards,
        discarded=tuple(view.discarded if i == view.seat else () for i in range(n)),
        turn=turn,
        face_play=face and view.phase is Phase.TRICKS and seats[dealer].status == "in",
        early_sets=tuple(early),
        trick=view.trick,
        tricks_won=tuple(s.tricks for s in seats),
        played=view.played,
    )
