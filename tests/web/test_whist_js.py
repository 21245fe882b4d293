"""The Contract Whist fixture of the node tests (``tests/web/whist.test.mjs``) kept current, and
the browser's Contract Whist dealing (``web/js/whist-fair.js``) checked against the engine."""

from __future__ import annotations

from pathlib import Path

from tests.web import make_whist
from tests.web.fixture_file import assert_current, assert_node_tests_pass, needs_node


def test_the_whist_fixture_is_what_the_script_writes(tmp_path: Path) -> None:
    assert_current(make_whist, tmp_path)


@needs_node
def test_the_node_tests_pass_on_the_fixture(tmp_path: Path) -> None:
    fixture = make_whist.fixture()
    assert_node_tests_pass("whist.test.mjs", "SWICK_WHIST_FIXTURE", fixture, tmp_path)
