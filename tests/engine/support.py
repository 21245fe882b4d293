"""A small driver for the pure Swick engine, for tests: seat players, start, rig deals, act."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping

from shared import fairness
from shared.games.lifecycle import Player, SitOut, TakeSeat
from shared.games.swick import SWICK
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import DECK, Card, parse
from shared.games.swick.evolve import evolve
from shared.games.swick.legal import to_act
from shared.games.swick.state import DEFAULT_ANTES, Phase, State, TableConfig
from tests.engine.driver import GameTable, seed_where

NAMES = ("D", "L", "M", "N", "O", "P")


def cards(text: str) -> tuple[Card, ...]:
    """``"AS KH 10D"`` as cards."""
    return tuple(parse(code) for code in text.split())


def seed_with_first_dealer(dealer: int, seats: int) -> str:
    """A deterministic seed whose first dealer is ``dealer`` when every seat can deal."""
    everyone = list(range(seats))
    return seed_where(
        "test-seed", lambda seed: fairness.choose_first_dealer(seed, everyone) == dealer
    )


class Table(GameTable[TableConfig, State, ac.Action, ev.Event]):
    """One table driven command by command. Seat 0 deals the first hand unless told otherwise.

    With the seats named D, L, M, ... clockwise, seat 0 is the scenarios' dealer D.
    """

    def __init__(
        self,
        seats: int = 3,
        stack: int = 10_000,
        *,
        antes: tuple[int, ...] = DEFAULT_ANTES,
        timer_ms: int | None = None,
        first_dealer: int = 0,
        interlude_ms: int | None = None,
    ) -> None:
        config = TableConfig(
            seats=seats, antes=antes, timer_ms=timer_ms, private=True, interlude_ms=interlude_ms
        )
        seed = seed_with_first_dealer(first_dealer, seats)
        super().__init__(SWICK, config, seed, play_card=ac.PlayCard, parse=parse)
        for seat in range(seats):
            self.act(None, TakeSeat(seat, Player(f"p{seat}", NAMES[seat]), stack))

    def ready_all(self, ante: int | None = 3) -> None:
        """The dealer sets ``ante`` (in a normal hand) and everyone readies: the hand is dealt."""
        if self.state.phase is Phase.ANTE:
            assert ante is not None
            self.act(self.state.dealer, ac.ChooseAnte(ante))
        while self.state.phase is Phase.READY:
            self.act(to_act(self.state)[0], ac.Ready())

    def rig(
        self,
        hands: dict[int, str],
        trump: str,
        stock: str = "",
        *,
        ante: int | None = 3,
        sitting_out: Iterable[int] = (),
    ) -> None:
        """Deal the next hand with these cards instead of the shuffled ones.

        Everyone readies as usual; the last ready's deal is replaced by a ``HandDealt`` event with
        the given cards, applied through ``evolve``. Cards not named go to the stock after
        ``stock``, in deck order.
        """
        if self.state.phase is Phase.ANTE:
            assert ante is not None
            self.act(self.state.dealer, ac.ChooseAnte(ante))
        for seat in sitting_out:
            self.act(seat, SitOut(sitting_out=True))
        while len(to_act(self.state)) > 1:
            self.act(to_act(self.state)[0], ac.Ready())
        last = to_act(self.state)[0]
        real = self.act(last, ac.Ready())
        dealt = next(e for e in real if isinstance(e, ev.HandDealt))
        held = {seat: cards(text) for seat, text in hands.items()}
        assert set(held) == set(dealt.order), f"deal to {dealt.order}"
        trump_card = parse(trump)
        named = [*itertools.chain.from_iterable(held.values()), trump_card, *cards(stock)]
        assert len(set(named)) == len(named), "a card named twice"
        rest = [card for card in DECK if card not in named]
        rigged = ev.HandDealt(
            dealt.hand_no,
            dealt.order,
            dealt.antes,
            dealt.context,
            tuple(held.get(seat, ()) for seat in range(len(self.state.players))),
            trump_card,
            (*cards(stock), *rest),
        )
        # Rebuild the state from the events before the real deal, then apply the rigged one.
        state = self.replay(self.events[: len(self.events) - len(real)])
        for event in real:
            state = evolve(state, rigged if event is dealt else event)
        self.events[len(self.events) - len(real) :] = [rigged if e is dealt else e for e in real]
        self.state = state

    def to_tricks(
        self,
        *,
        keep: bool = False,
        passes: Collection[int] = (),
        discards: Mapping[int, str] | None = None,
        dealer_knocks: bool = True,
        fourth: str | None = None,
        face_play: bool | None = True,
    ) -> None:
        """Take a dealt hand up to its first trick, or as far as it goes.

        The dealer keeps or leaves the trump card; every non-dealer knocks except ``passes``;
        each seat draws after discarding ``discards[seat]`` (nothing by default); the dealer knocks
        when ``dealer_knocks``, discards ``fourth`` when holding four cards, and answers the
        face-trump decision with ``face_play``. ``None`` for either stops the hand there.
        """
        discards = discards or {}
        self.act(self.state.dealer, ac.DecideTrump(keep))  # refused unless the hand was dealt
        while to_act(self.state):
            seat = to_act(self.state)[0]
            phase = self.state.phase
            if phase is Phase.KNOCK:
                self.act(seat, ac.Knock(seat not in passes))
            elif phase in (Phase.DRAW, Phase.DEALER_DRAW):
                self.act(seat, ac.Draw(cards(discards.get(seat, ""))))
            elif phase is Phase.DEALER_KNOCK:
                self.act(seat, ac.Knock(dealer_knocks))
            elif phase is Phase.DEALER_DISCARD and fourth is not None:
                self.act(seat, ac.DiscardFourth(parse(fourth)))
            elif phase is Phase.FACE_TRUMP and face_play is not None:
                self.act(seat, ac.FaceTrump(face_play))
            else:
                return

    def phase(self) -> Phase:
        """The phase now; a call, so that type checkers don't narrow it across actions."""
        return self.state.phase

    @property
    def result(self) -> object:
        return self.state.result
