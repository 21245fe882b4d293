"""``swick_sdk``, the bot SDK of every game: one numbering of the cards that every game's deck
round-trips through; Euchre and Contract Whist bots written against it alone play legally
through the arena, duplicate or not; ``swick bots new --game G`` writes a bot of each game that
passes ``swick bots check``; today's arena flags still work, as aliases of the new ones."""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import swick_sdk
from services.bots import duplicate, tables
from services.bots.check import check
from services.bots.scaffold import scaffold
from services.bots.strategy import load_strategy
from services.cli import main, parser
from swick_sdk import contract_whist, euchre, swick
from tests.bots.imports import imported_modules

GAME_MODULES: dict[str, ModuleType] = {
    "swick": swick,
    "euchre": euchre,
    "contract-whist": contract_whist,
}
EUCHRE_BOT = "examples.euchre_bot:Steady"
WHIST_BOT = "examples.whist_bot:Underbidder"

# One numbering.


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_card_of_every_deck_round_trips_through_the_one_numbering(game: str) -> None:
    module = GAME_MODULES[game]
    indices = [module.index(card) for card in module.DECK]
    assert len(set(indices)) == len(module.DECK)
    for card, index in zip(module.DECK, indices, strict=True):
        assert module.from_index(index) == card
        assert swick_sdk.card_code(index) == module.code(card)  # the protocol's code
        assert swick_sdk.card_index(module.code(card)) == index
        assert module.parse(swick_sdk.card_code(index)) == card
        # suit * 13 + rank, the suits numbered as every game numbers them
        assert swick_sdk.suit_of_index(index) == module.suit_of(card) == index // 13
        assert swick_sdk.RANKS[swick_sdk.rank_of_index(index)] + "CDHS"[index // 13] == (
            module.code(card)
        )


def test_the_one_numbering_is_the_full_deck_suit_by_suit() -> None:
    assert [swick_sdk.card_index(code) for code in swick_sdk.DECK] == list(range(52))
    assert swick_sdk.card_index("2C") == 0 and swick_sdk.card_index("AS") == 51
    assert swick_sdk.card_index("QS") == 3 * 13 + 10 == swick_sdk.card_index(" qs ")
    assert swick_sdk.card_index("10H") == 2 * 13 + 8
    # The same card has the same number whatever the game.
    for code in ("9C", "10D", "JH", "QS", "KC", "AD"):
        numbers = {module.index(module.parse(code)) for module in GAME_MODULES.values()}
        assert numbers == {swick_sdk.card_index(code)}, code


@given(st.integers(0, 51))
def test_every_index_is_a_card_of_a_game_or_refused_clearly(index: int) -> None:
    code = swick_sdk.card_code(index)
    assert swick_sdk.card_index(code) == index
    for game, module in GAME_MODULES.items():
        try:
            card = module.from_index(index)
        except ValueError as error:
            assert code in str(error) and game in str(error)
            assert code not in {module.code(c) for c in module.DECK}
        else:
            assert module.code(card) == code and module.index(card) == index


@pytest.mark.parametrize("bad", ["", "1S", "QX", "11H", "Q", "JOKER"])
def test_a_bad_code_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card code"):
        swick_sdk.card_index(bad)


@pytest.mark.parametrize("bad", [-1, 52, True])
def test_a_bad_index_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="not a card index"):
        swick_sdk.card_code(bad)
    with pytest.raises(ValueError):
        euchre.from_index(bad)
    with pytest.raises(ValueError, match="not a euchre card"):
        euchre.index(24)


def test_every_sdk_name_exists_and_every_game_has_a_module() -> None:
    for module in (swick_sdk, *GAME_MODULES.values()):
        for name in module.__all__:
            assert hasattr(module, name), (module.__name__, name)
    assert swick_sdk.GAMES == tuple(GAME_MODULES) == tables.GAMES
    for game, module in GAME_MODULES.items():
        assert game == module.GAME and tables.SEATS[game] == module.SEATS


# Bots of every game, written against the SDK alone, in the arena.


class Checked:
    """A strategy whose every answer is checked against the legal actions and the view's."""

    def __init__(self, inner: Any, module: ModuleType, answers: list[Any]) -> None:
        self.inner = inner
        self.module = module
        self.answers = answers

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        assert self.module.legal_actions(view) == list(legal)
        assert not self.module.refused(view) or all(o.reason for o in self.module.refused(view))
        answer = self.inner.choose(view, legal)
        assert answer in legal, (view.phase, answer)
        self.answers.append(answer)
        return answer


