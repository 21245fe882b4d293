"""Contract Whist tables over the real gateway, broker, table workers, ledger and bots."""

from __future__ import annotations

import random
from typing import Any

from shared.games.contract_whist.cards import code, parse
from shared.games.contract_whist.record import GameRecord, load_record, verify
from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.lobby import quick_play, settings_refused
from tests.services.play import (
    act,
    cards_in,
    ended,
    finished_with_bots,
    open_table,
    play,
    seen_at_least,
    two_and_bots,
)
from tests.services.records import checked_record

GAME = "contract-whist"
ROUNDS = 2  # a short game: 10 cards, then 9
STAKE = 30


def check_nothing_hidden(view: dict[str, Any], record: GameRecord) -> None:
    """A seat's view shows its own hand and the cards played, never another seat's hand or an
    undealt card."""
    seat, number = view["seat"], view["round_no"]
    if number == 0 or seat is None:
        assert not view["hand"]
    if number == 0:
        return
    dealt = record.rounds[number - 1]
    public = {card for trick in (*view["played"], view["trick"]) for _, card in trick}
    own = set() if seat is None else {code(card) for card in dealt.dealt[seat]}
    shown = {code(card) for card in cards_in(view, parse)}
    assert shown <= own | public, f"seat {seat} saw {shown - own - public} in round {number}"


async def balances(cluster: Cluster, players: list[Player]) -> list[int]:
    async with ledger_client(cluster.settings) as ledger:
        return [(await ledger.get(f"/players/{p.id}/balance")).json()["balance"] for p in players]


async def books_settled(cluster: Cluster, table: str) -> None:
    """The ledger applied every posting of the table, its wallets match the table's stacks and
    its invariants hold (chips conserved, every pot closed)."""
    postings, report = await caught_up(cluster.settings, table)
    assert report["postings_applied"] >= postings and report["matches"], report
    async with ledger_client(cluster.settings) as ledger:
        health = await ledger.get("/health")
        assert health.status_code == 200 and not health.json()["open_pots"], health.text


