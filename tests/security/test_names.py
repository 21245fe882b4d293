"""Display names cannot pass for a bot's, and chat says no control or bidi characters: the
name check itself, and sign-up and chat against the real services (``cluster``)."""

from __future__ import annotations

import httpx
import pytest

from services.bots.levels import LEVELS
from services.gateway.chat import clean_text
from services.gateway.identity import check_name
from services.gateway.names import LEVELS as RESERVED_LEVELS
from shared.bot_names import BOT_NAMES
from tests.services.client import signed_up
from tests.services.cluster import Cluster

IMPERSONATIONS = [
    *BOT_NAMES,
    "Bram",
    "cleo",
    "DEX",
    "Dеx",  # Cyrillic е
    "Medium bot 2",
    "Medium",
    "hard",
    "Robot",
    "B0T",
    "ВОТ",  # Cyrillic
    "Ｂot",  # fullwidth
    "b-o-t",
    "Cle0",
    "CIeo",  # capital I for l
    "Esmé",
    "Finn2",
    "Ada Lovelace",
    "Аlice",  # Cyrillic А: mixed scripts
    "Fіnn",  # Cyrillic і
    "Εsme",  # Greek Ε
]


@pytest.mark.parametrize("name", IMPERSONATIONS)
def test_names_that_imitate_bots_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match=r"bot|script"):
        check_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "Alice",
        "Adam",
        "Dexter",
        "Bo Tan",
        "Zoë",
        "Алиса",
        "李小龍",
        "すし太郎",
        "Jean-Luc",
        "Neighbour",
        "Farmer 12",
        "Keeper",
        "Rita",
        "Ivan",
        "Olga",
        "Ursula",
        "Everett",
    ],
)
def test_ordinary_names_in_one_script_pass(name: str) -> None:
    assert check_name(name) == name


def test_the_reserved_levels_are_the_built_in_bots() -> None:
    assert set(RESERVED_LEVELS) == set(LEVELS)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("gg \u202eon ysae", "gg on ysae"),  # a right-to-left override
        ("a\u2066b\u2069c\u200f", "abc"),  # isolates and a mark
        ("ring\x07 the\x00 bell\x1b[2J", "ring the bell[2J"),  # control characters
        ("tab\tand\nnew line", "tab and new line"),
        ("\u202e\x00", ""),
        ("café 🂡", "café 🂡"),
    ],
)
def test_chat_strips_control_and_bidi_characters(said: str, kept: str) -> None:
    assert clean_text(said) == kept


pytestmark = pytest.mark.usefixtures("whole_platform")


@pytest.mark.parametrize("name", ["Bram", "Medium bot 2", "Аlice", "Dеx"])
async def test_sign_up_refuses_a_bot_name(cluster: Cluster, name: str) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        reply = await http.post("/api/players", json={"name": name})
    assert reply.status_code == 422, reply.text
    assert "token" not in reply.json()


async def test_chat_lines_reach_the_table_clean(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Chat Host", "Chat Guest") as (host, guest):
        table = (await host.http("POST", "/api/tables", json={})).json()["id"]
        await host.watch(table)
        await guest.watch(table)
        answer = await host.request(
            {"type": "chat", "table": table, "text": "hi \u202eereht\x00 all"}
        )
        assert answer["type"] == "ack", answer
        line = await guest.wait(lambda: next(iter(guest.chat), None))
        assert line["text"] == "hi ereht all"