@pytest.mark.parametrize(
    ("game", "bot", "rounds"),
    [("euchre", EUCHRE_BOT, None), ("contract-whist", WHIST_BOT, 4)],
)
def test_a_bot_written_against_the_sdk_plays_legally_through_the_duplicate_arena(
    game: str, bot: str, rounds: int | None
) -> None:
    names = tables.seat_lineup(game, [bot, "medium"])
    answers: list[Any] = []
    strategies = [
        Checked(s, GAME_MODULES[game], answers)
        for s in duplicate.lineup(game, names, seed=3, worlds=2)
    ]
    result = duplicate.play(game, names, strategies, 3, seed=3, rounds=rounds)
    assert answers and any(isinstance(a, GAME_MODULES[game].PlayCard) for a in answers)
    assert result.deals == 3 and result.seatings == 2 and result.games == 6
    assert set(result.points) == {bot, "medium"}
    assert set(result.differences) == {f"{bot} - medium"}


@pytest.mark.parametrize(
    ("game", "bot", "extra"),
    [
        ("euchre", EUCHRE_BOT, ["--target", "5"]),
        ("contract-whist", WHIST_BOT, ["--rounds", "3"]),
    ],
)
def test_the_arena_command_plays_a_bot_of_every_game_duplicate_or_not(
    game: str, bot: str, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["arena", "--game", game, "--seats", f"{bot},medium", "--deals", "2", *extra]
    assert main([*common, "--duplicate", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == game and report["duplicate"] is True
    assert report["deals"] == 2 and report["games"] == 4
    assert report["seats"] == [bot, "medium", bot, "medium"]
    assert main([*common, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == game and report["games"] == 2


class Sloppy:
    """Plays a card it does not hold whenever it may play."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        for action in legal:
            if isinstance(action, euchre.PlayCard):
                return euchre.PlayCard(next(c for c in euchre.DECK if c not in view.hand))
        return legal[0]


def test_an_illegal_answer_stops_the_arena_with_where_it_was(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["arena", "--game", "euchre", "--seats", "tests.bots.test_swick_sdk:Sloppy,medium"]
    assert main([*args, "--deals", "1", "--duplicate"]) == 1
    error = capsys.readouterr().err
    assert "not one of the legal actions" in error and "tricks" in error
    report = check(Sloppy, positions=200, game="euchre")
    assert report.illegal and not report.ok


def test_every_deal_is_played_at_every_seating_with_the_same_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dealt: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
    original = tables.fresh_table

    def spy(game: str, seats: int, seed: int, **settings: Any) -> tables.Table:
        table = original(game, seats, seed, **settings)
        dealt.setdefault(seed, []).append(tuple(table.state.hands))
        return table

    monkeypatch.setattr(duplicate, "fresh_table", spy)
    names = ("easy", "medium", "easy", "hard")
    strategies = duplicate.lineup("contract-whist", names, seed=1, worlds=2)
    result = duplicate.play("contract-whist", names, strategies, 2, seed=5, rounds=2)
    assert len(dealt) == 2 and result.seatings == 4
    for deals in dealt.values():
        assert len(deals) == 4 and len(set(deals)) == 1  # the same cards at every seating


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (("a", "b", "a", "b"), 2),  # the partnerships swap sides
        (("a", "b", "c", "d"), 4),
        (("a", "a", "a"), 1),
        (("a", "b", "b"), 3),
    ],
)
def test_each_seating_is_a_distinct_rotation_and_every_name_holds_every_seat(
    names: tuple[str, ...], expected: int
) -> None:
    seatings = duplicate.seatings(names)
    assert len(seatings) == expected
    for seat in range(len(names)):
        held = [names[seating[seat]] for seating in seatings]
        for name in set(names):
            assert held.count(name) * len(names) == names.count(name) * len(seatings)


def test_the_duplicate_arena_is_reproducible_for_a_seed() -> None:
    def run() -> dict[str, object]:
        names = tables.seat_lineup("euchre", ["hard", "medium"])
        strategies = duplicate.lineup("euchre", names, seed=2, worlds=2)
        report = duplicate.report(duplicate.play("euchre", names, strategies, 2, seed=2))
        del report["seconds"], report["cpu_seconds"]
        return report

    assert run() == run()


# The lineup, and the one set of flags.


def test_the_lineup_fills_the_table_or_says_why_not() -> None:
    assert tables.seat_lineup("euchre", ["a", "b"]) == ("a", "b", "a", "b")
    assert tables.seat_lineup("contract-whist", ["a", "b"]) == ("a", "b", "a", "b")
    assert tables.seat_lineup("contract-whist", ["a", "b"], 3) == ("a", "b", "a")
    assert tables.seat_lineup("contract-whist", list("abcde")) == tuple("abcde")
    assert tables.seat_lineup("swick", ["a", "b"], 5) == ("a", "b", "a", "b", "a")
    for game, names, players in [
        ("swick", ["a", "b"], None),
        ("euchre", ["a"], 5),
        ("contract-whist", ["a", "b"], 6),
        ("contract-whist", list("abc"), 2),
        ("poker", ["a"], None),
        ("swick", ["a", "", "b"], None),
    ]:
        with pytest.raises(ValueError):
            tables.seat_lineup(game, names, players)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["--games", "7"], ["--deals", "7"]),
        (["--hard-worlds", "9"], ["--worlds", "9"]),
        (["--euchre-worlds", "9"], ["--worlds", "9"]),
        (["--whist-worlds", "9"], ["--worlds", "9"]),
    ],
)
def test_the_old_arena_flags_are_aliases(old: list[str], new: list[str]) -> None:
    assert vars(parser().parse_args(["arena", *old])) == vars(parser().parse_args(["arena", *new]))


def test_the_old_counts_play_what_they_played(capsys: pytest.CaptureFixture[str]) -> None:
    def report(*args: str) -> dict[str, Any]:
        assert main(["arena", "--json", "--worlds", "2", *args]) == 0
        found: dict[str, Any] = json.loads(capsys.readouterr().out)
        for speed in ("seconds", "cpu_seconds", "hands_per_second"):
            found.pop(speed, None)
        return found

    # Swick's --hands counts hands in all, with --duplicate too; --deals counts deals.
    played = report("--hands", "12")
    assert played["game"] == "swick" and played["hands"] == 12
    assert report("--hands", "12", "--duplicate") == report("--deals", "4", "--duplicate")
    assert report("--deals", "4", "--duplicate")["hands"] == 12
    assert report("--game", "euchre", "--seats", "medium,easy", "--games", "3") == report(
        "--game", "euchre", "--seats", "medium,easy", "--deals", "3"
    )
    whist = ["--game", "contract-whist", "--seats", "medium,easy", "--rounds", "2"]
    assert report(*whist, "--players", "3", "--games", "2")["players"] == 3
    assert main(["arena", "--game", "euchre", "--hands", "5"]) == 2


# A new bot of every game.


@pytest.mark.parametrize("game", GAME_MODULES)
def test_a_new_bot_of_every_game_imports_only_the_sdk_and_passes_the_checks(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = f"new_{game.replace('-', '_')}_bot"
    assert main(["bots", "new", package, "--game", game, "--dir", str(tmp_path)]) == 0
    root = tmp_path / package
    imported = imported_modules(root / package / "bot.py")
    assert {name for name in imported if not name.startswith(("random", "collections"))}
    assert {name.split(".")[0] for name in imported} <= {
        "__future__",
        "random",
        "collections",
        "swick_sdk",
    }
    readme = (root / "README.md").read_text()
    assert f"--game {game}" in readme
    monkeypatch.syspath_prepend(str(root))
    args = ["bots", "check", "--game", game, "--strategy", f"{package}.bot:Bot"]
    assert main([*args, "--positions", "300"]) == 0
    # Its own test, as written, passes too.
    (test_file,) = (root / "tests").glob("test_*.py")
    spec = importlib.util.spec_from_file_location(f"{package}_tests", test_file)
    assert spec is not None and spec.loader is not None
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)
    tests.test_the_bot_only_answers_legally()
    assert load_strategy(f"{package}.bot:Bot") is not None


def test_bots_check_refuses_a_table_size_the_game_has_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bots", "check", "--strategy", "examples.euchre_bot:Steady", "--game", "euchre"]
    assert main([*args, "--players", "5"]) == 2
    assert "euchre is played at 4 seats" in capsys.readouterr().err
    assert main([*args, "--players", "4", "--positions", "100"]) == 0
    with pytest.raises(SystemExit):
        main(["bots", "check", "--strategy", "examples.euchre_bot:Steady", "--game", "poker"])


def test_a_new_bot_of_a_game_there_is_not_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no game 'poker'"):
        scaffold("abot", tmp_path, "poker")
    assert not (tmp_path / "abot").exists()
