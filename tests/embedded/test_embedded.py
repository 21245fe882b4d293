"""``swick up --embedded``: the whole game in one process, with no broker and no database
server and on one public port, plays a hand with bots and keeps its books balanced."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from services.load.platform import answering, free_port
from tests.services.client import registered
from tests.services.play import act, quick_seated, views_seen

ADMIN_TOKEN = "embedded-test-operator-token"


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[tuple[str, str]]:
    port, internal_port = free_port(), free_port()
    # The ledger's port, taken by something else: embedded mode must not need it.
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    env = {
        **os.environ,
        "SWICK_LEDGER_URL": f"http://127.0.0.1:{busy.getsockname()[1]}",
        "SWICK_BOT_THINK_MS": "20",
        "SWICK_ADMIN_TOKEN": ADMIN_TOKEN,
        "PYTHONUNBUFFERED": "1",
    }
    log = (tmp_path / "up.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "services.cli",
            "up",
            "--embedded",
            "--port",
            str(port),
            "--data",
            str(tmp_path / "data"),
            "--internal-port",
            str(internal_port),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        asyncio.run(answering(base, "/readyz", process=process))
        yield base, f"http://127.0.0.1:{internal_port}"
    finally:
        process.terminate()
        assert process.wait(15) is not None
        busy.close()
    assert "Running EMBEDDED" in (tmp_path / "up.log").read_text()


async def test_quick_play_embedded(embedded: tuple[str, str]) -> None:
    base, _ = embedded
    player = await registered(base, "Solo")
    await player.connect()
    table = await quick_seated(player)

    def waiting_for_me(view: dict[str, object]) -> bool:
        """Between hands, with the table waiting for this player to ready up: no chip moves."""
        hand = view["hand_no"]
        return (
            isinstance(hand, int)
            and hand >= 3
            and view["phase"] == "ready"
            and player.my_turn(table)
        )

    while not waiting_for_me(player.views[table]):
        await player.wait(lambda: player.my_turn(table), 30)
        if waiting_for_me(player.views[table]):
            break
        options = [o["action"] for o in player.views[table]["options"] if o["legal"]]
        ready = [a for a in options if a["kind"] == "ready"]
        answer = await act(player, table, ready[0] if ready else options[-1])
        assert answer["type"] in ("ack", "reject")
    view = player.views[table]
    operator = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    async with httpx.AsyncClient(base_url=base, headers=operator) as http:
        for _ in range(100):
            health = (await http.get("/admin/status")).json()["ledger"]
            balance = (await player.http("GET", "/api/me/balance")).json()
            if balance["balance"] == view["seats"][0]["stack"]:
                break
            await asyncio.sleep(0.1)
    assert health["ok"], health
    assert balance["balance"] == view["seats"][0]["stack"]
    await player.close()


def test_a_busy_port_stops_embedded_mode_at_once_naming_it(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        command = [sys.executable, "-m", "services.cli", "up", "--embedded", "--port", str(port)]
        command += ["--data", str(tmp_path / "data")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert f"Port {port} on 127.0.0.1 is in use" in done.stderr, done.stderr


async def test_embedded_metrics(embedded: tuple[str, str]) -> None:
    """One process runs every service: its internal listener shows all their metrics, each
    family once, and the public port none."""
    base, internal = embedded
    async with httpx.AsyncClient() as http:
        shown = (await http.get(f"{internal}/metrics")).text
        public = await http.get(f"{base}/metrics")
    for name in (
        "swick_connected_players",
        "swick_shards_owned",
        "swick_bot_turns_total",
        "swick_ledger_invariants_ok",
    ):
        assert shown.count(f"# HELP {name} ") == 1, name
    assert public.status_code == 404


async def test_an_account_deleted_embedded(embedded: tuple[str, str]) -> None:
    """In one process over SQLite: refused while seated; once the player has left, their
    chips go to the house in books that still balance, their name leaves the chat, and their
    token opens nothing."""
    base, _ = embedded
    player = await registered(base, "Sortie")
    await player.connect()
    table = await quick_seated(player)
    said = await player.request({"type": "chat", "table": table, "text": "bye all"})
    assert said["type"] == "ack"
    operator = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    async with httpx.AsyncClient(base_url=base, headers=operator, timeout=30) as http:
        refused = await http.delete(f"/admin/accounts/{player.id}")
        assert refused.status_code == 409, refused.text
        while player.views[table]["seat"] is not None:  # between hands: gone at once
            answer = await act(player, table, {"kind": "leave"})
            assert answer["type"] in ("ack", "reject")
            await player.wait(lambda: player.views[table]["seat"] is None or player.answers, 30)
        # Its chips: its stack when it left, as the table last showed it seated.
        seated = [v for v in views_seen(player, table) if v["seat"] is not None][-1]
        stack = seated["seats"][seated["seat"]]["stack"]
        for _ in range(100):  # its last posting applied: the ledger closes it
            deleted = await http.delete(f"/admin/accounts/{player.id}")
            if deleted.status_code != 409:
                break
            await asyncio.sleep(0.1)
        assert deleted.status_code == 200, deleted.text
        assert deleted.json()["chat_lines_dropped"] == 1
        assert (await player.http("GET", "/api/me")).status_code == 401
        status = (await http.get("/admin/status")).json()
    assert status["ledger"]["ok"], status["ledger"]
    assert status["house"]["closed"] == deleted.json()["returned_to_house"]
    assert deleted.json()["returned_to_house"] == stack
    await player.close()
