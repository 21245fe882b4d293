"""The Contract Whist bots: always a legal action, never the hook's bid, bids and plays that
aim at the bid exactly, sampled worlds that agree with the view, reproducible searches."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.bots.contract_whist import arena, heuristics
from services.bots.contract_whist.knowledge import from_view, voids
from services.bots.contract_whist.levels import Easy, Hard, Medium
from services.bots.contract_whist.search import BID_SPREAD, sample_world
from services.bots.games import game_of
from services.bots.levels import LEVELS
from services.cli import main
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import DECK, suit_of
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.legal import legal_actions, to_act
from shared.games.contract_whist.state import Phase, State
from shared.games.contract_whist.views import view_for
from tests.bots.turns import ask_every_bot
from tests.engine.contract_whist.support import Table, cards

SEEDS = st.integers(0, 2**32)
SEATS = st.integers(2, 5)  # the table sizes Contract Whist is played at


def legal(state: State, seat: int) -> list[ac.Action]:
    return [o.action for o in legal_actions(state, seat) if o.legal]


def forbidden(state: State, seat: int) -> set[ac.Action]:
    return {o.action for o in legal_actions(state, seat) if not o.legal}


def ten_of_a_suit_each() -> Table:
    """A first round of ten cards at four seats: each seat the top ten of its own suit (seat
    0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
    t = Table(seats=4, rounds=17)
    t.start()
    t.rig(
        {
            0: "AS KS QS JS 10S 9S 8S 7S 6S 5S",
            1: "AH KH QH JH 10H 9H 8H 7H 6H 5H",
            2: "AD KD QD JD 10D 9D 8D 7D 6D 5D",
            3: "AC KC QC JC 10C 9C 8C 7C 6C 5C",
        }
    )
    return t


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, seats=SEATS, decisions=st.integers(10, 150), first=st.integers(0, 4))
def test_every_level_chooses_a_legal_action(
    seed: int, seats: int, decisions: int, first: int
) -> None:
    rng = random.Random(seed)
    t = Table(seats=seats, rounds=3, first=first % seats)
    t.start()
    bots: list[Any] = [Easy(rng), Medium(rng), Hard(rng, worlds=2), LEVELS["hard"](rng)]
    ask_every_bot("contract-whist", t, bots, decisions)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, seats=SEATS)
def test_medium_never_bids_the_forbidden_bid(seed: int, seats: int) -> None:
    """Every round of a game, whatever the others bid: the last bidder's choice is legal, and
    so never the bid that would make the bids total the cards."""
    rng = random.Random(seed)
    t = Table(seats=seats, rounds=17)
    t.start()
    medium = Medium(rng)
    while t.state.phase is not Phase.ENDED:
        seat = to_act(t.state)[0]
        options = legal(t.state, seat)
        if t.state.phase is Phase.BID and len(t.state.bids) < seats - 1:
            t.act(seat, rng.choice(options))  # the others bid anything
            continue
        choice = medium.choose(view_for(t.state, seat), options)
        assert choice not in forbidden(t.state, seat)
        t.act(seat, choice)


def test_the_medium_bid_counts_likely_tricks() -> None:
    assert heuristics.choose_bid(cards("AS AH AD AC KS KH"), range(7)) >= 4
    assert heuristics.choose_bid(cards("2S 3H 4D 5C 6S 7H"), range(7)) == 0
    # The likely count is forbidden: the nearest other bid.
    assert heuristics.choose_bid(cards("AS AH AD 2C 3C 4H"), [0, 1, 2, 4, 5, 6]) in (2, 4)


def test_the_medium_trump_is_the_strongest_long_suit_or_no_trumps() -> None:
    assert heuristics.choose_trump(cards("2S 5S 9S QS AS KH 3D 4C")) == suit_of(cards("2S")[0])
    assert heuristics.choose_trump(cards("AS AH AD AC KS KH KD KC")) is None


def test_medium_wins_tricks_it_needs_and_ducks_once_its_bid_is_made() -> None:
    t = ten_of_a_suit_each()
    t.bid(1, 0, 0, 0)
    t.trump(None)
    # Seat 0 needs a trick and leads: its best card.
    assert Medium(random.Random(1)).choose(view_for(t.state, 0), legal(t.state, 0)) == (
        ac.PlayCard(cards("AS")[0])
    )
    t.play((0, "AS"), (1, "5H"), (2, "5D"), (3, "5C"))
    # Its bid made, it leads its lowest card.
    assert Medium(random.Random(1)).choose(view_for(t.state, 0), legal(t.state, 0)) == (
        ac.PlayCard(cards("5S")[0])
    )


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, seats=SEATS, moves=st.integers(0, 60))
def test_a_sampled_world_agrees_with_what_the_seat_saw(seed: int, seats: int, moves: int) -> None:
    """The seat's own hand as it is; the others as many cards as they hold, none seen played
    or in the seat's hand, each once, and none of a suit the seat showed it lacks."""
    rng = random.Random(seed)
    t = Table(seats=seats, rounds=2)
    t.start()
    for _ in range(moves):
        if t.state.phase is Phase.ENDED:
            return
        seat = to_act(t.state)[0]
        if t.state.phase is Phase.TRICKS:
            k = from_view(view_for(t.state, seat))
            world = sample_world(k, rng)
            assert world[seat] == list(k.hand)
            held = [card for hand in world for card in hand]
            seen = [card for trick in (*k.played, k.trick) for _, card in trick]
            assert max(Counter([*held, *seen]).values()) == 1
            assert set(held) | set(seen) <= set(DECK)
            void = voids(k)
            for other, hand in enumerate(world):
                assert len(hand) == len(t.state.hands[other])
                if other != seat:
                    assert not {suit_of(card) for card in hand} & void[other]
        t.act(seat, rng.choice(legal(t.state, seat)))


