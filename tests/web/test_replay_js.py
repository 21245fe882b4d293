"""The replay fixture of the node tests (``tests/web/replay.test.mjs``) kept current: replays
that the gateway's ``build_replay`` makes from each engine's own events."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.web import make_replay

ROOT = Path(__file__).resolve().parents[2]


def test_the_replay_fixture_is_what_the_script_writes(tmp_path: Path) -> None:
    out = tmp_path / "replay.json"
    subprocess.run([sys.executable, "-m", make_replay.__name__, str(out)], cwd=ROOT, check=True)
    # Compared before asserting: pytest's diff of two large texts takes minutes.
    same = out.read_text(encoding="utf-8") == make_replay.FIXTURE.read_text(encoding="utf-8")
    assert same, (
        f"{make_replay.FIXTURE.relative_to(ROOT)} is stale: "
        f"run .venv/bin/python -m {make_replay.__name__}"
    )


def test_every_frame_shows_the_seats_hands_and_the_game_ends() -> None:
    for name, replay in make_replay.fixture().items():
        frames = replay["frames"]
        assert (
            replay["game"] == name
            and replay["seats"] == make_replay.NAMES[: len(frames[0]["hands"])]
        )
        assert [f["seq"] for f in frames] == sorted({f["seq"] for f in frames})
        assert frames[0]["view"]["seed"] is None and frames[-1]["view"]["phase"] == "ended"
        assert frames[-1]["view"]["seed"], "the seed is revealed at the end"
