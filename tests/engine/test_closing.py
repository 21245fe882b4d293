"""Tables end: a table nobody attends closes at its next hand boundary, settled, on the clock
the table gives it; a table with no person seated never plays on."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from shared.games.lifecycle import AddBot, CloseTable, Leave, Player, SetConnected, TakeSeat
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.decide import carry_shares
from shared.games.swick.legal import default_action, to_act
from shared.games.swick.money import transfers
from shared.games.swick.state import Phase
from tests.engine.support import Table

ABANDON_MS = 300_000


def disconnect_everyone(t: Table) -> None:
    for seat, player in enumerate(t.state.players):
        if player is not None and player.bot is None and t.state.connected[seat]:
            t.act(None, SetConnected(seat, False))


def wallets_moved(t: Table, events: list[ev.Event]) -> dict[str, int]:
    """What a command's events move into (+) or out of (-) each account."""
    moved: dict[str, int] = {}
    before = t.replay(t.events[: len(t.events) - len(events)])
    for move in transfers(before, events):
        moved[move.debit] = moved.get(move.debit, 0) - move.amount
        moved[move.credit] = moved.get(move.credit, 0) + move.amount
    return moved


def test_an_unattended_table_closes_after_the_abandon_time_at_the_hand_boundary() -> None:
    t = Table(timer_ms=30_000)
    t.start()
    t.ready_all()
    assert t.phase() is Phase.TRUMP  # a hand in play
    t.now = 1_000
    disconnect_everyone(t)
    assert t.state.unattended_since == 1_000
    t.now = 1_000 + ABANDON_MS - 1
    t.refuse(None, CloseTable(ABANDON_MS), "not_due")
    t.now = 1_000 + ABANDON_MS
    t.act(None, CloseTable(ABANDON_MS))
    assert t.state.closing and t.phase() is Phase.TRUMP  # the hand in play finishes first
    while t.phase() is not Phase.CLOSED:
        t.expire()
    assert t.state.players == (None, None, None)
    ended = [e for e in t.events if isinstance(e, ev.GameEnded)]
    assert len(ended) == 1 and ended[0].reason == "closed"
    # Every chip went back to a wallet: the stacks players left with are their balances.
    assert sum(s.stack for s in ended[0].standings) + t.state.carry == 3 * 10_000
    assert t.state.pot == 0
    t.refuse(None, TakeSeat(0, Player("late", "Late"), 100), "table_closed")


def idle_until_unattended() -> Table:
    """A hand dealt at a timed table whose three people, still connected, let every decision
    time out until the table counts them all away."""
    t = Table(timer_ms=30_000)
    t.start()
    t.ready_all()
    for _ in range(12):  # two timeouts each at most, a phase at a time
        if t.state.unattended_since is not None:
            return t
        t.expire()
    raise AssertionError(f"still attended after timeouts {t.state.timeouts}")


def test_people_who_stay_connected_but_stop_answering_leave_the_table_unattended() -> None:
    """Screens left open do not hold a table for ever: two timeouts running make a person away,
    and a table whose people are all away closes as abandoned; acting again brings one back."""
    t = idle_until_unattended()
    assert all(t.state.connected) and min(t.state.timeouts) >= 2
    since = t.state.unattended_since
    assert since is not None
    t.now = since + ABANDON_MS
    t.act(None, CloseTable(ABANDON_MS))
    while t.phase() is not Phase.CLOSED:
        t.expire()
    ended = [e for e in t.events if isinstance(e, ev.GameEnded)]
    assert len(ended) == 1 and ended[0].reason == "closed"


def test_a_person_answering_again_makes_the_table_attended() -> None:
    t = idle_until_unattended()
    seat = to_act(t.state)[0]
    t.act(seat, default_action(t.state, seat))
    assert t.state.timeouts[seat] == 0 and t.state.unattended_since is None
    t.refuse(None, CloseTable(ABANDON_MS), "attended")


def test_a_person_back_in_time_keeps_the_table_open() -> None:
    t = Table()
    t.now = 5_000
    disconnect_everyone(t)
    t.now = 6_000
    t.act(None, SetConnected(1, True))
    assert t.state.unattended_since is None
    t.now = 10 * ABANDON_MS
    t.refuse(None, CloseTable(ABANDON_MS), "attended")
    t.act(None, SetConnected(1, False))
    assert t.state.unattended_since == 10 * ABANDON_MS  # the clock starts again


