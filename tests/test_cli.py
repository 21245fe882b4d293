"""The ``swick`` command: ``--version``, and every option's default in every ``--help``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pty
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any, NamedTuple, cast

import pytest

from services.bots.contract_whist.levels import Medium as WhistMedium
from services.bots.euchre.levels import Medium as EuchreMedium
from services.cli import main, parser
from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.euchre import EUCHRE
from shared.games.interface import Command, RecordVerdict
from shared.games.lifecycle import Player, StartGame, TakeSeat
from shared.games.records import build_record
from shared.games.registry import GAMES, AnyGame

# Each game's record as the JavaScript verifier's tests have it, with tampered copies and the
# Python engine's verdict on each.
RECORDS = Path(__file__).resolve().parent / "web" / "fixtures"
RECORD_FIXTURES = {"swick": "record.json", "euchre": "euchre.json", "contract-whist": "whist.json"}


def commands(command: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield command
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from commands(sub)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == f"swick {version('swick-online')}"


def test_every_help_shows_every_default() -> None:
    checked = 0
    for command in commands(parser()):
        text = " ".join(command.format_help().split())
        for action in command._actions:
            if not action.option_strings or action.default is argparse.SUPPRESS:
                continue
            assert action.help, f"{command.prog} {action.option_strings[0]} has no help"
            assert f"(default: {action.default})" in text, (command.prog, action.dest)
            checked += 1
    assert checked > 30


def on_a_terminal(*args: str) -> str:
    """What ``swick *args`` writes to a terminal (standard output and error both)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "services.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env=os.environ | {"TERM": "xterm-256color", "COLUMNS": "100"},
    )
    os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):  # EIO once the command has exited and closed its side
        while chunk := os.read(controller, 65536):
            shown += chunk
    os.close(controller)
    assert process.wait() == 0, shown
    return shown.decode()


def test_a_long_command_shows_progress_on_a_terminal_only() -> None:
    command = ("bench", "engine", "--hands", "300")
    shown = on_a_terminal(*command)
    assert "3 seats" in shown and "/300" in shown  # the bar, with its hands done of 300
    assert "hands/s" in shown  # then the figures
    piped = subprocess.run(
        [sys.executable, "-m", "services.cli", *command], capture_output=True, text=True, check=True
    )
    assert piped.stderr == "" and "\x1b" not in piped.stdout
    as_json = on_a_terminal(*command, "--json")
    assert "/300" not in as_json
    assert json.loads(as_json)["benchmark"] == "engine"


def test_the_floor_benchmark_times_each_bare_hop_and_leaves_nothing_behind() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "services.cli", "bench", "floor", "--samples", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    floors = json.loads(shown.stdout)["floors"]
    assert [f["gap_ms"] for f in floors] == [40, 0]
    for f in floors:
        parts = (f["socket_ms"], f["broker_ms"], f["commit_ms"])
        assert all(part > 0 for part in parts)
        assert f["total_ms"] == sum(parts)
    queues = subprocess.run(
        ["rabbitmqctl", "list_queues", "name"], capture_output=True, text=True, check=True
    ).stdout
    assert "swick.floor." not in queues  # both queues went with their consumers


def bots_game_log(
    game: Any, settings: dict[str, Any], seats: int, seed: str, bot: Any
) -> list[Any]:
    """A whole game's events as a table logs them (JSON): ``seats`` people sit, the first
    starts it with ``seed``, and ``bot`` makes every decision to the game's end."""
    state = game.new_table(game.make_config({**settings, "private": True}))
    log: list[Any] = []
    actions: list[tuple[int | None, Any]] = [
        (None, TakeSeat(seat, Player(f"p{seat}", f"Seat {seat}"), 0)) for seat in range(seats)
    ]
    actions.append((0, StartGame(seed)))
    n = 0
    while game.phase(state) != "ended":
        actor, action = actions.pop(0) if actions else (None, None)
        if action is None:
            actor = game.to_act(state)[0]
            legal = [o.action for o in game.legal_actions(state, actor) if o.legal]
            action = bot.choose(game.view_for(state, actor), legal)
        command = Command(actor=actor, action=action, action_id=f"a{n}", seq=state.seq)
        state, events = game.step(state, command)
        log.extend(game.dump_event(event) for event in events)
        n += 1
    return log


class Verifiable(NamedTuple):
    """A game whose record ``swick verify`` checks, and what it says of a good and a bad one."""

    game: Any
    settings: dict[str, Any]
    seats: int
    seed: str
    bot: Callable[[], Any]  # a medium bot, to play every seat
    dealt: tuple[str, int]  # where in the record the cards dealt that are tampered with are
    verified: str
    mismatch: str


