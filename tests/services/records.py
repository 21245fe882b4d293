"""A finished game's record, as the gateway serves it, against what its players were shown."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tests.services.client import Player
from tests.services.play import views_seen


class Fingerprinted(Protocol):
    @property
    def fingerprint(self) -> str: ...


R = TypeVar("R", bound=Fingerprinted)


async def checked_record(
    players: Sequence[Player],
    table: str,
    load: Callable[[Any], R],
    check_nothing_hidden: Callable[[dict[str, Any], R], None],
) -> R:
    """Game 1's record of ``table`` (read with a game's ``load``): the one its views promised
    (by fingerprint), naming the players in their seats, and no view any player was sent
    showed a card it hid (``check_nothing_hidden``), of the many (20 or more a player) they
    were sent."""
    host = players[0]
    reply = await host.http("GET", f"/api/tables/{table}/games/1/record")
    assert reply.status_code == 200, reply.text
    record = load(reply.json())
    assert record.fingerprint == host.views[table]["fingerprint"]
    # It names who sat where (by name, a bot by its level too), and never an account's id.
    seated = [s["player"] for s in host.views[table]["seats"]]
    assert reply.json()["players"] == [
        p and {"name": p["name"], "bot": p.get("bot")} for p in seated
    ], reply.json()["players"]
    seen = 0
    for player in players:
        for shown in views_seen(player, table):
            check_nothing_hidden(shown, record)
            seen += 1
    assert seen > len(players) * 20
    return record
