"""``swick bots check`` passes the example bot and catches illegal and failing answers."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from services.bots.check import check
from services.bots.strategy import load_strategy
from services.cli import main
from shared.games.swick import actions as ac
from shared.games.swick.views import SwickView


class Sloppy:
    """Plays the first legal action, but answers a card nobody holds in the tricks and raises
    when asked to knock."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        if any(isinstance(a, ac.PlayCard) for a in legal):
            return ac.PlayCard(64)
        if any(isinstance(a, ac.Knock) for a in legal):
            raise RuntimeError("a bug")
        return legal[0]


def test_the_example_bot_passes() -> None:
    report = check(load_strategy("examples.cautious_bot:Cautious"), positions=400)
    assert report.ok and report.positions == 400


def test_illegal_and_failing_answers_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    report = check(Sloppy, positions=400)
    assert report.illegal and report.errors and not report.ok
    assert "tricks" in report.illegal[0] and "a bug" in report.errors[0]
    code = main(
        ["bots", "check", "--strategy", "tests.bots.test_check:Sloppy", "--positions", "300"]
    )
    assert code == 1
    assert "FAILED" in capsys.readouterr().out