async def test_four_people_play_a_staked_game_to_its_end(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    table = await open_table(four, game=GAME, rounds=ROUNDS, stake=STAKE)
    listed = (await host.http("GET", f"/api/tables/{table}")).json()
    assert listed["game"] == GAME and listed["rounds"] == ROUNDS and listed["stake"] == STAKE
    assert listed["antes"] == [] and len(listed["seats"]) == 4
    before = await balances(cluster, four)
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    view = await host.until(table, lambda v: v["phase"] == "bid")
    assert view["game"] == GAME and view["pot"] == 4 * STAKE
    await play(four, table, random.Random(7), ended)
    for player in four:
        view = await player.until(table, ended)
        assert view["seed"] and view["winners"] and view["round_no"] == ROUNDS
    assert sum(view["payouts"]) == 4 * STAKE
    assert all((view["payouts"][s] > 0) == (s in view["winners"]) for s in range(4))
    assert view["fingerprint"] == host.views[table]["fingerprint"]
    record = await checked_record(four, table, load_record, check_nothing_hidden)
    verdict = verify(record)
    assert verdict.ok and verdict.rounds == ROUNDS, verdict
    await books_settled(cluster, table)
    after = await balances(cluster, four)
    assert sum(after) == sum(before), "chips are never made or lost"
    assert [a - b for a, b in zip(after, before, strict=True)] == [
        payout - STAKE for payout in view["payouts"]
    ]


async def test_a_person_and_three_bots_play_to_the_end(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Solo") as (person,):
        out = await finished_with_bots(person, seed=5, game=GAME, rounds=ROUNDS)
        assert out["game"] == GAME and out["timer_seconds"] == 30 and out["stake"] == 0
        view = await person.until(out["id"], ended)
        assert view["winners"] and len(view["sheet"]) == ROUNDS
        assert [bool(s["player"]["bot"]) for s in view["seats"]] == [False, True, True, True]


async def test_a_seat_left_during_a_game_is_taken_by_a_bot_and_the_game_plays_on(
    cluster: Cluster, players: list[Player]
) -> None:
    host, bob = players[0], players[1]
    body = {"game": GAME, "rounds": ROUNDS, "interlude_seconds": 30}
    table = await two_and_bots(host, bob, {**body, "bots": {"2": "easy", "3": "easy"}})
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    # Bob leaves while round 1's result shows: his seat empties, and the table seats a
    # medium bot there at once, marked as a bot.
    await play([host, bob], table, random.Random(6), lambda v: v["phase"] == "interlude")
    assert (await act(bob, table, {"kind": "leave"}))["type"] == "ack"
    view = await host.until(
        table, lambda v: (v["seats"][1]["player"] or {}).get("bot") == "medium", 30
    )
    taken = view["seats"][1]
    assert taken["player"]["id"] != bob.id and taken["score"] == view["sheet"][0]["totals"][1]
    await play([host], table, random.Random(7), ended, within=60)
    view = await host.until(table, ended)
    assert len(view["sheet"]) == ROUNDS and view["seats"][1]["player"]["bot"] == "medium"


async def test_quick_play_at_contract_whist_seats_three_medium_bots(cluster: Cluster) -> None:
    person = await registered(cluster.base, "Quick")
    out = await quick_play(person, {"game": GAME})
    assert out["game"] == GAME and len(out["seats"]) == 4 and out["in_progress"]
    assert out["rounds"] == 17 and out["stake"] == 0 and out["timer_seconds"] == 30
    assert [s is not None and (i == 0 or s["bot"] == "medium") for i, s in enumerate(out["seats"])]


async def test_bad_settings_are_refused_with_clear_messages(cluster: Cluster) -> None:
    person = await registered(cluster.base, "Picky")
    for body, words in [
        ({"game": GAME, "seats": 6}, ("2 to 5 seats",)),
        ({"game": GAME, "seats": 1}, ("2 to 5 seats",)),
        ({"game": GAME, "rounds": 18}, ("1 to 17 rounds",)),
        ({"game": GAME, "rounds": 0}, ("1 to 17 rounds",)),
        ({"game": GAME, "stake": 301}, ("0 to 300 cents",)),
        ({"game": GAME, "stake": -1}, ("0 to 300 cents",)),
        ({"game": GAME, "timer_seconds": 5}, ("10 to 120 seconds",)),
        ({"game": GAME, "antes": [3]}, ("Contract Whist", "antes")),
        ({"game": GAME, "target": 5}, ("Contract Whist", "target")),
        ({"rounds": 3}, ("Swick", "rounds")),
        ({"game": "euchre", "stake": 3, "rounds": 2}, ("Euchre", "rounds")),
    ]:
        await settings_refused(person, "/api/tables", body, words)
    assert (await person.http("GET", "/api/me")).json()["seated"] is None


async def test_the_forbidden_bid_is_refused_with_the_views_reason(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    table = await open_table(four, game=GAME, rounds=1)
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await host.until(table, lambda v: v["phase"] == "bid")
    for _ in range(3):  # the first three bid nothing: the last may not bid all the cards
        mover = next(p for p in four if p.my_turn(table))
        seq = mover.views[table]["seq"]
        assert (await act(mover, table, {"kind": "bid", "bid": 0}))["type"] == "ack"
        for player in four:
            await player.until(table, seen_at_least(seq + 1))
    last = next(p for p in four if p.my_turn(table))
    view = last.views[table]
    assert view["forbidden_bid"] == view["cards"] == 10
    barred = [o for o in view["options"] if not o["legal"]]
    assert [o["action"] for o in barred] == [{"kind": "bid", "bid": 10}]
    answer = await act(last, table, {"kind": "bid", "bid": 10})
    assert answer["type"] == "reject" and answer["code"] == "forbidden_bid"
    assert answer["message"] == barred[0]["reason"]
    assert (await act(last, table, {"kind": "bid", "bid": 9}))["type"] == "ack"
