"""The boards of games won count real games: a points-only Euchre game to one point (seconds
long) counts for nobody, and beating the same opponents again on the same day adds nothing, so
a loop of quick games among one's own accounts cannot climb a board."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.games.records import MIN_EUCHRE_TARGET, MIN_WHIST_ROUNDS, counts_on_boards
from tests.eventually import eventually
from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster
from tests.services.database import fetch
from tests.services.play import open_table
from tests.services.test_leaderboards import board, euchre_game, open_table_after, rows

STAKE = 10


pytestmark = pytest.mark.usefixtures("whole_platform")


@pytest.fixture
async def farm(cluster: Cluster) -> AsyncIterator[list[Player]]:
    """Four accounts of one farmer, as a farm signs them up."""
    async with signed_up(cluster.base, *(f"Farm {n}" for n in range(4))) as made:
        yield made


async def stored_games(cluster: Cluster, table: str, count: int) -> list[Any]:
    """The table's records once ``count`` of them are stored: each game's winners, opponents
    and UTC day."""

    async def found() -> list[Any]:
        records = await fetch(
            cluster.settings,
            "SELECT game_no, winners, opponents,"
            " floor(extract(epoch FROM ended_at) / 86400) AS day"
            " FROM tables.game_records WHERE table_id = $1 ORDER BY game_no",
            table,
        )
        return records if len(records) == count else []

    stored: list[Any] = await eventually(found, f"{count} games stored", within=20.0, every=0.1)
    return stored


async def test_short_games_and_the_same_opponents_do_not_climb_the_board(
    cluster: Cluster, farm: list[Player]
) -> None:
    ids = {p.id for p in farm}
    # Points-only games to one point: each is won by a partnership, and counts for nobody.
    quick = await open_table(farm, game="euchre", target=1, interlude_seconds=0)
    for seed in (1, 2, 3):
        await euchre_game(farm, quick, seed)
    await stored_games(cluster, quick, 3)
    assert not rows(await board(farm[0], "euchre"), "games_won", ids)

    # Games for a stake count, but the same four again on the same day count once each.
    staked = await open_table_after(farm, quick, game="euchre", target=1, stake=STAKE)
    for seed in (4, 5, 6):
        await euchre_game(farm, staked, seed)
    games = await stored_games(cluster, staked, 3)
    beaten: defaultdict[str, set[tuple[str, int]]] = defaultdict(set)
    for game in games:
        for winner in json.loads(game["winners"]):  # [[id, name, bot], ...]
            beaten[winner[0]].add((game["opponents"], game["day"]))
    assert all(len(days) == 1 for days in beaten.values()), "one day, the same two opponents"
    expected = {player: len(days) for player, days in beaten.items()}
    assert expected and all(won == 1 for won in expected.values())
    shown = await board(farm[0], "euchre", won=lambda b: rows(b, "games_won", ids) == expected)
    assert rows(shown, "games_won", ids) == expected


def test_which_games_count_on_the_boards() -> None:
    assert not counts_on_boards("euchre", {"target": 1})
    assert not counts_on_boards("euchre", {"target": MIN_EUCHRE_TARGET - 1})
    assert counts_on_boards("euchre", {"target": MIN_EUCHRE_TARGET})
    assert counts_on_boards("euchre", {})  # the default: to 10 points
    assert counts_on_boards("euchre", {"target": 1, "stake": STAKE})
    assert not counts_on_boards("contract-whist", {"rounds": 1})
    assert counts_on_boards("contract-whist", {"rounds": MIN_WHIST_ROUNDS})
    assert counts_on_boards("contract-whist", {})  # a full game of 17 rounds
    assert counts_on_boards("contract-whist", {"rounds": 1, "stake": STAKE})
    assert not counts_on_boards("swick", {})