def test_a_closed_table_between_hands_closes_at_once_and_refuses_everything() -> None:
    t = Table()
    t.start()
    disconnect_everyone(t)
    t.now = ABANDON_MS
    t.act(None, CloseTable(ABANDON_MS))
    assert t.phase() is Phase.CLOSED
    assert not any(t.state.players)
    t.refuse(0, ac.ChooseAnte(3), "table_closed")
    t.refuse(None, CloseTable(0), "table_closed")


def test_the_last_person_leaving_stops_a_bot_table_at_the_hand_boundary() -> None:
    t = Table(timer_ms=30_000)
    # Seats 1 and 2 become bots: the people there leave, the host seats bots.
    for seat in (1, 2):
        t.act(seat, Leave())
        t.act(0, AddBot(seat, Player(f"bot:{seat}", f"Bot {seat}", "medium"), 10_000))
    t.start()
    t.ready_all()
    t.act(0, Leave())  # dealt in: leaves after this hand
    assert t.phase() is not Phase.CLOSED
    hands = t.state.hand_no
    while t.phase() is not Phase.CLOSED:
        assert to_act(t.state)
        t.expire()  # the bots' and the leaver's decisions, by the defaults
    assert t.state.hand_no == hands  # no other hand was dealt
    assert t.state.players == (None, None, None)


def test_an_empty_table_closes_when_its_host_leaves_before_a_game() -> None:
    t = Table()
    for seat in (1, 2, 0):
        t.act(seat, Leave())
    assert t.phase() is Phase.CLOSED


def test_a_table_that_could_not_be_set_up_closes_on_request() -> None:
    t = Table()
    t.act(None, CloseTable())
    assert t.phase() is Phase.CLOSED and not any(t.state.players)


def test_the_carry_goes_to_the_seated_players_when_the_table_closes() -> None:
    t = Table()
    t.start()
    # Scenario 5: all in; tricks L 2, D 1, M 0: M is set 12 and the carry is 12.
    t.rig({1: "AS KS 7H", 2: "8C 9C 10C", 0: "AH 8D 9D"}, "7S")
    t.to_tricks()
    t.play((1, "AS"), (2, "8C"), (0, "8D"), (1, "KS"), (2, "9C"), (0, "9D"))
    t.play((1, "7H"), (2, "10C"), (0, "AH"))
    assert t.state.carry == 12
    before = t.state.stacks
    disconnect_everyone(t)
    t.now = ABANDON_MS
    events = t.act(None, CloseTable(ABANDON_MS))
    shared = next(e for e in events if isinstance(e, ev.CarryShared))
    assert sum(shared.shares) == 12 and max(shared.shares) - min(shared.shares) <= 1
    moved = wallets_moved(t, events)
    assert moved == {"carry": -12} | {
        f"wallet:p{seat}": share for seat, share in enumerate(shared.shares) if share
    }
    ended = next(e for e in events if isinstance(e, ev.GameEnded))
    assert {s.seat: s.stack for s in ended.standings} == {
        seat: before[seat] + shared.shares[seat] for seat in range(3)
    }
    assert t.phase() is Phase.CLOSED and t.state.carry == 0


@given(st.integers(0, 10_000), st.lists(st.booleans(), min_size=3, max_size=6), st.data())
def test_carry_shares_add_up_and_differ_by_a_cent_at_most(
    carry: int, seated: list[bool], data: st.DataObject
) -> None:
    t = Table(seats=len(seated))
    players = tuple(Player(f"p{i}", "P") if here else None for i, here in enumerate(seated))
    button = data.draw(st.none() | st.integers(0, len(seated) - 1))
    state = dataclasses.replace(t.state, players=players, carry=carry, button=button)
    shares = carry_shares(state)
    if any(seated):
        assert sum(shares) == carry
        given_shares = [s for s, here in zip(shares, seated, strict=True) if here]
        assert max(given_shares) - min(given_shares) <= 1
    assert all(s == 0 for s, here in zip(shares, seated, strict=True) if not here)
