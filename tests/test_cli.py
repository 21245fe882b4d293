"""The ``swick`` command: ``--version``, and every option's default in every ``--help``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pty
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version

import pytest

from services.cli import main, parser


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
