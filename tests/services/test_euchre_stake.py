"""A Euchre table played for a stake, over the real gateway, broker, table workers and ledger:
the stakes go into the pot when the game starts, the winning partnership takes it when the game
ends (or the other partnership when the host ends it early: the host's side forfeits), and the
ledger's books balance throughout (docs/rules/euchre.md §12)."""

from __future__ import annotations

import random
from typing import Any

from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.play import act, ended, open_table, play

STAKE = 100
TARGET = 2  # a short game: a hand or two


async def settled(cluster: Cluster, table: str, players: list[Player]) -> dict[str, Any]:
    """Once the ledger has applied every posting of ``table``: each player's balance, the
    codes of their transfers, and the ledger's reconciliation and health."""
    postings, report = await caught_up(cluster.settings, table)
    async with ledger_client(cluster.settings) as ledger:
        balances: dict[str, int] = {}
        codes: dict[str, list[tuple[str, int]]] = {}
        for player in players:
            balance = (await ledger.get(f"/players/{player.id}/balance")).json()
            balances[player.id] = balance["balance"]
            page = (await ledger.get(f"/players/{player.id}/transfers")).json()["transfers"]
            codes[player.id] = sorted(
                (t["code"], t["amount"]) for t in page if t.get("table_id") == table
            )
        health = await ledger.get("/health")
    return {
        "postings": postings,
        "report": report,
        "balances": balances,
        "codes": codes,
        "health": (health.status_code, health.json()),
    }


async def test_a_staked_euchre_game_pays_the_winning_partnership(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    grant = cluster.settings.starting_grant
    table = await open_table(four, game="euchre", target=TARGET, stake=STAKE)
    listed = (await host.http("GET", f"/api/tables/{table}")).json()
    assert listed["game"] == "euchre" and listed["stake"] == STAKE and listed["target"] == TARGET
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    view = await host.until(table, lambda v: v["pot"] == 4 * STAKE)
    assert view["config"]["stake"] == STAKE and view["phase"] != "ended"
    await play(four, table, random.Random(7), ended)
    view = await host.until(table, ended)
    winner = view["winner"]
    assert winner is not None and view["scores"][winner] >= TARGET
    assert view["pot"] == 0
    assert view["payouts"] == [2 * STAKE if seat % 2 == winner else 0 for seat in range(4)]

    books = await settled(cluster, table, four)
    assert books["report"]["postings_applied"] >= books["postings"] > 0, books
    assert books["report"]["matches"], books
    status, health = books["health"]
    assert status == 200 and health["ok"], health
    by_seat = {seat["player"]["id"]: seat["seat"] for seat in view["seats"]}
    for player in four:
        won = by_seat[player.id] % 2 == winner
        assert books["balances"][player.id] == grant + (STAKE if won else -STAKE), books
        paid = [("euchre_win", 2 * STAKE)] if won else []
        assert books["codes"][player.id] == sorted([("stake", -STAKE), *paid]), books
    assert sum(books["balances"].values()) == 4 * grant  # no chip created or destroyed


async def test_the_host_ending_a_staked_game_forfeits_the_hosts_stakes(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    grant = cluster.settings.starting_grant
    table = await open_table(four, game="euchre", target=10, stake=STAKE, interlude_seconds=30)
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await play(four, table, random.Random(3), lambda v: v["phase"] in ("interlude", "ended"))
    view = await host.until(table, lambda v: v["phase"] in ("interlude", "ended"))
    assert view["phase"] == "interlude" and view["pot"] == 4 * STAKE
    assert (await act(host, table, {"kind": "end_game"}))["type"] == "ack"
    view = await host.until(table, ended)
    by_seat = {seat["player"]["id"]: seat["seat"] for seat in view["seats"]}
    side = by_seat[host.id] % 2
    assert view["end_reason"] == "host" and view["pot"] == 0
    assert view["forfeited"] == [side, side + 2] and view["winner"] == 1 - side
    assert view["payouts"] == [0 if seat % 2 == side else 2 * STAKE for seat in range(4)]

    books = await settled(cluster, table, four)
    assert books["report"]["matches"], books
    status, health = books["health"]
    assert status == 200 and health["ok"], health
    for player in four:
        forfeited = by_seat[player.id] % 2 == side
        assert books["balances"][player.id] == grant + (-STAKE if forfeited else STAKE), books
        paid = [] if forfeited else [("euchre_win", 2 * STAKE)]
        assert books["codes"][player.id] == sorted([("stake", -STAKE), *paid]), books
    assert sum(books["balances"].values()) == 4 * grant  # no chip created or destroyed
