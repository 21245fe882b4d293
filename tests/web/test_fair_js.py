"""The browser's verifier (``web/js/fair.js``) against the Python engine, on a fresh game each run;
and the engine-made fixtures of the node tests (``tests/web/*.test.mjs``) kept current.

``node --test tests/web/`` checks the committed fixture; here a new game with a new seed is played
by the engine, its record and tampered copies are written to a temporary file, and the same node
tests must agree with ``shared.games.swick.record.verify`` on every one of them.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.web import make_record, make_views

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.mark.parametrize("script", [make_record, make_views], ids=["record", "views"])
def test_the_fixtures_are_what_the_scripts_write(tmp_path: Path, script: ModuleType) -> None:
    """The node tests read fixtures made from the engine: they must be current."""
    out = tmp_path / "fixture.json"
    subprocess.run([sys.executable, "-m", script.__name__, str(out)], cwd=ROOT, check=True)
    fixture: Path = script.FIXTURE
    # Compared before asserting: pytest's diff of two large texts takes minutes.
    same = out.read_text(encoding="utf-8") == fixture.read_text(encoding="utf-8")
    assert same, f"{fixture.relative_to(ROOT)} is stale: run .venv/bin/python -m {script.__name__}"


@needs_node
def test_javascript_verifier_agrees_on_a_fresh_game(tmp_path: Path) -> None:
    seed = secrets.token_bytes(32)
    data = make_record.fixture(seed, random.Random(seed))
    assert data["verdict"]["ok"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--test", str(ROOT / "tests" / "web" / "fair.test.mjs")],
        cwd=ROOT,
        env={**os.environ, "SWICK_RECORD_FIXTURE": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
