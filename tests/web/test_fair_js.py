"""The browser's verifier (``web/js/fair.js``) against the Python engine, on a fresh game each run;
and the engine-made fixtures of the node tests (``tests/web/*.test.mjs``) kept current.

``node --test tests/web/`` checks the committed fixture; here a new game with a new seed is played
by the engine, its record and tampered copies are written to a temporary file, and the same node
tests must agree with ``shared.games.swick.record.verify`` on every one of them.
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from types import ModuleType

import pytest

from tests.web import make_record, make_views
from tests.web.fixture_file import assert_current, assert_node_tests_pass, needs_node


@pytest.mark.parametrize("script", [make_record, make_views], ids=["record", "views"])
def test_the_fixtures_are_what_the_scripts_write(tmp_path: Path, script: ModuleType) -> None:
    """The node tests read fixtures made from the engine: they must be current."""
    assert_current(script, tmp_path)


@needs_node
def test_javascript_verifier_agrees_on_a_fresh_game(tmp_path: Path) -> None:
    seed = secrets.token_bytes(32)
    data = make_record.fixture(seed, random.Random(seed))
    assert data["verdict"]["ok"]
    assert_node_tests_pass("fair.test.mjs", "SWICK_RECORD_FIXTURE", data, tmp_path)
