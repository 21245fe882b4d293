"""The replay fixture of the node tests (``tests/web/replay.test.mjs``) kept current: replays
that the gateway's ``build_replay`` makes from each engine's own events."""

from __future__ import annotations

from pathlib import Path

from tests.web import make_replay
from tests.web.fixture_file import assert_current


def test_the_replay_fixture_is_what_the_script_writes(tmp_path: Path) -> None:
    assert_current(make_replay, tmp_path)


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
