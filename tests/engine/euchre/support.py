"""A small driver for the pure Euchre engine, for tests: seat four players, start, rig deals."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from shared.games.euchre import EUCHRE
from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK, label, parse
from shared.games.euchre.dealing import first_dealer
from shared.games.euchre.state import Phase, State, TableConfig
from shared.games.lifecycle import AddBot, Player, TakeSeat
from tests.engine.driver import GameTable, seed_where
from tests.engine.named_cards import card_finder

NAMES = ("South", "West", "North", "East")


def cards(text: str) -> tuple[int, ...]:
    """``"JH AS 10D"`` as cards."""
    return tuple(parse(code) for code in text.split())


def seed_with_first_dealer(dealer: int) -> str:
    """A deterministic seed whose first dealer is ``dealer``."""
    return seed_where("euchre-test-seed", lambda seed: first_dealer(seed) == dealer)


class Table(GameTable[TableConfig, State, ac.Action, ev.Event]):
    """One table driven command by command. Seat 0 deals the first hand unless told otherwise."""

    def __init__(
        self,
        *,
        target: int = 10,
        timer_ms: int | None = None,
        first_dealer: int = 0,
        interlude_ms: int | None = None,
        stake: int = 0,
        stacks: Sequence[int] = (0, 0, 0, 0),
        bots: Sequence[int] = (),
    ) -> None:
        config = TableConfig(
            target=target,
            timer_ms=timer_ms,
            private=True,
            interlude_ms=interlude_ms,
            stake=stake,
        )
        seed = seed_with_first_dealer(first_dealer)
        super().__init__(EUCHRE, config, seed, play_card=ac.PlayCard, parse=parse)
        for seat in range(4):
            if seat not in bots:
                self.act(None, TakeSeat(seat, Player(f"p{seat}", NAMES[seat]), stacks[seat]))
        for seat in bots:  # seated by the host, seat 0
            self.act(0, AddBot(seat, Player(f"b{seat}", NAMES[seat], "medium"), stacks[seat]))

    def rig(self, hands: dict[int, str], turn_up: str, kitty: str = "") -> None:
        """Replace the deal of the hand just dealt with these cards (the kitty gets ``kitty``
        then the unnamed cards in deck order), rebuilding the state through ``evolve``."""
        index = max(i for i, e in enumerate(self.events) if isinstance(e, ev.HandDealt))
        dealt = self.events[index]
        assert isinstance(dealt, ev.HandDealt)
        assert self.state.phase is Phase.ORDER and not self.state.calls, "rig a fresh deal"
        held = {seat: cards(text) for seat, text in hands.items()}
        assert set(held) == {0, 1, 2, 3} and all(len(h) == 5 for h in held.values())
        named = [*itertools.chain.from_iterable(held.values()), parse(turn_up), *cards(kitty)]
        assert len(set(named)) == len(named), "a card named twice"
        rest = [card for card in DECK if card not in named]
        kitty_cards = (*cards(kitty), *rest)
        assert len(kitty_cards) == 3
        rigged = ev.HandDealt(
            dealt.hand_no,
            dealt.dealer,
            tuple(held[seat] for seat in range(4)),
            parse(turn_up),
            kitty_cards,
        )
        self.events[index] = rigged
        self.state = self.replay(self.events)

    def phase(self) -> Phase:
        """The phase now; a call, so that type checkers don't narrow it across actions."""
        return self.state.phase


cards_in_json = card_finder(DECK, label, parse)
