"""Which game each table of a load or chaos run plays, and what its host asks for: every game
of the registry, each table a valid one for its game (as the gateway reads the request), and
money at stake at tables of every game."""

from __future__ import annotations

from collections import Counter

import pytest

from services.cli import parser
from services.gateway.models import NewTable
from services.gateway.opening import table_settings
from services.load.games import CHOICES, MIX, plan, played
from shared.games.registry import GAMES, game


def test_a_mix_spreads_the_tables_over_every_game() -> None:
    tables = plan(MIX, 7, 4, {})
    assert Counter(t.game for t in tables) == {"swick": 3, "euchre": 2, "contract-whist": 2}
    assert [t.number for t in tables] == list(range(7))
    assert set(played(MIX)) == set(GAMES)


def test_one_game_plays_every_table() -> None:
    assert {t.game for t in plan("euchre", 5, 4, {})} == {"euchre"}


@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_planned_table_is_one_its_game_opens(choice: str, seats: int) -> None:
    bots = {1: {1: "easy"}}
    for table in plan(choice, 6, seats, bots):
        body = NewTable.model_validate(table.request())
        settings = table_settings(body)  # refuses a setting the game does not have
        config = game(table.game).make_config(settings)  # refuses seats it cannot have
        assert settings["seats"] == table.seats
        assert body.bots == ({1: "easy"} if table.number == 1 else {})
        assert config is not None


def test_a_game_keeps_the_seats_asked_if_it_can_have_them() -> None:
    seats = {t.game: t.seats for t in plan(MIX, 3, 3, {})}
    assert seats == {"swick": 3, "euchre": 4, "contract-whist": 3}  # Euchre is four
    seats = {t.game: t.seats for t in plan(MIX, 3, 6, {})}
    assert seats == {"swick": 6, "euchre": 4, "contract-whist": 4}  # its default


def test_every_game_has_tables_played_for_money() -> None:
    tables = plan(MIX, 6, 4, {})
    for name in GAMES:
        own = [t for t in tables if t.game == name]
        assert any(t.staked for t in own), name
        if "stake" in game(name).form.own:  # played for a stake or for points: both
            assert {t.request().get("stake", 0) > 0 for t in own} == {True, False}
            assert [t.staked for t in own] == [t.request().get("stake", 0) > 0 for t in own]


def test_the_commands_offer_every_game_and_a_mix() -> None:
    for command in ("loadtest", "chaos"):
        args = parser().parse_args([command])
        assert args.game == MIX
        for choice in CHOICES:
            assert parser().parse_args([command, "--game", choice]).game == choice
        with pytest.raises(SystemExit):
            parser().parse_args([command, "--game", "poker"])


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        plan("poker", 1, 4, {})
