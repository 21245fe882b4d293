"""The Euchre fixture of the node tests (``tests/web/euchre.test.mjs``) kept current, and the
browser's Euchre dealing (``web/js/euchre-fair.js``) checked against the engine on a fresh game."""

from __future__ import annotations

from pathlib import Path

from tests.web import make_euchre
from tests.web.fixture_file import assert_current, assert_node_tests_pass, needs_node


def test_the_euchre_fixture_is_what_the_script_writes(tmp_path: Path) -> None:
    assert_current(make_euchre, tmp_path)


@needs_node
def test_the_node_tests_pass_on_the_fixture(tmp_path: Path) -> None:
    fixture = make_euchre.fixture()
    assert_node_tests_pass("euchre.test.mjs", "SWICK_EUCHRE_FIXTURE", fixture, tmp_path)
