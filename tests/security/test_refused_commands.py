"""A command the game refuses has no effect anywhere, in each game, through the real gateway,
broker, table workers, ledger and PostgreSQL.

Before, a table asked the ledger to seat (and stake) a bot or a person before the game judged
the command: a guest's refused ``add_bot`` for the seats of the people filled two bot wallets
with 4,000¢ of the house's, one for the bot's own seat topped its wallet up past its stack, and
the ledger's reconciliation failed for good. Here every refused lifecycle command (``add_bot``,
``join``, ``leave``, ``sit_out``, ``start_game``, ``end_game``) from the wrong sender or in the
wrong state, in the lobby and with a game under way, leaves the table's postings, transfers,
wallets, ledger seats, its bots' share of the house, its event log and seat records, and the
ledger's ``/health``, as they were.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster
from tests.services.database import fetch, fetchval
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.lobby import new_table
from tests.services.play import act, watch_when_created

TIMER_SECONDS = 120  # no decision times out while the test looks


@pytest.fixture
async def people(cluster: Cluster) -> AsyncIterator[list[Player]]:
    """The host, a guest, and Carol, who is not seated at the table: signed up, connected."""
    async with signed_up(cluster.base, "Host", "Guest", "Carol") as made:
        yield made


async def settled(cluster: Cluster, table: str) -> None:
    """Wait until the ledger has applied every posting ``table`` wrote."""
    postings, report = await caught_up(cluster.settings, table)
    assert report["postings_applied"] >= postings, f"the ledger never caught up with {table}"


async def books(cluster: Cluster, table: str, people: list[Player]) -> dict[str, Any]:
    """Everything of ``table`` a command could change, in the ledger and the table store."""
    s = cluster.settings
    accounts = [f"wallet:{p.id}" for p in people]
    accounts += [f"wallet:bot:{table}:{seat}" for seat in range(6)]
    accounts += [f"pot:{table}", f"carry:{table}"]
    # Each query's arguments: the table, its accounts, or the table and its people.
    of_table, of_accounts, of_either = (table,), (accounts,), (table, [p.id for p in people])
    queries: dict[str, tuple[str, tuple[Any, ...]]] = {
        "postings": (
            "SELECT id, digest FROM ledger.postings WHERE table_id = $1 ORDER BY posting_no",
            of_table,
        ),
        "transfers": (
            "SELECT id, debit, credit, amount, code FROM ledger.transfers"
            " WHERE debit = ANY($1::text[]) OR credit = ANY($1::text[]) ORDER BY id",
            of_accounts,
        ),
        "wallets": (
            "SELECT name, debits, credits FROM ledger.accounts"
            " WHERE name = ANY($1::text[]) ORDER BY name",
            of_accounts,
        ),
        "ledger_seats": (
            "SELECT player_id, bot FROM ledger.seats WHERE table_id = $1 OR player_id"
            " = ANY($2::text[]) ORDER BY table_id, player_id",
            of_either,
        ),
        "events": (
            "SELECT seq, action_id FROM tables.events WHERE table_id = $1 ORDER BY seq",
            of_table,
        ),
        "seatings": (
            "SELECT player_id, table_id, seat FROM tables.seatings"
            " WHERE table_id = $1 OR player_id = ANY($2::text[]) ORDER BY player_id",
            of_either,
        ),
    }
    found: dict[str, Any] = {
        name: await fetch(s, sql, *args) for name, (sql, args) in queries.items()
    }
    found["dead_letters"] = await fetchval(
        s, "SELECT count(*) FROM ledger.dead_postings WHERE table_id = $1", table
    )
    async with ledger_client(s) as ledger:
        health = await ledger.get("/health")
        reconciliation = (await ledger.get(f"/tables/{table}/reconciliation")).json()
    found["health"] = (health.status_code, health.json()["ok"])
    found["reconciliation"] = reconciliation
    # The house's share of this table: what it staked into the table's bots, less what came
    # back (the global report moves with every other table of the session).
    found["house"] = sum(
        (-1 if row["credit"] == "bank:house" else 1) * row["amount"]
        for row in found["transfers"]
        if "bank:house" in (row["debit"], row["credit"])
    )
    return found


def waits_for_a_person(view: dict[str, Any]) -> bool:
    """The table waits for a person alone: no bot has anything to do, so nothing moves."""
    bots = {i for i, s in enumerate(view["seats"]) if s["player"] and s["player"]["bot"]}
    return bool(view["to_act"]) and not bots & set(view["to_act"])


async def refused(player: Player, table: str, message: dict[str, Any]) -> str:
    if message["type"] == "join":
        answer = await player.request({**message, "table": table})
    else:
        answer = await act(player, table, message["action"])
    assert answer["type"] == "reject", (message, answer)
    return str(answer["code"])


def add_bot(seat: int) -> dict[str, Any]:
    return {"type": "act", "action": {"kind": "add_bot", "seat": seat, "bot": "medium"}}


def lifecycle(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": "act", "action": {"kind": kind, **fields}}


GAMES: dict[str, dict[str, Any]] = {
    "swick": {"antes": [3, 6, 9]},
    "euchre": {"stake": 50, "target": 1},
    "contract-whist": {"stake": 50, "rounds": 1},
}


@pytest.mark.parametrize("game", GAMES)
async def test_refused_commands_change_nothing(
    cluster: Cluster, people: list[Player], game: str
) -> None:
    host, guest, carol = people
    settings = {"seats": 4, "timer_seconds": TIMER_SECONDS, "bots": {"1": "medium"}}
    table: str = (await new_table(host, {"game": game, **settings, **GAMES[game]}))["id"]
    for player in people:
        await watch_when_created(player, table)
    assert (await guest.request({"type": "join", "table": table, "seat": 2}))["type"] == "ack"
    await guest.until(table, lambda view: view["seat"] == 2)  # host 0, bot 1, guest 2; 3 empty

    # In the lobby.
    await settled(cluster, table)
    before = await books(cluster, table, people)
    assert before["health"] == (200, True) and before["reconciliation"]["matches"]
    codes = [
        await refused(guest, table, add_bot(3)),  # a guest seats no bot
        await refused(guest, table, add_bot(1)),
        await refused(host, table, add_bot(1)),  # the bot's own seat
        await refused(host, table, add_bot(2)),  # a person's
        await refused(host, table, add_bot(9)),  # no such seat
        await refused(carol, table, {"type": "join", "seat": 1}),
        await refused(carol, table, {"type": "join", "seat": 2}),
        await refused(guest, table, {"type": "join", "seat": 3}),  # seated already
        await refused(carol, table, lifecycle("leave")),  # not seated
        await refused(carol, table, lifecycle("sit_out", sitting_out=True)),
        await refused(guest, table, lifecycle("start_game")),
        await refused(guest, table, lifecycle("end_game")),
        await refused(host, table, lifecycle("end_game")),  # no game to end
    ]
    assert codes[0] == "not_host" and codes[2] == "seat_taken", codes
    assert await books(cluster, table, people) == before, codes

    # With a game under way.
    if game != "swick":  # every seat is dealt in: the host fills the last one
        assert (await act(host, table, add_bot(3)["action"]))["type"] == "ack"
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await host.until(table, waits_for_a_person, within=60)
    await settled(cluster, table)
    before = await books(cluster, table, people)
    assert before["health"] == (200, True) and before["reconciliation"]["matches"]
    codes = [
        await refused(guest, table, add_bot(1)),  # the finding: the bot's seat...
        await refused(guest, table, add_bot(0)),  # ...and the people's
        await refused(guest, table, add_bot(2)),
        await refused(host, table, add_bot(1)),
        await refused(carol, table, {"type": "join", "seat": 1}),
        await refused(carol, table, {"type": "join", "seat": 0}),
        await refused(guest, table, lifecycle("start_game")),
        await refused(host, table, lifecycle("start_game")),  # one is under way
        await refused(guest, table, lifecycle("end_game")),
        await refused(carol, table, lifecycle("leave")),
        await refused(carol, table, lifecycle("sit_out", sitting_out=True)),
        await refused(guest, table, lifecycle("sit_out", sitting_out=False)),  # playing already
    ]
    assert codes[0] == "not_host", codes
    await settled(cluster, table)
    assert await books(cluster, table, people) == before, codes