VERIFIABLE = {
    # A whole game to 3 points: its first hand tampered with.
    "euchre": Verifiable(
        EUCHRE,
        {"target": 3},
        4,
        "ab" * 32,
        lambda: EuchreMedium(random.Random(9)),
        ("hands", 0),
        "VERIFIED",
        "MISMATCH",
    ),
    # A whole game of 3 rounds at 3 seats: its second round tampered with.
    "contract-whist": Verifiable(
        CONTRACT_WHIST,
        {"seats": 3, "rounds": 3},
        3,
        "cd" * 32,
        lambda: WhistMedium(random.Random(4)),
        ("rounds", 1),
        "VERIFIED: all 3 rounds",
        "MISMATCH after 1 good round",
    ),
}


@pytest.mark.parametrize("name", VERIFIABLE)
def test_verify_checks_a_record_by_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    case = VERIFIABLE[name]
    log = bots_game_log(case.game, case.settings, case.seats, case.seed, case.bot())
    built = build_record(f"t-{name}", log, case.seats, 1, name)
    assert built is not None
    good = tmp_path / "good.json"
    good.write_text(built.data)
    assert main(["verify", str(good)]) == 0
    assert case.verified in capsys.readouterr().out
    record = json.loads(built.data)
    assert record["algorithm"] == f"{name}-fair-v1"
    part, number = case.dealt
    dealt = record[part][number]["dealt"]
    dealt[0][0], dealt[1][0] = dealt[1][0], dealt[0][0]  # two seats' first cards swapped
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record))
    assert main(["verify", str(bad)]) == 1
    assert case.mismatch in capsys.readouterr().out


def test_every_game_has_a_record_to_verify() -> None:
    assert set(RECORD_FIXTURES) == set(GAMES)


@pytest.mark.parametrize("game", sorted(RECORD_FIXTURES))
def test_verify_says_what_each_game_s_check_found(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = json.loads((RECORDS / RECORD_FIXTURES[game]).read_text(encoding="utf-8"))
    record, verdict = fixture["record"], fixture["verdict"]
    deals = "rounds" if "rounds" in verdict else "hands"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"VERIFIED: all {verdict[deals]} {deals} were dealt by the revealed seed "
        f"(fingerprint {record['fingerprint']}).\n"
    )
    for tampered in fixture["tampered"]:
        path.write_text(json.dumps(tampered["record"]))
        found = tampered["verdict"]
        if tampered["record"]["algorithm"] != record["algorithm"]:
            # Another game's algorithm: that game's check cannot read this one's record.
            assert main(["verify", str(path)]) == 2, tampered["name"]
            assert "swick verify: cannot read" in capsys.readouterr().err
            continue
        assert main(["verify", str(path)]) == 1, tampered["name"]
        assert capsys.readouterr().out == (
            f"MISMATCH after {found[deals]} good {deals}: {found['mismatch']}\n"
        )


class Fourth:
    """A game registered by a test only: records that name its algorithm are its own."""

    name = "fourth"
    record_algorithm = "fourth-fair-v1"

    def verify_record(self, data: Any) -> RecordVerdict:
        deals = data["deals"]
        good = next((n for n, deal in enumerate(deals) if deal != "fair"), len(deals))
        mismatch = "" if good == len(deals) else f"deal {good + 1} is not fair"
        return RecordVerdict(not mismatch, good, "deals", data["fingerprint"], mismatch)


def test_verify_asks_the_game_registered_for_the_record_s_algorithm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GAMES, Fourth.name, cast(AnyGame, Fourth()))
    path = tmp_path / "fourth.json"
    record = {"algorithm": Fourth.record_algorithm, "fingerprint": "f1", "deals": ["fair"] * 2}
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out == (
        "VERIFIED: all 2 deals were dealt by the revealed seed (fingerprint f1).\n"
    )
    path.write_text(json.dumps(record | {"deals": ["fair", "marked", "fair"]}))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out == "MISMATCH after 1 good deals: deal 2 is not fair\n"
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "swick verify: cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "seats"), [("euchre", 4), ("contract-whist", 4)])
def test_the_engine_benchmark_plays_another_game(game: str, seats: int) -> None:
    command = [sys.executable, "-m", "services.cli", "bench", "engine", "--game", game]
    done = subprocess.run(
        [*command, "--hands", "20", "--json"], capture_output=True, text=True, check=True
    )
    (run,) = json.loads(done.stdout)["runs"]
    assert run["game"] == game and run["seats"] == seats and run["hands"] >= 20
    assert run["commands"] > run["hands"]
    for figure in (
        "commands_per_second",
        "hands_per_second",
        "step_microseconds",
        "view_microseconds",
        "views_microseconds",
        "spliced_microseconds",
    ):
        assert isinstance(run[figure], float) and run[figure] > 0, figure
    text = subprocess.run(
        [*command, "--hands", "5"], capture_output=True, text=True, check=True
    ).stdout
    assert text.startswith(f"{game}, {seats} seats: ") and text.count("\n") == 1
    for words in ("hands/s", "commands/s", "decide+evolve", "µs mean", "a view", "spliced"):
        assert words in text, words
