"""Every registered game runs the conformance suite (``shared/games/conformance.py``).

The tests are parametrised over the registry: registering a game runs it here, which is how a
new game is accepted. ``SWICK_CONFORMANCE=conformance-long`` runs many more examples; the
terminal summary reports the examples, decisions and games finished.
"""

from __future__ import annotations

import json

import pytest

from shared.games.conformance import CardFinder, abandoned_table_ends, run_abandoned, run_machine
from shared.games.registry import GAMES

NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_game_offers_what_the_suite_checks_by(name: str) -> None:
    """A deck of distinct cards, found in JSON as codes and in texts with suit symbols, and
    sample settings the game accepts, at which a new table has no card in play or in sight."""
    game = GAMES[name]
    assert len(set(game.deck)) == len(game.deck) > 0
    finder = CardFinder(game.deck)
    assert finder(json.loads(json.dumps(list(game.deck)))) == set(game.deck)
    assert finder({"text": [f"led {label}, then" for label in finder.labels]}) == set(game.deck)
    assert game.sample_settings, "no settings to check the game at"
    for settings in game.sample_settings:
        config = game.make_config(dict(settings))
        state = game.new_table(config)
        assert game.cards_in_play(state) == []
        for seat in (None, *range(len(game.players(state)))):
            assert game.visible_cards(state, seat) == frozenset()


@pytest.mark.parametrize("name", NAMES)
def test_random_play_and_wrong_commands(name: str) -> None:
    run_machine(GAMES[name])


@pytest.mark.parametrize("name", NAMES)
def test_a_table_whose_people_stop_answering_reaches_the_end(name: str) -> None:
    run_abandoned(GAMES[name])


def test_a_free_ride_left_to_its_timers_ends() -> None:
    """The long conformance profile's find: four people who stop answering with their screens
    open, at a free ride."""
    game = GAMES["swick"]
    picks = [30, 12765, 39383, 1266, 722, 276]
    abandoned_table_ends(game, game.sample_settings[1], picks, b"^\x005f\xf5\xa7A\x07", True)
