"""The ``hard`` bot: determinized Monte Carlo search, the rules of thumb as its baseline.

For each decision it repeatedly samples a *world*: the cards it cannot see dealt to the other
hands, the stock and the discards, keeping to what its view shows for certain (card counts; its
own discards, which no other hand holds unless a later draw recycled them; and what the rules
of play reveal: see ``forbidden``) and, where a tried hand allows, to what each player did,
read as the medium rules of thumb would have done it (``_plausible``). In each world it tries
every legal action and plays the hand out with the medium rules for everyone
(``playout.fast_playout``), scoring the action by what the hand paid its seat. The same worlds
serve every action, so the comparison is paired.

It takes the rules of thumb's own choice unless another action pays more over those worlds
by ``SURE`` standard errors (a search of a few dozen worlds is noisy, and a noisy deviation
loses more than it wins). Clearly worse actions are dropped along the way. The ante, the
one choice made before the cards, is weighed at the lowest and the highest amount only (what
a hand pays is a straight line in the ante), adding to each what the bot expects to win
beyond the rules of thumb at that pot (``OWN_EDGE``): a stronger player wants higher stakes,
where the table's seating does not make the dealer pay too much for them.

The budget is a number of worlds per decision, and every random draw comes from the bot's own
generator: a bot seeded alike decides alike, however fast or loaded the machine. A wall-clock
cap is only a safety net for live tables (a decision it cuts short is counted in ``effort``);
the arena runs without it, so that its results are reproducible.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.bots import heuristics
from services.bots.knowledge import from_view
from services.bots.playout import fast_playout
from services.bots.world_table import world_table
from shared.games.swick import actions as ac
from shared.games.swick.cards import ACE, DECK, Card, is_face
from shared.games.swick.state import DEALER_EXTRA, NOT_SET, Phase, SetKind, State
from shared.games.swick.views import SwickView

SAMPLING_TRIES = 30
# What a card thrown away may have been worth to its player's knock: a side King at most, as
# only cards not worth keeping are thrown (``heuristics.card_value``).
DISCARD_WORTH = 0.35
QUICK = frozenset({Phase.READY})
# How sure the search must be before it overrules the rules of thumb: the mean gain over the
# same worlds, this many standard errors above zero. Below that, the gain is as likely noise.
SURE = 1.0
# Every ``PRUNE_EVERY`` worlds, an action the leader beats by ``PRUNE_AT`` standard errors is
# played out no more (a draw has up to 8 options, most of them clearly worse).
PRUNE_EVERY = 16
PRUNE_AT = 3.0
# What the bot wins beyond the rules of thumb it plays by in its playouts, as a share of the
# pot (``swick arena --duplicate``: about 5% at 5 seats, 12% at 3); the ante is set with it.
OWN_EDGE = 0.05
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
        usual = heuristics.choose(from_view(view), legal)
        if view.phase is Phase.ANTE:
            legal = _extremes(legal)
        if len(legal) == 1 or view.phase in QUICK:
            return usual
        assert view.seat is not None
        deadline = None if self.cap is None else self.clock() + self.cap
        paid: list[list[float]] = [[] for _ in legal]
        usual_at = legal.index(usual)
        alive = list(range(len(legal)))
        worlds = 0
        while worlds < self.worlds:
            if worlds >= MIN_WORLDS and deadline is not None and self.clock() > deadline:
                self.effort.capped += 1
                break
            world = sample_world(view, self.rng)
            for index in alive:
                paid[index].append(fast_playout(world, view.seat, legal[index]))
            worlds += 1
            if worlds % PRUNE_EVERY == 0 and len(alive) > 2:
                alive = _pruned(alive, paid, usual_at)
        self.effort.decisions += 1
        self.effort.worlds += worlds
        if view.phase is Phase.ANTE:
            _add_own_edge(view, legal, paid)
        best = max(alive, key=lambda i: sum(paid[i]))
        if view.phase is Phase.ANTE:
            # The mean decides: the worlds' spread is the stakes' own (at the highest ante, five
            # times the lowest's), so the rule of thumb would hardly ever be overruled.
            return legal[best]
        return legal[best] if _surely_better(paid[best], paid[usual_at]) else usual


def _add_own_edge(view: SwickView, antes: Sequence[ac.Action], paid: list[list[float]]) -> None:
    """Add to each ante's worlds what the bot expects to win beyond the rules of thumb it plays
    by in its playouts: ``OWN_EDGE`` of the pot it sets."""
    dealt = 1 + sum(
        1 for s in view.seats if s.player is not None and not s.sitting_out and s.seat != view.seat
    )
    for index, ante in enumerate(antes):
        if isinstance(ante, ac.ChooseAnte):
            edge = OWN_EDGE * (dealt * ante.amount + DEALER_EXTRA)
            paid[index] = [p + edge for p in paid[index]]


def _extremes(antes: Sequence[ac.Action]) -> list[ac.Action]:
    """The lowest and the highest ante. Every payment of a hand (the antes, each trick's third,
    a set's match of the pot) is the ante times a count fixed by the cards and the play, plus
    the dealer's fixed 3¢, and the rules of thumb never look at the pot: so in a world what
    the hand pays is a straight line in the ante, its mean over the worlds too, and the best
    ante is the lowest or the highest."""
    amounts = sorted(antes, key=lambda a: a.amount if isinstance(a, ac.ChooseAnte) else 0)
    return [amounts[0], amounts[-1]] if len(amounts) > 1 else list(amounts)


def _pruned(alive: list[int], paid: Sequence[Sequence[float]], keep: int) -> list[int]:
    """The actions still worth playouts: those the leader does not already beat, over the
    same worlds, by ``PRUNE_AT`` standard errors (and always ``keep``, the rules of thumb's)."""
    leader = max(alive, key=lambda i: sum(paid[i]))
    return [
        i
        for i in alive
        if i in (leader, keep) or not _surely_better(paid[leader], paid[i], PRUNE_AT)
    ]


def _surely_better(
    best: Sequence[float], usual: Sequence[float], sure: float | None = None
) -> bool:
    """Whether ``best`` pays more than ``usual`` over the same worlds, by ``sure`` standard
    errors of the mean gain."""
    sure = SURE if sure is None else sure
    gains = [b - u for b, u in zip(best, usual, strict=True)]
    if len(gains) < 2:
        return False
    mean = statistics.fmean(gains)
    return mean > 0 and mean > sure * statistics.stdev(gains) / math.sqrt(len(gains))


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
        for other in sorted(range(n), key=lambda p: view.seats[p].status != "in")
        if other != seat and counts[other] - kept[other] > 0
    }
    hands: list[tuple[Card, ...]] = [()] * n
    likely = _plausible(view)
    dealt = _one_by_one(unseen, needs, banned, rng, likely) or _matching(unseen, needs, banned, rng)
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


def _plausible(view: SwickView) -> Callable[[int, Sequence[Card]], bool]:
    """Whether a hand fits what its player did, were they playing sound rules of thumb (the
    medium rules): one who passed held a hand not worth a knock; one who knocked in of their
    own accord held a hand worth it, more so the more players had knocked before them; one who
    then drew kept only cards worth keeping (trumps and Aces), and what they threw away was
    worth little. So the best ``3 - drew`` of the cards they hold and have played since are
    each worth keeping, and with what the discards may have been worth, worth the knock. A
    likelihood, not a certainty: the sampler gives it up for a player when no hand it tries
    fits (``tests/bots/test_sampler.py``: it never rules out the hand of a player who does
    play by those rules)."""
    trump = None if view.trump_card is None else view.trump_card >> 3
    by_player: dict[int, list[Card]] = {}
    for trick in (*view.played, view.trick):
        for player, card in trick:
            by_player.setdefault(player, []).append(card)
    before: dict[int, int] = {}
    knocked = 0
    for player in view.order:
        if player == view.dealer:
            continue
        before[player] = knocked
        knocked += view.seats[player].status == "in"

    def likely(player: int, hand: Sequence[Card]) -> bool:
        seat = view.seats[player]
        rivals = before.get(player, knocked)
        need = heuristics.KNOCK_AT + heuristics.EACH_RIVAL * rivals
        if seat.status == "passed" and player != view.dealer:
            return not heuristics.special(hand, trump) and heuristics.strength(hand, trump) < need
        if seat.status != "in" or (player == view.dealer and view.kept):
            return True  # out of the hand, or a dealer who kept and so had to knock
        cards = (*hand, *by_player.get(player, ()))
        if len(cards) == 3 and heuristics.special(cards, trump):
            return True
        drew = seat.drew or 0
        kept = 3 - drew
        values = sorted((heuristics.card_value(card, trump) for card in cards), reverse=True)
        top = values[:kept]
        if seat.drew is not None and top and top[-1] < heuristics.KEEP_AT:
            return False
        return sum(top) >= need - DISCARD_WORTH * drew

    return likely


def _one_by_one(
    unseen: Sequence[Card],
    needs: dict[int, int],
    banned: Sequence[frozenset[Card]],
    rng: random.Random,
    likely: Callable[[int, Sequence[Card]], bool],
) -> dict[int, list[Card]] | None:
    """Deal the hands one player at a time, each drawn again until it fits (what is certain,
    and, while a try allows, what the player did), the players who knocked in first: each
    player's hand is fitted on its own, so many players' likelihoods do not multiply into a
    deal that never fits. ``None`` when a hand cannot be made to agree with what is certain."""
    pool = list(unseen)
    dealt: dict[int, list[Card]] = {}
    for other, need in needs.items():
        fallback: list[Card] | None = None
        for _ in range(SAMPLING_TRIES):
            hand = rng.sample(pool, need)
            if banned[other].intersection(hand):
                continue
            if likely(other, hand):
                fallback = hand
                break
            fallback = fallback or hand
        if fallback is None:
            return None
        dealt[other] = fallback
        taken = set(fallback)
        pool = [card for card in pool if card not in taken]
    return dealt


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
    # Who the dealer's ante asks in (the view does not list them): the others seated and in.
    candidates = tuple(
        seat
        for k in range(1, n)
        if seats[seat := (dealer + k) % n].player is not None and not seats[seat].sitting_out
    )
    face = view.trump_card is not None and view.kept and is_face(view.trump_card)
    turn = view.to_act[0] if view.to_act else None
    return State(
        config=view.config,
        **world_table(view, rng),
        stacks=tuple(s.stack for s in seats),
        nets=tuple(s.net for s in seats),
        hand_no=view.hand_no,
        button=dealer,
        dealer=dealer,
        carry=view.carry,
        phase=view.phase,
        free_ride=view.free_ride,
        ante=view.ante,
        candidates=candidates if view.phase is Phase.ANTE else (),
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
