"""Invariants of every Contract Whist table state, shared by the property and state-machine
tests."""

from __future__ import annotations

import math
from collections import Counter

from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import DECK
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.dealing import bidder_of_round, deal
from shared.games.contract_whist.legal import default_action, legal_actions, to_act
from shared.games.contract_whist.money import split
from shared.games.contract_whist.seat_default import seat_default
from shared.games.contract_whist.state import IN_ROUND, Phase, State, cards_in_round
from shared.games.contract_whist.views import view_for
from tests.engine import views
from tests.engine.contract_whist.support import cards_in_json


def points_by_formula(cards: int, bid: int, tricks: int, total: int) -> int:
    """The scoring rule, written out again independently of the engine."""
    if tricks == bid:
        if bid > 0:
            return cards + bid
        return math.floor(cards / 2) if total > cards else math.ceil(cards / 2)
    return -abs(tricks - bid)


def check_cards(s: State) -> None:
    """While a round is in play its 52 cards are each in exactly one place."""
    if s.phase not in IN_ROUND:
        assert not any(s.hands) and not s.undealt and not s.trick
        return
    places = [card for hand in s.hands for card in hand]
    places += s.undealt
    places += [card for _, card in s.trick]
    places += [card for trick in s.played for _, card in trick]
    assert sorted(places) == list(DECK), f"cards lost or doubled: {Counter(places)}"
    assert len(s.undealt) == 52 - s.n * s.cards
    played = Counter(seat for trick in (*s.played, s.trick) for seat, _ in trick)
    for seat in range(s.n):
        assert len(s.hands[seat]) == s.cards - played[seat]
    assert len(s.takers) == len(s.played) <= s.cards


def check_bids(s: State) -> None:
    if s.phase in IN_ROUND:
        assert [b.seat for b in s.bids] == s.order()[: len(s.bids)]
        if len(s.bids) == s.n:
            assert sum(b.bid for b in s.bids) != s.cards, "the bids total the cards"


def check_views(s: State) -> None:
    """No view shows a card its seat may not see."""
    public = {card for _, card in s.trick}
    public.update(card for trick in s.played for _, card in trick)
    views.check_views(s, view_for, CODEC, cards_in_json, public, lambda seat: set(s.hands[seat]))


def check_decisions(s: State) -> None:
    """Whoever the table waits for has a legal option, and its default is one of them."""
    for seat in to_act(s):
        assert s.players[seat] is not None
        legal = [o.action for o in legal_actions(s, seat) if o.legal]
        assert legal, f"seat {seat} is stuck at {s.phase}"
        default = default_action(s, seat)
        assert default in legal, f"the default {default} is not legal"
        assert seat_default(view_for(s, seat)) == default


def check_state(s: State) -> None:
    check_cards(s)
    check_bids(s)
    check_decisions(s)
    assert CODEC.load_state(CODEC.dump_state(s)) == s
    check_views(s)
    if s.phase in (Phase.LOBBY, Phase.ENDED, Phase.CLOSED):
        assert s.pot == 0, "chips left in the pot between games"
    else:
        assert s.pot == s.config.stake * s.n, "the pot holds every stake while a game is on"


def check_event(before: State, event: ev.Event) -> None:
    """One event against the state it applies to."""
    assert CODEC.load_event(CODEC.dump_event(event)) == event
    if isinstance(event, ev.RoundDealt):
        assert event.round_no == before.round_no + 1 <= before.config.rounds
        assert event.cards == cards_in_round(event.round_no)
        assert before.first_bidder is not None
        assert event.first_bidder == bidder_of_round(before.first_bidder, event.round_no, before.n)
        expected = deal(
            bytes.fromhex(before.seed), event.round_no, event.first_bidder, before.n, event.cards
        )
        assert (event.hands, event.undealt) == expected, "not the documented deal"
    elif isinstance(event, ev.TrumpChosen):
        top = max(b.bid for b in before.bids)
        assert event.seat == next(b.seat for b in before.bids if b.bid == top)
    elif isinstance(event, ev.RoundScored):
        r = event.result
        assert len(before.takers) == before.cards
        total = sum(b.bid for b in before.bids)
        assert total != before.cards
        taken = before.tricks_taken()
        for seat in range(before.n):
            bid = before.bid_of(seat)
            assert bid is not None and r.bids[seat] == bid and r.tricks[seat] == taken[seat]
            assert r.points[seat] == points_by_formula(before.cards, bid, taken[seat], total)
            assert r.totals[seat] == before.scores[seat] + r.points[seat]
    elif isinstance(event, ev.GameEnded):
        assert sum(event.payouts) == before.pot, "the pot pays out completely"
        if event.reason == "rounds":
            assert before.round_no == before.config.rounds
            top = max(before.scores)
            assert event.winners == tuple(
                seat for seat in range(before.n) if before.scores[seat] == top
            )
        assert event.payouts == split(before.pot, event.winners, before.first_bidder or 0, before.n)
        # Those who ended the game early take nothing and are none of the winners.
        assert not set(event.forfeited) & set(event.winners)
        assert event.reason != "rounds" or not event.forfeited
        for seat in range(before.n):
            if event.payouts[seat]:
                assert before.players[seat] is not None
