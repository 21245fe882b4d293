"""The bot SDK: the example bots import nothing of the platform but ``swick_sdk``; the first SDK
(``services.bots.sdk``) is Swick's under its old names; the example bot only ever answers
legally; the SDK's helpers agree with the view; ``swick bots`` does not take the built-in bots'
port."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import swick_sdk
from services.benchmarks.engine import seated_table
from services.bots import sdk
from services.bots.strategy import load_strategy
from services.cli import parser
from shared.games.interface import Command
from shared.games.swick.decide import step
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.views import view_for
from swick_sdk import swick
from tests.bots.imports import imported_modules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def platform_imports(path: Path) -> set[str]:
    """The modules of the platform (``services``, ``shared``, ``swick_sdk``) ``path`` imports."""
    return {
        name
        for name in imported_modules(path)
        if name.split(".")[0] in ("services", "shared", "swick_sdk")
    }


def test_every_example_imports_nothing_of_the_platform_but_the_sdk() -> None:
    examples = sorted(path for path in EXAMPLES.glob("*.py") if path.name != "__init__.py")
    assert {path.stem for path in examples} >= {"cautious_bot", "loo_bot", "euchre_bot"}
    for path in examples:
        assert platform_imports(path) == {"swick_sdk"}, path.name


def test_the_first_sdk_is_the_swick_sdk_under_its_old_names() -> None:
    # Bots written against services.bots.sdk keep working: the same objects.
    for name in set(sdk.__all__) - {"SDK_VERSION"}:
        home = swick if hasattr(swick, name) else swick_sdk
        assert getattr(sdk, name) is getattr(home, name), name
    assert sdk.SDK_VERSION == swick_sdk.SDK_VERSION == "1.0"


def test_every_sdk_name_exists() -> None:
    for name in sdk.__all__:
        assert hasattr(sdk, name), name


def play(hands: int, seed: int, check: Callable[[sdk.SwickView], None]) -> None:
    strategy = load_strategy("examples.cautious_bot:Cautious")(random.Random(seed))
    state = seated_table(3, seed=seed)
    played = commands = 0
    while played < hands:
        pending = to_act(state)
        if not pending:
            break
        seat = pending[0]
        view = view_for(state, seat)
        legal = [o.action for o in legal_actions(state, seat) if o.legal]
        assert sdk.legal_actions(view) == legal
        check(view)
        action = strategy.choose(view, legal)
        assert action in legal, (view.phase, action)
        state, events = step(
            state, Command(actor=seat, action=action, action_id=f"a{commands}", seq=state.seq)
        )
        commands += 1
        played += sum(1 for e in events if type(e).__name__ == "HandSettled")


def test_the_example_only_ever_answers_legally_and_the_helpers_agree_with_the_view() -> None:
    def check(view: sdk.SwickView) -> None:
        seen = sdk.seen_cards(view)
        assert set(sdk.own_cards(view)) <= seen
        order = sdk.play_order(view)
        assert set(order) <= set(view.order)
        assert all(view.seats[s].status == "in" for s in order)
        if view.order:
            assert view.order[-1] == view.dealer  # from the dealer's left, the dealer last
        assert not sdk.refused(view) or all(o.reason for o in sdk.refused(view))

    for seed in (1, 2, 3):
        play(30, seed, check)


def test_cards_convert() -> None:
    ace_of_spades = sdk.make(7, 3)
    assert sdk.parse("AS") == ace_of_spades
    assert (sdk.suit_of(ace_of_spades), sdk.rank_of(ace_of_spades)) == (3, 7)
    assert sdk.label(ace_of_spades) == "A♠"


def test_swick_bots_port_is_apart_from_the_built_in_bots() -> None:
    args = parser().parse_args(["bots", "--strategy", "m:C", "--name", "n"])
    assert args.port == sdk.DEFAULT_PORT != 9101
