"""A small driver for the pure Contract Whist engine, for tests: seat players, start, rig deals."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import DECK, label, parse
from shared.games.contract_whist.dealing import first_bidder
from shared.games.contract_whist.state import Phase, State, TableConfig
from shared.games.lifecycle import Player, TakeSeat
from tests.engine.driver import GameTable, seed_where
from tests.engine.named_cards import card_finder

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def cards(text: str) -> tuple[int, ...]:
    """``"QH AS 10D"`` as cards."""
    return tuple(parse(code) for code in text.split())


def seed_with_first_bidder(bidder: int, seats: int) -> str:
    """A deterministic seed whose first round's first bidder is ``bidder``."""
    return seed_where("whist-test-seed", lambda seed: first_bidder(seed, seats) == bidder)


class Table(GameTable[TableConfig, State, ac.Action, ev.Event]):
    """One table driven command by command. Seat 0 bids first in round 1 unless told otherwise."""

    def __init__(
        self,
        *,
        seats: int = 4,
        rounds: int = 17,
        stake: int = 0,
        stacks: Sequence[int] | None = None,
        timer_ms: int | None = None,
        first: int = 0,
        interlude_ms: int | None = None,
    ) -> None:
        config = TableConfig(
            seats=seats,
            rounds=rounds,
            stake=stake,
            timer_ms=timer_ms,
            private=True,
            interlude_ms=interlude_ms,
        )
        seed = seed_with_first_bidder(first, seats)
        super().__init__(CONTRACT_WHIST, config, seed, play_card=ac.PlayCard, parse=parse)
        for seat in range(seats):
            stack = 1000 if stacks is None else stacks[seat]
            self.act(None, TakeSeat(seat, Player(f"p{seat}", NAMES[seat]), stack))

    def rig(self, hands: dict[int, str]) -> None:
        """Replace the deal of the round just dealt with these cards (the undealt cards are the
        rest of the deck in order), rebuilding the state through ``evolve``."""
        index = max(i for i, e in enumerate(self.events) if isinstance(e, ev.RoundDealt))
        dealt = self.events[index]
        assert isinstance(dealt, ev.RoundDealt)
        assert self.state.phase is Phase.BID and not self.state.bids, "rig a fresh deal"
        held = {seat: cards(text) for seat, text in hands.items()}
        n = self.state.n
        assert set(held) == set(range(n)), "every seat's cards"
        assert all(len(h) == dealt.cards for h in held.values()), "the round's number of cards"
        named = [*itertools.chain.from_iterable(held.values())]
        assert len(set(named)) == len(named), "a card named twice"
        rest = tuple(card for card in DECK if card not in named)
        rigged = ev.RoundDealt(
            dealt.round_no,
            dealt.cards,
            dealt.first_bidder,
            tuple(held[seat] for seat in range(n)),
            rest,
        )
        self.events[index] = rigged
        self.state = self.replay(self.events)

    def bid(self, *bids: int) -> None:
        """The next bids, in turn."""
        for bid in bids:
            self.act(self.turn(), ac.MakeBid(bid))

    def trump(self, suit: int | None) -> None:
        self.act(self.turn(), ac.ChooseTrump(suit))

    def phase(self) -> Phase:
        """The phase now; a call, so that type checkers don't narrow it across actions."""
        return self.state.phase


cards_in_json = card_finder(DECK, label, parse)
