"""The Euchre fixture of the node tests (``tests/web/euchre.test.mjs``) kept current, and the
browser's Euchre dealing (``web/js/euchre-fair.js``) checked against the engine on a fresh game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web import make_euchre

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


def test_the_euchre_fixture_is_what_the_script_writes(tmp_path: Path) -> None:
    out = tmp_path / "euchre.json"
    subprocess.run([sys.executable, "-m", make_euchre.__name__, str(out)], cwd=ROOT, check=True)
    # Compared before asserting: pytest's diff of two large texts takes minutes.
    same = out.read_text(encoding="utf-8") == make_euchre.FIXTURE.read_text(encoding="utf-8")
    assert same, (
        f"{make_euchre.FIXTURE.relative_to(ROOT)} is stale: "
        f"run .venv/bin/python -m {make_euchre.__name__}"
    )


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_node_tests_pass_on_the_fixture(tmp_path: Path) -> None:
    path = tmp_path / "euchre.json"
    path.write_text(json.dumps(make_euchre.fixture(), ensure_ascii=False), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--test", str(ROOT / "tests" / "web" / "euchre.test.mjs")],
        cwd=ROOT,
        env={**os.environ, "SWICK_EUCHRE_FIXTURE": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
