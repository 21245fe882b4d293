"""Invariants of every Euchre table state, shared by the property and state-machine tests."""

from __future__ import annotations

from collections import Counter

from shared.games.euchre import events as ev
from shared.games.euchre.cards import DECK
from shared.games.euchre.codec import CODEC
from shared.games.euchre.dealing import deal
from shared.games.euchre.legal import default_action, legal_actions, to_act
from shared.games.euchre.scoring import POINTS
from shared.games.euchre.seat_default import seat_default
from shared.games.euchre.state import IN_HAND, Phase, State, team_of
from shared.games.euchre.views import view_for
from tests.engine import views
from tests.engine.euchre.support import cards_in_json


def check_cards(s: State) -> None:
    """While a hand is in play its 24 cards are each in exactly one place."""
    if s.phase not in IN_HAND:
        assert not any(s.hands) and s.turn_up is None and not s.kitty and not s.trick
        return
    places = [card for hand in s.hands for card in hand]
    places += s.kitty
    places += [card for _, card in s.trick]
    places += [card for trick in s.played for _, card in trick]
    if s.discard is not None:
        places.append(s.discard)
    assert s.turn_up is not None
    if s.turn_up_at in ("up", "down", "kitty"):
        places.append(s.turn_up)
    assert sorted(places) == list(DECK), f"cards lost or doubled: {Counter(places)}"
    sizes = [len(hand) for hand in s.hands]
    played = Counter(seat for trick in (*s.played, s.trick) for seat, _ in trick)
    for seat in range(4):
        extra = 1 if s.phase is Phase.DISCARD and seat == s.dealer else 0
        assert sizes[seat] == 5 + extra - played[seat]
    if s.resting is not None:
        assert played[s.resting] == 0


def public_cards(s: State) -> set[int]:
    public = {card for _, card in s.trick}
    public.update(card for trick in s.played for _, card in trick)
    if s.turn_up is not None:
        public.add(s.turn_up)
    return public


def check_views(s: State) -> None:
    """No view shows a card its seat may not see (the dealer sees its discard)."""

    def own(seat: int) -> set[int]:
        held = set(s.hands[seat])
        if seat == s.dealer and s.discard is not None:
            held.add(s.discard)
        return held

    views.check_views(s, view_for, CODEC, cards_in_json, public_cards(s), own)


def check_decisions(s: State) -> None:
    """Whoever the table waits for has a legal option, and its default is one of them."""
    pending = to_act(s)
    for seat in pending:
        assert s.players[seat] is not None
        legal = [o.action for o in legal_actions(s, seat) if o.legal]
        assert legal, f"seat {seat} is stuck at {s.phase}"
        default = default_action(s, seat)
        assert default in legal, f"the default {default} is not legal"
        assert getattr(default, "alone", False) is False, "the table never goes alone"
        assert seat_default(view_for(s, seat)) == default


def check_state(s: State) -> None:
    check_cards(s)
    check_decisions(s)
    assert CODEC.load_state(CODEC.dump_state(s)) == s
    check_views(s)


def check_event(before: State, event: ev.Event) -> None:
    """One event against the state it applies to."""
    assert CODEC.load_event(CODEC.dump_event(event)) == event
    if isinstance(event, ev.HandDealt):
        expected = deal(bytes.fromhex(before.seed), event.hand_no, event.dealer)
        assert (event.hands, event.turn_up, event.kitty) == expected, "not the documented deal"
        assert event.hand_no == before.hand_no + 1
        if before.button is None:
            assert event.dealer == before.first_dealer
        else:
            assert event.dealer == (before.button + 1) % 4
    elif isinstance(event, ev.HandScored):
        r = event.result
        assert len(before.winners) == 5 and before.maker is not None
        makers = team_of(before.maker)
        taken = sum(1 for seat in before.winners if team_of(seat) == makers)
        assert r.tricks[makers] == taken and sum(r.tricks) == 5
        points = [0, 0]
        if taken < 3:
            assert r.outcome == "euchred"
            points[1 - makers] = POINTS["euchred"]
        else:
            kind = ("alone_" if before.alone else "") + ("march" if taken == 5 else "made")
            assert r.outcome == kind
            points[makers] = {"made": 1, "march": 2, "alone_made": 1, "alone_march": 4}[kind]
        assert list(r.points) == points
        assert r.scores == (before.scores[0] + points[0], before.scores[1] + points[1])
    elif isinstance(event, ev.GameEnded):
        if event.reason == "target":
            assert event.winner is not None
            assert before.scores[event.winner] >= before.config.target
        else:
            assert max(before.scores) < before.config.target
            # Cut short: the forfeiting partnership's seats take nothing; the other is winner.
            teams = {seat % 2 for seat in event.forfeited}
            assert len(teams) <= 1
            assert event.winner == (1 - teams.pop() if teams else None)
            assert not any(event.payouts[seat] for seat in event.forfeited)
