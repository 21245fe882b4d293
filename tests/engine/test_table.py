"""The table's lifecycle is one for every game: its events are the same at every table and keep
their wire form (stored in every table's log), and each game's rules name its phases and handle
every one of its actions."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from shared.games.contract_whist import actions as whist_actions
from shared.games.contract_whist import cards as whist_cards
from shared.games.contract_whist import decide as whist
from shared.games.contract_whist import events as whist_events
from shared.games.contract_whist.state import Phase as WhistPhase
from shared.games.euchre import actions as euchre_actions
from shared.games.euchre import cards as euchre_cards
from shared.games.euchre import decide as euchre
from shared.games.euchre import events as euchre_events
from shared.games.euchre.state import Phase as EuchrePhase
from shared.games.lifecycle import Player
from shared.games.registry import game
from shared.games.swick import actions as swick_actions
from shared.games.swick import cards as swick_cards
from shared.games.swick import decide as swick
from shared.games.swick import events as swick_events
from shared.games.swick.state import Phase as SwickPhase
from shared.games.table import events as ev
from shared.games.table import flow
from shared.games.table.rules import Rules

GAMES = ("swick", "euchre", "contract-whist")

WIRE: list[tuple[Any, dict[str, Any]]] = [
    (ev.Accepted("a-1", 2), {"action_id": "a-1", "actor": 2, "kind": "accepted"}),
    (ev.Accepted("t", None), {"action_id": "t", "actor": None, "kind": "accepted"}),
    (
        ev.SeatTaken(1, Player("p-1", "Ann", "hard"), 500),
        {
            "seat": 1,
            "player": {"id": "p-1", "name": "Ann", "bot": "hard"},
            "stack": 500,
            "kind": "seat_taken",
        },
    ),
    (ev.SeatLeft(1), {"seat": 1, "kind": "seat_left"}),
    (ev.LeavingAfterHand(0), {"seat": 0, "kind": "leaving_after_hand"}),
    (ev.SatOut(0, True), {"seat": 0, "sitting_out": True, "kind": "sat_out"}),
    (
        ev.ConnectionChanged(1, False),
        {"seat": 1, "connected": False, "kind": "connection_changed"},
    ),
    (ev.HostChanged(None), {"seat": None, "kind": "host_changed"}),
    (ev.Waiting(), {"kind": "waiting"}),
    (
        ev.InterludeStarted((0, 2), 12345),
        {"seats": [0, 2], "until": 12345, "kind": "interlude_started"},
    ),
    (ev.ResultSeen(2), {"seat": 2, "kind": "result_seen"}),
    (ev.InterludeEnded(), {"kind": "interlude_ended"}),
    (ev.TimedOut(1), {"seat": 1, "kind": "timed_out"}),
    (ev.DeadlineSet(None), {"at": None, "kind": "deadline_set"}),
    (ev.AttendanceChanged(99), {"unattended_since": 99, "kind": "attendance_changed"}),
    (ev.TableClosed(), {"kind": "table_closed"}),
]


def test_the_wire_list_covers_every_lifecycle_event() -> None:
    assert {type(event) for event, _ in WIRE} == set(typing.get_args(ev.LifecycleEvent))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("event", "wire"), WIRE, ids=[w["kind"] for _, w in WIRE])
def test_a_lifecycle_event_is_the_same_on_every_games_wire(
    name: str, event: Any, wire: dict[str, Any]
) -> None:
    module = game(name)
    assert module.dump_event(event) == wire
    loaded = module.load_event(wire)
    assert type(loaded) is type(event) and loaded == event


CARD_EVENTS = [
    ("swick", swick_events, swick_cards.CODES),
    ("euchre", euchre_events, euchre_cards.CODES),
    ("contract-whist", whist_events, whist_cards.CODES),
]


@pytest.mark.parametrize(("name", "events", "codes"), CARD_EVENTS, ids=GAMES)
def test_the_tables_card_events_carry_each_games_own_card_codes(
    name: str, events: Any, codes: Any
) -> None:
    module = game(name)
    card = 5
    played = events.CardPlayed(2, card)
    wire: dict[str, Any] = {"seat": 2, "card": codes.code(card), "kind": "card_played"}
    assert module.dump_event(played) == wire and module.load_event(wire) == played
    if hasattr(events, "DealerDiscarded"):  # Swick and Euchre: the dealer has a card too many
        discarded = events.DealerDiscarded(card)
        wire = {"card": codes.code(card), "kind": "dealer_discarded"}
        assert module.dump_event(discarded) == wire and module.load_event(wire) == discarded


def test_a_closing_names_its_quitters_only_where_a_game_is_forfeited() -> None:
    quitting = {"quitters": [0, 2], "kind": "table_closing"}
    for name in ("euchre", "contract-whist"):
        assert game(name).dump_event(game(name).load_event(quitting)) == quitting
    assert game("swick").dump_event(game("swick").load_event({"kind": "table_closing"})) == {
        "kind": "table_closing"
    }


RULES: list[tuple[Rules[Any], Any, Any]] = [
    (swick.RULES, SwickPhase, swick_actions.Action),
    (euchre.RULES, EuchrePhase, euchre_actions.Action),
    (whist.RULES, WhistPhase, whist_actions.Action),
]


@pytest.mark.parametrize(("rules", "phase", "action"), RULES, ids=GAMES)
def test_a_games_rules_name_its_phases_and_handle_all_its_actions(
    rules: Rules[Any], phase: Any, action: Any
) -> None:
    named = (rules.lobby, rules.waiting, rules.interlude, rules.ended, rules.closed)
    assert named == (phase.LOBBY, phase.WAITING, phase.INTERLUDE, phase.ENDED, phase.CLOSED)
    kinds = {typing.get_origin(kind) or kind for kind in typing.get_args(action)}  # PlayCard[Card]
    assert kinds == set(flow.HANDLERS) | set(rules.handlers)
    assert not set(flow.HANDLERS) & set(rules.handlers)  # a table action is the lifecycle's
    assert rules.host_may_end <= rules.between_hands
