"""A bot written outside the repository, as docs/bots.md tells a stranger to write and deploy
it: the example strategy (which imports only the bot SDK) copied into a directory of its own,
served by the installed ``swick bots`` command run from that directory with no PYTHONPATH, as
its own registered bot with its own broker user, plays its seat at a real table."""

from __future__ import annotations

import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import httpx

from services.load.platform import free_port
from tests.services.cluster import Cluster
from tests.services.database import timeouts
from tests.services.play import bots_playing
from tests.services.test_bot_failures import eventually

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cautious_bot.py"


def swick_command() -> list[str]:
    """The installed ``swick`` entry point (``pip install -e .``), as a stranger runs it."""
    script = Path(sys.executable).parent / "swick"
    return [str(script)] if script.exists() else [sys.executable, "-m", "services.cli"]


def turns_played(port: int, name: str) -> float:
    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    except httpx.HTTPError:
        return 0.0
    for line in text.splitlines():
        if line.startswith(f'swick_bot_turns_total{{bot="{name}"}}'):
            return float(line.split()[-1])
    return 0.0


def start(
    home: Path, name: str, port: int, env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:
        return subprocess.Popen(
            [
                *swick_command(),
                *("bots", "--strategy", "mybot:Cautious", "--name", name),
                *("--think-ms", "0", "--port", str(port)),
            ],
            cwd=home,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )


async def test_a_bot_of_its_own_served_from_outside_the_repo_plays_its_seat(
    cluster: Cluster, tmp_path: Path
) -> None:
    name = f"x-{secrets.token_hex(4)}"
    await cluster.register_bot(name, "mybot:Cautious", owner="A stranger")
    home = tmp_path / "mybot"
    home.mkdir()
    shutil.copy(EXAMPLE, home / "mybot.py")
    env = {k: v for k, v in cluster.env(f"bot-{name}").items() if k != "PYTHONPATH"}
    port = free_port()
    process = start(home, name, port, env, tmp_path / "bot.log")
    try:
        bots = {"1": name, "2": "medium", "3": "medium"}
        async with bots_playing(cluster.base, bots, timer_seconds=120) as (_, table):
            assert process.poll() is None, (tmp_path / "bot.log").read_text()
            # Every turn of the stranger's seat was answered by its service, none by the timer.
            assert not await timeouts(cluster.settings, table)
            await eventually(lambda: turns_played(port, name) > 0, within=60)
    finally:
        process.terminate()
        process.wait(timeout=30)
