"""The Euchre and Contract Whist fixtures of the node tests (``tests/web/euchre.test.mjs``,
``tests/web/whist.test.mjs``) kept current, and the browser's dealing of each game
(``web/js/euchre-fair.js``, ``web/js/whist-fair.js``) checked against the engine on a fresh game."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.web import make_euchre, make_whist
from tests.web.fixture_file import assert_current, assert_node_tests_pass, needs_node

# A game's fixture script, its node tests, and the variable they read a fresh fixture's path from.
GAMES: dict[str, tuple[ModuleType, str, str]] = {
    "euchre": (make_euchre, "euchre.test.mjs", "SWICK_EUCHRE_FIXTURE"),
    "whist": (make_whist, "whist.test.mjs", "SWICK_WHIST_FIXTURE"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_fixture_is_what_the_script_writes(tmp_path: Path, game: str) -> None:
    script, _, _ = GAMES[game]
    assert_current(script, tmp_path)


@needs_node
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_node_tests_pass_on_the_fixture(tmp_path: Path, game: str) -> None:
    script, test, variable = GAMES[game]
    assert_node_tests_pass(test, variable, script.fixture(), tmp_path)
