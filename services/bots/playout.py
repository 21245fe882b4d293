"""The hard bot's playouts, fast: the rest of a hand played by the medium rules of thumb on
plain lists and ints, paying exactly what a playout through the engine pays.

``fast_playout(world, seat, action)`` equals ``engine_playout``: the action taken in the sampled
world, then everyone playing on by ``heuristics.choose`` until the hand settles, and what the
hand paid ``seat``. The engine checks envelopes, turns, deadlines and attendance, builds every
legal option and a ``Knowledge`` for every decision, and emits and folds events; none of that
changes what the hand pays, so here a hand is a few lists (each hand's cards in the engine's
order, so that the rules of thumb break ties alike), the rules of play and the rules of thumb are
applied directly, and the settlement computes the one seat's delta.

What only the seeded generator decides is left to the engine's own functions: the deal after an
ante (``dealing.deal``) and the stock refilled from the discards (``dealing.recycled``).

A few states are handed to the engine-based playout instead (rare, or the engine's own way of
refusing): an action the engine would refuse, or one of another phase (ready-up, interlude, the
lifecycle); an ante at a table with no person seated (the engine closes such a table before the
deal); an ante after which fewer than two others can ready up (the hand would not start); and a
draw the stock cannot cover even with the discards recycled (the rules make it impossible).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.bots import heuristics
from services.bots.engine_playout import Engine, play_out
from services.bots.knowledge import from_state
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import ACE, JACK, KING, QUEEN, SEVEN
from shared.games.swick.dealing import deal, entropy_context, recycled
from shared.games.swick.decide import MAX_ENTROPY
from shared.games.swick.game import SWICK
from shared.games.swick.legal import too_few_cover
from shared.games.swick.state import DEALER_EXTRA, Phase, State

PLAYOUT_LIMIT = 60

# Each card's worth to the rules of thumb, by trump suit (``heuristics.card_value``).
_VALUES: tuple[tuple[float, ...], ...] = tuple(
    tuple(heuristics.card_value(card, trump) for card in range(32)) for trump in range(4)
)
_TRICKS, _KNOCK, _DRAW, _DEALER_KNOCK, _DEALER_DRAW = (
    Phase.TRICKS,
    Phase.KNOCK,
    Phase.DRAW,
    Phase.DEALER_KNOCK,
    Phase.DEALER_DRAW,
)
_DEALER_DISCARD, _FACE_TRUMP, _TRUMP = Phase.DEALER_DISCARD, Phase.FACE_TRUMP, Phase.TRUMP


class _Refused(Exception):
    """The lean playout cannot follow the engine here: the engine plays this one."""


def fast_playout(world: State, seat: int, action: ac.Action) -> float:
    """What the hand pays ``seat`` if it takes ``action`` in ``world`` and all play on."""
    paid = lean_playout(world, seat, action)
    return engine_playout(world, seat, action) if paid is None else paid


def lean_playout(world: State, seat: int, action: ac.Action) -> float | None:
    """``fast_playout`` without the engine: ``None`` where it would fall back to the engine."""
    try:
        hand = _Hand(world)
        hand.first(world, seat, action)
        hand.run()
    except _Refused:
        return None
    return float(hand.delta(seat))


def engine_playout(world: State, seat: int, action: ac.Action) -> float:
    """The playout through the engine: the reference, and the fallback."""
    return play_out(ENGINE, world, seat, action)


def _paid(event: ev.Event, seat: int) -> float | None:
    return float(event.result.delta[seat]) if isinstance(event, ev.HandSettled) else None


ENGINE = Engine(SWICK, from_state, heuristics.choose, _paid, PLAYOUT_LIMIT)


class _Hand:
    """One hand in play, on lists: the engine's state with only what the hand's result needs."""

    __slots__ = (
        "antes",
        "best",
        "best_seat",
        "context",
        "dealer",
        "done",
        "drawn",
        "early",
        "ending",
        "face_play",
        "gone",
        "hand_no",
        "hands",
        "kept",
        "order",
        "phase",
        "pile",
        "players",
        "pot",
        "recycles",
        "seed",
        "special",
        "status",
        "stock",
        "trick",
        "trump",
        "trump_card",
        "turn",
        "values",
        "winner",
        "won",
    )

    def __init__(self, s: State) -> None:
        dealer = s.dealer
        if dealer is None:
            raise _Refused
        self.dealer: int = dealer
        self.order: tuple[int, ...] = s.order
        self.status: list[str] = list(s.status)
        self.hands: list[list[int]] = [list(cards) for cards in s.hands]
        self.trump_card: int | None = s.trump_card
        self.trump: int = 0 if s.trump_card is None else s.trump_card >> 3
        self.values: tuple[float, ...] = _VALUES[self.trump]
        self.kept: bool = s.kept
        self.stock: list[int] = list(s.stock)
        self.pile: list[int] = list(s.discards)  # discarded and not yet recycled
        self.recycles: int = s.recycles
        self.seed: str = s.seed
        self.context: str = s.context
        self.hand_no: int = s.hand_no
        self.drawn: list[int] = list(s.drawn)
        self.face_play: bool = s.face_play
        self.early: list[bool] = [bool(kind) for kind in s.early_sets]
        self.trick: list[tuple[int, int]] = list(s.trick)
        self.won: list[int] = list(s.tricks_won)
        self.done: int = sum(s.tricks_won)
        self.gone: set[int] = {card for trick in s.played for _, card in trick}
        self.pot: int = s.pot
        self.antes: tuple[int, ...] = s.antes
        self.phase: Phase | None = s.phase
        self.turn: int | None = s.turn
        self.players: list[int] = [p for p in s.order if s.status[p] == "in"]
        self.best = self.best_seat = -1
        for player, card in self.trick:
            self._beat(player, card)
        self.ending = ""
        self.winner: int | None = None
        self.special = False

    # The first action: checked as the engine checks it; what it would refuse, it plays.

    def first(self, s: State, seat: int, action: ac.Action) -> None:
        phase = s.phase
        if (
            not 0 <= seat < len(s.players)
            or s.players[seat] is None
            or phase not in _FIRST
            or not isinstance(action, _FIRST[phase])
        ):
            raise _Refused
        dealer_phase = phase not in (_TRICKS, _KNOCK, _DRAW)
        if seat != (self.dealer if dealer_phase else s.turn):
            raise _Refused
        if isinstance(action, ac.PlayCard):
            if action.card not in self._allowed(self.hands[seat]):
                raise _Refused
            self.play(seat, action.card)
        elif isinstance(action, ac.Knock):
            self.knock(seat, action.knock)
        elif isinstance(action, ac.Draw):
            discards = action.discards
            hand = self.hands[seat]
            if (
                len(discards) > 3
                or len(set(discards)) != len(discards)
                or any(card not in hand or self._protected(seat, card) for card in discards)
            ):
                raise _Refused
            self.draw(seat, discards)
        elif isinstance(action, ac.DiscardFourth):
            card = action.card
            if card not in self.hands[seat] or self._protected(seat, card):
                raise _Refused
            self.discard_fourth(card)
        elif isinstance(action, ac.FaceTrump):
            self.face_trump(action.play)
        elif isinstance(action, ac.DecideTrump):
            self.decide_trump(action.keep)
        else:
            assert isinstance(action, ac.ChooseAnte)
            self.choose_ante(s, action)

    def _protected(self, seat: int, card: int) -> bool:
        return seat == self.dealer and self.kept and card == self.trump_card

    # The hand played on by the rules of thumb (``heuristics.choose``).

    def run(self) -> None:
        values = self.values
        while True:
            phase = self.phase
            actor = self.turn
            if phase is None:
                return
            if phase is _TRICKS:
                self._tricks()
                return
            if phase is _KNOCK or phase is _DEALER_KNOCK:
                assert actor is not None
                self.knock(actor, self._knocks(actor))
            elif phase is _DRAW or phase is _DEALER_DRAW:
                assert actor is not None
                self.draw(actor, self._discards(actor))
            elif phase is _DEALER_DISCARD:
                dealer = self.dealer
                cards = [c for c in self.hands[dealer] if not self._protected(dealer, c)]
                self.discard_fourth(min(cards, key=lambda c: (values[c], c & 7)))
            elif phase is _FACE_TRUMP:
                self.face_trump(self._strength(self.hands[self.dealer]) >= heuristics.PLAY_FACE_AT)
            elif phase is _TRUMP:
                assert self.trump_card is not None
                rank = self.trump_card & 7
                self.decide_trump(rank == ACE or (rank < JACK and rank >= 2))
            else:
                raise _Refused

    def _strength(self, hand: Sequence[int]) -> float:
        values = self.values
        return sum([values[card] for card in hand])  # summed as ``heuristics.strength`` sums

    def _special(self, hand: Sequence[int]) -> int:
        """The rank of the special hand held (0 best), or -1."""
        if len(hand) != 3:
            return -1
        a, b, c = hand
        rank = a & 7
        if rank == b & 7 == c & 7:
            if rank == ACE:
                return 0
            if rank == SEVEN:
                return 1
        top = self.trump * 8
        if {a, b, c} == {top + ACE, top + KING, top + QUEEN}:
            return 2
        return -1

    def _knocks(self, seat: int) -> bool:
        if self.phase is _DEALER_KNOCK and self.kept:
            return True  # passing would set the dealer
        hand = self.hands[seat]
        if self._special(hand) >= 0:
            return True
        knocked = self.status.count("in")
        return self._strength(hand) >= heuristics.KNOCK_AT + heuristics.EACH_RIVAL * knocked

    def _discards(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if self._special(hand) >= 0:
            return []
        values, keep_at = self.values, heuristics.KEEP_AT
        wanted = [c for c in hand if values[c] < keep_at and not self._protected(seat, c)]
        return wanted[:3]  # the largest discard of weak cards only, in the hand's order

    def _allowed(self, hand: list[int]) -> list[int]:
        """The cards of ``hand`` that may be played now, in the hand's order (``play_rule``)."""
        trick = self.trick
        trump = self.trump
        if not trick:
            ace = trump * 8 + ACE
            if self.done == 0 and ace in hand:
                return [ace]
            return hand
        led = trick[0][1] >> 3
        following = [c for c in hand if c >> 3 == led]
        if following:
            top = max(card for _, card in trick if card >> 3 == led)
            return [c for c in following if c > top] or following
        return [c for c in hand if c >> 3 == trump] or hand

    def _tricks(self) -> None:
        """The tricks played out by the rules of thumb (``heuristics._play``): lead the highest
        trump still out if it is yours, else a side Ace, else the cheapest card; follow with
        the cheapest card that takes the trick, else the cheapest card. Cheapest: a non-trump
        before a trump, then the lower rank (then the suit order, for the cheapest overall)."""
        hands, players, won, gone = self.hands, self.players, self.won, self.gone
        trump = self.trump
        cheap, cheap_winner = _CHEAP[trump], _CHEAP_WINNER[trump]
        low = trump * 8
        ace = low + ACE
        done = self.done
        size = len(players)
        trick = [card for _, card in self.trick]
        best, best_seat = self.best, self.best_seat
        led = trick[0] >> 3 if trick else -1
        top = max((c for c in trick if c >> 3 == led), default=-1)  # the highest of the led suit
        turn = self.turn
        assert turn is not None
        at = players.index(turn)
        while True:
            seat = players[at]
            hand = hands[seat]
            if len(hand) == 1:
                card = hand[0]
            elif not trick:
                if done == 0 and ace in hand:
                    card = ace  # the first trick opens with the Ace of trump
                else:
                    live = ace
                    while live >= low and live in gone:
                        live -= 1
                    if live >= low and live in hand:
                        card = live
                    else:
                        card = next((c for c in hand if c & 7 == ACE and c >> 3 != trump), -1)
                        if card < 0:
                            card = min(hand, key=cheap.__getitem__)
            else:
                cards = [c for c in hand if c >> 3 == led]
                if cards:
                    cards = [c for c in cards if c > top] or cards
                else:
                    cards = [c for c in hand if c >> 3 == trump] or hand
                best_suit = best >> 3
                winners = [
                    c
                    for c in cards
                    if (c >> 3 == best_suit and c > best)
                    or (c >> 3 == trump and best_suit != trump)
                ]
                if winners:
                    card = min(winners, key=cheap_winner.__getitem__)
                else:
                    card = min(cards, key=cheap.__getitem__)
            hand.remove(card)
            suit = card >> 3
            if not trick:
                led, top, best, best_seat = suit, card, card, seat
            else:
                if suit == led and card > top:
                    top = card
                if (suit == best >> 3 and card > best) or (suit == trump and best >> 3 != trump):
                    best, best_seat = card, seat
            trick.append(card)
            if len(trick) < size:
                at = at + 1 if at + 1 < size else 0
                continue
            won[best_seat] += 1
            done += 1
            if done == 3:
                self.done = done
                self._finish("tricks", None)
                return
            gone.update(trick)
            trick = []
            at = players.index(best_seat)

    # What each decision does (``decide`` and ``evolve``).

    def choose_ante(self, s: State, a: ac.ChooseAnte) -> None:
        dealer = self.dealer
        amount, entropy = a.amount, a.entropy
        if (
            amount not in s.config.antes
            or s.stacks[dealer] < amount + DEALER_EXTRA
            or too_few_cover(s, amount)
            or not isinstance(entropy, str)
            or len(entropy) > MAX_ENTROPY
            or not entropy.isprintable()
            or all(p is None or p.bot is not None for p in s.players)
        ):
            raise _Refused
        seeds = list(s.entropy)
        seeds[dealer] = entropy
        out = s.sitting_out
        candidates = [c for c in s.candidates if s.stacks[c] >= amount]
        for c in candidates:
            if seeds[c] is None and not out[c]:
                seeds[c] = ""  # each one asked readies, as the rules of thumb do
        ready = {c for c in candidates if seeds[c] is not None and not out[c]}
        if len(ready) < 2:
            raise _Refused
        n = len(s.players)
        order = tuple(
            seat for k in range(1, n + 1) if (seat := (dealer + k) % n) in ready or k == n
        )
        context = entropy_context(order, seeds)
        self.hand_no = s.hand_no + 1
        hands, trump_card, stock = deal(bytes.fromhex(s.seed), self.hand_no, order, context, n)
        antes = [0] * n
        for seat in order:
            antes[seat] = amount
        antes[dealer] = amount + DEALER_EXTRA
        self.antes = tuple(antes)
        self.pot = s.carry + sum(antes)
        self.context = context.hex()
        self.order = order
        self.hands = [list(cards) for cards in hands]
        self.trump_card = trump_card
        self.trump = trump_card >> 3
        self.values = _VALUES[self.trump]
        self.stock = list(stock)
        self.gone = set()  # the deal clears the hand's finished tricks
        self.status = ["dealt" if seat in order else "" for seat in range(n)]
        self.phase, self.turn = _TRUMP, dealer

    def decide_trump(self, keep: bool) -> None:
        self.kept = keep
        if keep:
            assert self.trump_card is not None
            self.hands[self.dealer].append(self.trump_card)
        self.phase, self.turn = _KNOCK, self.order[0]

    def knock(self, seat: int, knock: bool) -> None:
        status, order, dealer = self.status, self.order, self.dealer
        status[seat] = "in" if knock else "passed"
        if self.phase is _DEALER_KNOCK:
            if knock:
                self.phase, self.turn = _DEALER_DRAW, dealer
            else:
                if self.kept:
                    self.early[dealer] = True
                self._dealer_out()
            return
        i = order.index(seat) + 1
        if i < len(order) - 1:
            self.turn = order[i]
            return
        knocked = [p for p in order[:-1] if status[p] == "in"]
        if knocked:
            self.phase, self.turn = _DRAW, knocked[0]
        else:
            self._finish("all_passed", dealer)

    def draw(self, seat: int, discards: Sequence[int]) -> None:
        need = len(discards)
        stock = self.stock
        if len(stock) < need:
            refill = recycled(
                bytes.fromhex(self.seed),
                self.hand_no,
                bytes.fromhex(self.context),
                self.recycles,
                self.pile,
            )
            if len(stock) + len(refill) < need:  # the engine refuses the draw
                raise _Refused
            stock.extend(refill)
            if refill:
                self.pile = []
                self.recycles += 1
        drawn = stock[:need]
        del stock[:need]
        hand = self.hands[seat]
        self.hands[seat] = [c for c in hand if c not in discards] + drawn
        self.pile.extend(discards)
        self.drawn[seat] = need
        if self.phase is _DRAW:
            status, drawn_by, order = self.status, self.drawn, self.order
            nxt = next(
                (
                    p
                    for p in order[order.index(seat) + 1 : -1]
                    if status[p] == "in" and drawn_by[p] < 0
                ),
                None,
            )
            if nxt is None:
                self.phase, self.turn = _DEALER_KNOCK, self.dealer
            else:
                self.turn = nxt
        elif len(self.hands[seat]) == 4:
            self.phase = _DEALER_DISCARD
        else:
            self._before_tricks()

    def discard_fourth(self, card: int) -> None:
        self.hands[self.dealer].remove(card)
        self.pile.append(card)
        self._before_tricks()

    def _before_tricks(self) -> None:
        card = self.trump_card
        if self.kept and card is not None and card & 7 >= JACK:
            self.phase, self.turn = _FACE_TRUMP, self.dealer
        else:
            self._start_tricks()

    def face_trump(self, play: bool) -> None:
        self.face_play = play
        if play:
            self._start_tricks()
        else:
            self.status[self.dealer] = "dropped"
            self.early[self.dealer] = True
            self._dealer_out()

    def _dealer_out(self) -> None:
        players = [p for p in self.order if self.status[p] == "in"]
        if len(players) == 1:
            self._finish("last_standing", players[0])
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        players = [p for p in self.order if self.status[p] == "in"]
        found = min(
            ((kind, p) for p in players if (kind := self._special(self.hands[p])) >= 0),
            default=None,
        )
        if found is not None:
            self.special = True
            self._finish("special", found[1])
            return
        self.players = players
        self.phase, self.turn = _TRICKS, players[0]

    def _beat(self, seat: int, card: int) -> None:
        best = self.best
        if best < 0 or (
            (card >> 3 == best >> 3 and card > best)
            or (card >> 3 == self.trump and best >> 3 != self.trump)
        ):
            self.best, self.best_seat = card, seat

    def play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) == 1:
            self.best, self.best_seat = card, seat
        else:
            self._beat(seat, card)
        players = self.players
        if len(trick) < len(players):
            self.turn = players[(players.index(seat) + 1) % len(players)]
            return
        winner = self.best_seat
        self.won[winner] += 1
        self.gone.update(c for _, c in trick)
        trick.clear()
        self.best = self.best_seat = -1
        self.done += 1
        if self.done == 3:
            self._finish("tricks", None)
        else:
            self.turn = winner

    def _finish(self, ending: str, winner: int | None) -> None:
        self.ending, self.winner = ending, winner
        self.phase = self.turn = None

    def delta(self, seat: int) -> int:
        """What the hand paid ``seat``, antes included (``settlement.settle``)."""
        pot = self.pot
        penalty = pot if self.early[seat] else 0
        payout = 0
        double = seat == self.dealer and self.face_play
        playing = self.status[seat] == "in" and seat in self.order
        if self.ending == "tricks":
            if playing:
                won = self.won[seat]
                payout = pot // 3 * won
                if won < (2 if double else 1):
                    penalty += 2 * pot if double else pot
        elif seat == self.winner:
            payout = pot
        elif self.special and playing:
            penalty += 2 * pot if double else pot
        return payout - self.antes[seat] - penalty


# Sort keys for the rules of thumb's cheapest card, by trump suit: a non-trump before a
# trump, then the lower rank, then the suit order (overall); without the suit (a winner).
_CHEAP: tuple[tuple[int, ...], ...] = tuple(
    tuple((c >> 3 == trump) * 64 + (c & 7) * 8 + (c >> 3) for c in range(32)) for trump in range(4)
)
_CHEAP_WINNER: tuple[tuple[int, ...], ...] = tuple(
    tuple((c >> 3 == trump) * 8 + (c & 7) for c in range(32)) for trump in range(4)
)
_FIRST: dict[Phase, type[object]] = {
    Phase.TRICKS: ac.PlayCard,
    Phase.KNOCK: ac.Knock,
    Phase.DEALER_KNOCK: ac.Knock,
    Phase.DRAW: ac.Draw,
    Phase.DEALER_DRAW: ac.Draw,
    Phase.DEALER_DISCARD: ac.DiscardFourth,
    Phase.FACE_TRUMP: ac.FaceTrump,
    Phase.TRUMP: ac.DecideTrump,
    Phase.ANTE: ac.ChooseAnte,
}
