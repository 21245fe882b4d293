"""``swick bots new NAME`` writes a bot package that passes the checks as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.bots.check import check
from services.bots.strategy import load_strategy
from services.cli import main


def test_a_new_bot_package_plays_legally_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["bots", "new", "abot", "--dir", str(tmp_path)]) == 0
    root = tmp_path / "abot"
    assert {p.name for p in root.iterdir()} == {"pyproject.toml", "abot", "tests", "README.md"}
    assert "services.bots.sdk" in (root / "abot" / "bot.py").read_text()
    monkeypatch.syspath_prepend(str(root))
    assert check(load_strategy("abot.bot:Bot"), positions=300).ok
    # Not twice, and not under a bad name.
    assert main(["bots", "new", "abot", "--dir", str(tmp_path)]) == 2
    assert main(["bots", "new", "A-bot", "--dir", str(tmp_path)]) == 2