def test_hard_is_reproducible_for_a_seed() -> None:
    choices = []
    for _ in range(2):
        t = Table(seats=4, rounds=1)
        t.start()
        bot, made = Hard(random.Random(42), worlds=6), []
        while t.state.phase not in (Phase.INTERLUDE, Phase.ENDED):
            seat = to_act(t.state)[0]
            action = bot.choose(view_for(t.state, seat), legal(t.state, seat))
            made.append(action)
            t.act(seat, action)
        choices.append(made)
    assert choices[0] == choices[1] and len(choices[0]) > 40


def to_round(seed: int, seats: int, round_no: int) -> Table:
    """A table at the start of the bidding of round ``round_no``, the rounds before played by
    the medium bot at every seat."""
    t = Table(seats=seats, rounds=17, first=seed % seats)
    t.start()
    medium = Medium(random.Random(seed))
    while t.state.round_no < round_no or t.state.phase is not Phase.BID:
        seat = to_act(t.state)[0]
        t.act(seat, medium.choose(view_for(t.state, seat), legal(t.state, seat)))
    return t


@settings(max_examples=30, deadline=None)
@given(
    seed=SEEDS, seats=SEATS, round_no=st.integers(1, 9), before=st.integers(0, 4), data=st.data()
)
def test_hard_bids_a_legal_bid_never_the_forbidden_one(
    seed: int, seats: int, round_no: int, before: int, data: st.DataObject
) -> None:
    """Whatever the bids before its own (anything from 0 to the cards), hard's bid is one of
    the legal bids, so never the hook's; as the last bidder, never the bid that would make the
    bids total the cards."""
    t = to_round(seed, seats, round_no)
    for _ in range(min(before, seats - 1)):
        seat = to_act(t.state)[0]
        t.act(seat, ac.MakeBid(data.draw(st.integers(0, t.state.cards), label="bid")))
    seat = to_act(t.state)[0]
    view = view_for(t.state, seat)
    choice = Hard(random.Random(seed), worlds=3).choose(view, legal(t.state, seat))
    assert isinstance(choice, ac.MakeBid) and choice in legal(t.state, seat)
    assert choice not in forbidden(t.state, seat)
    if len(view.bids) == seats - 1:
        assert sum(b.bid for b in view.bids) + choice.bid != t.state.cards
    bids = [a.bid for a in legal(t.state, seat) if isinstance(a, ac.MakeBid)]
    medium = heuristics.choose_bid(view.hand, bids)
    assert abs(choice.bid - medium) <= BID_SPREAD


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, seats=SEATS, round_no=st.integers(1, 9))
def test_hard_names_a_legal_trump_the_same_for_a_seed(seed: int, seats: int, round_no: int) -> None:
    t = to_round(seed, seats, round_no)
    rng = random.Random(seed)
    while t.state.phase is Phase.BID:
        seat = to_act(t.state)[0]
        t.act(seat, rng.choice(legal(t.state, seat)))
    seat = to_act(t.state)[0]
    options = legal(t.state, seat)
    assert len(options) == 5  # four suits and no trumps
    view = view_for(t.state, seat)
    choices = [Hard(random.Random(seed), worlds=3).choose(view, options) for _ in range(2)]
    assert choices[0] == choices[1] and choices[0] in options


def test_hard_bids_and_names_trump_by_playing_the_worlds_out() -> None:
    """Ten top spades: the medium bot counts about six tricks; hard's worlds take every trick
    at spades, so it bids as high as it searches (the medium bid and two more) and names
    spades."""
    t = ten_of_a_suit_each()
    options = legal(t.state, 0)
    medium = Medium(random.Random(1)).choose(view_for(t.state, 0), options)
    hard = Hard(random.Random(1)).choose(view_for(t.state, 0), options)
    assert isinstance(medium, ac.MakeBid) and hard == ac.MakeBid(medium.bid + BID_SPREAD)
    t.act(0, hard)
    t.bid(0, 0, 0)
    assert Hard(random.Random(1)).choose(view_for(t.state, 0), legal(t.state, 0)) == (
        ac.ChooseTrump(suit_of(cards("AS")[0]))
    )


def test_the_bots_service_reads_a_contract_whist_view() -> None:
    t = Table(seats=3, rounds=1)
    t.start()
    data = json.loads(json.dumps(CODEC.dump_view(view_for(t.state, to_act(t.state)[0]))))
    played = game_of(data)
    assert played is not None and played.name == "contract-whist"
    view = played.load_view(data)
    assert played.dump_action(played.seat_default(view))["kind"] == "bid"


def test_medium_beats_easy_in_the_arena() -> None:
    result = arena.play(("medium", "easy"), 4, 30, seed=3, rounds=5)
    assert result.margin.low > 0
    assert result.points["medium"].mean > result.points["easy"].mean


def test_hard_scores_at_least_medium_in_a_short_arena() -> None:
    """Deterministic for the seed: hard bots search a fixed number of worlds."""
    result = arena.play(("hard", "medium"), 4, 4, seed=1, rounds=5, hard_worlds=8)
    assert result.points["hard"].mean >= result.points["medium"].mean


def test_the_arena_command_plays_contract_whist(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--game", "contract-whist", "--seats", "medium,easy"]
    assert main([*args, "--players", "3", "--games", "4", "--rounds", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "contract-whist" and report["games"] == 4 and report["players"] == 3
    assert report["margin"]["low"] <= report["margin"]["mean"] <= report["margin"]["high"]
    assert main([*args, "--players", "6"]) == 2
    assert main(["arena", "--game", "contract-whist", "--seats", "medium,nobody"]) == 2
