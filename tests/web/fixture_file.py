"""The fixture files the node tests read: each is written by a ``make_*`` script from the Python
engine, must stay what that script writes, and a freshly made one must pass the node tests too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def write(data: Any, default: Path) -> None:
    """A script's ``main``: the fixture goes to the path given on the command line, or its own."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")


def assert_current(script: ModuleType, tmp_path: Path) -> None:
    """The committed fixture of ``script`` is what the script writes now."""
    fixture: Path = script.FIXTURE
    out = tmp_path / fixture.name
    subprocess.run([sys.executable, "-m", script.__name__, str(out)], cwd=ROOT, check=True)
    # Compared before asserting: pytest's diff of two large texts takes minutes.
    same = out.read_text(encoding="utf-8") == fixture.read_text(encoding="utf-8")
    assert same, f"{fixture.relative_to(ROOT)} is stale: run .venv/bin/python -m {script.__name__}"


def assert_node_tests_pass(test: str, variable: str, data: Any, tmp_path: Path) -> None:
    """``node --test tests/web/<test>`` passes on ``data``, handed over in the variable the test
    reads its fixture's path from."""
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--test", str(HERE / test)],
        cwd=ROOT,
        env={**os.environ, variable: str(path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
