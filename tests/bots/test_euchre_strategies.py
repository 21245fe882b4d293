"""The Euchre bots: always a legal action, sensible calls and plays, reproducible searches."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.bots.euchre import arena, heuristics
from services.bots.euchre.knowledge import Knowledge, from_state, from_view
from services.bots.euchre.levels import Easy, Hard, Medium
from services.bots.euchre.search import sample_world, voids
from services.bots.levels import LEVELS
from services.cli import main
from shared.games.euchre import actions as ac
from shared.games.euchre.cards import DECK, code, effective_suit, parse
from shared.games.euchre.legal import legal_actions, to_act
from shared.games.euchre.state import Phase, State
from shared.games.euchre.views import view_for
from tests.bots.turns import ask_every_bot
from tests.engine.euchre.support import Table, cards


def legal(state: State, seat: int) -> list[ac.Action]:
    return [o.action for o in legal_actions(state, seat) if o.legal]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), decisions=st.integers(10, 120), dealer=st.integers(0, 3))
def test_every_level_chooses_a_legal_action(seed: int, decisions: int, dealer: int) -> None:
    rng = random.Random(seed)
    t = Table(target=10, first_dealer=dealer)
    t.start()
    bots: list[Any] = [Easy(rng), Medium(rng), Hard(rng, worlds=2), LEVELS["medium"](rng)]
    ask_every_bot("euchre", t, bots, decisions)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 60), dealer=st.integers(0, 3))
def test_a_sampled_world_agrees_with_what_the_seat_saw(seed: int, moves: int, dealer: int) -> None:
    """Every card once; the seat's own hand and everything public as it saw them; the other
    seats hold as many cards as they do, and none of a suit they showed they lack."""
    rng = random.Random(seed)
    t = Table(target=10, first_dealer=dealer)
    t.start()
    for _ in range(moves):
        if t.state.phase is Phase.ENDED:
            return
        seat = to_act(t.state)[0]
        if t.state.phase in (Phase.ORDER, Phase.NAME, Phase.DISCARD, Phase.TRICKS):
            check_world(t.state, seat, rng)
        t.act(seat, rng.choice(legal(t.state, seat)))


def check_world(state: State, seat: int, rng: random.Random) -> None:
    view = view_for(state, seat)
    world = sample_world(view, rng)
    played = [card for trick in (*world.played, world.trick) for _, card in trick]
    held = [card for hand in world.hands for card in hand]
    where = [*held, *played, *world.kitty]
    if world.turn_up is not None and world.turn_up_at != "taken":
        where.append(world.turn_up)
    if world.discard is not None:
        where.append(world.discard)
    assert Counter(where) == Counter(DECK), view.phase
    assert view_for(world, seat) == view
    for other, hand in enumerate(world.hands):
        assert len(hand) == len(state.hands[other])


def test_a_seat_that_did_not_follow_is_dealt_none_of_the_suit_led() -> None:
    t = Table(first_dealer=0)
    t.start()
    t.rig(
        {0: "9C 10C QC KC AC", 1: "JH 9S 10S QS KS", 2: "9D 10D QD KD AD", 3: "AS 9H 10H QH KH"},
        turn_up="AH",
    )
    t.act(1, ac.OrderUp(alone=False))
    t.act(0, ac.Discard(parse("9C")))
    t.play((1, "9S"), (2, "9D"))  # seat 2 has no spade
    view = view_for(t.state, 3)
    assert voids(view)[2] == {3}
    for n in range(20):
        world = sample_world(view, random.Random(n))
        assert not any(effective_suit(card, 2) == 3 for card in world.hands[2])


def order_choice(hand: str, turn_up: str) -> ac.Action:
    """What the medium bot says first in the first round (seat 1; seat 0 deals) with ``hand``."""
    t = Table(first_dealer=0)
    t.start()
    rest = iter(card for card in DECK if card not in cards(hand) and card != parse(turn_up))
    others = {s: " ".join(code(next(rest)) for _ in range(5)) for s in (0, 2, 3)}
    t.rig({1: hand, **others}, turn_up)
    assert to_act(t.state) == (1,)
    return Medium(random.Random(1)).choose(view_for(t.state, 1), legal(t.state, 1))


def test_medium_orders_up_a_strong_hand_and_passes_a_weak_one() -> None:
    # Seat 1 leads off (seat 0 deals); trump would be hearts.
    assert order_choice("JH JD AH KS 9C", "9H") == ac.OrderUp(alone=False)
    assert order_choice("9S 10S QC KD 10C", "9H") == ac.Pass()


def test_medium_goes_alone_only_with_a_very_strong_hand() -> None:
    assert order_choice("JH JD AH KH QH", "9H") == ac.OrderUp(alone=True)
    assert order_choice("JH AH KH AS 9C", "9H") == ac.OrderUp(alone=False)


def test_the_turn_up_counts_for_the_dealers_side_and_against_the_other() -> None:
    hand = "JD QH AS KC 10S"  # about two and a half tricks in hearts
    worth = {
        seat: heuristics.order_worth(_knowledge(hand, "JH", seat, dealer=0)) for seat in (1, 2)
    }
    assert worth[2] > worth[1]  # seat 2 is the dealer's partner: the right bower comes to it


def _knowledge(hand: str, turn_up: str, seat: int, dealer: int) -> Knowledge:
    return Knowledge(
        seat=seat,
        phase=Phase.ORDER,
        hand=cards(hand),
        dealer=dealer,
        turn_up=parse(turn_up),
        turn_up_at="up",
        trump=None,
        maker=None,
        alone=False,
        trick=(),
        played=(),
    )


def test_the_dealer_discards_the_weakest_off_suit_card() -> None:
    hearts = 2
    # A singleton off-suit card goes first, to leave a void; never a side Ace when another will do.
    assert heuristics.weakest(cards("JH AH 9H AS 9C KS"), hearts) == parse("9C")
    assert heuristics.weakest(cards("JH AH 9H AS QS KS"), hearts) == parse("QS")
    assert heuristics.weakest(cards("JH AH 9H KH QH 10H"), hearts) == parse("9H")


def test_medium_takes_a_trick_cheaply_and_leaves_one_its_partner_holds() -> None:
    spades = 3
    k = replace(
        _knowledge("AS 10S AD QD 9D", "9H", seat=2, dealer=0), phase=Phase.TRICKS, trump=spades
    )
    # An opponent led the King of diamonds: the Ace takes it (no need to trump, none allowed).
    assert play(replace(k, trick=((1, parse("KD")),)), "AD 9D") == "AD"
    # The partner's right bower holds the trick: throw the cheapest card.
    assert play(replace(k, trick=((0, parse("JS")), (1, parse("9S")))), "AS 10S") == "10S"
    # An opponent's Ace of clubs led, no club held: the cheapest trump takes it.
    assert play(replace(k, trick=((1, parse("AC")),)), "AS 10S AD QD 9D") == "10S"
    # Leading, with the other side's trump: a side Ace, a sure trick but for a trump.
    assert play(replace(k, maker=1), "AS 10S AD QD 9D") == "AD"


def play(k: Knowledge, legal: str) -> str:
    return code(heuristics.play(k, cards(legal)))


def test_the_same_seed_makes_the_same_hard_choices() -> None:
    t = Table(first_dealer=1)
    t.start()
    choices = []
    for seed in (7, 7):
        state, bot, made = t.state, Hard(random.Random(seed), worlds=6), []
        for _ in range(25):
            if state.phase is Phase.INTERLUDE or state.phase is Phase.ENDED:
                break
            seat = to_act(state)[0]
            action = bot.choose(view_for(state, seat), legal(state, seat))
            made.append(action)
            t.state = state
            t.act(seat, action)
            state = t.state
        choices.append(made)
        t = Table(first_dealer=1)
        t.start()
    assert choices[0] == choices[1]


def test_knowledge_from_a_view_and_from_the_state_agree() -> None:
    t = Table(first_dealer=2)
    t.start()
    for _ in range(12):
        seat = to_act(t.state)[0]
        assert from_view(view_for(t.state, seat)) == from_state(t.state, seat)
        t.act(seat, legal(t.state, seat)[-1])


def test_medium_beats_easy_in_the_arena() -> None:
    result = arena.play(("medium", "easy"), 30, seed=3)
    assert result.margin.low > 0 and result.wins > 0.5


def test_the_arena_command_plays_euchre(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--game", "euchre", "--seats", "medium,easy", "--games", "6", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "euchre" and report["games"] == 6
    assert report["margin"]["low"] <= report["margin"]["mean"] <= report["margin"]["high"]
    assert main(["arena", "--game", "euchre", "--seats", "medium,easy,hard"]) == 2
