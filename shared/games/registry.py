"""The games this platform runs, by name."""

from __future__ import annotations

from typing import Any

from shared.games.contract_whist import CONTRACT_WHIST
from shared.games.euchre import EUCHRE
from shared.games.interface import GameModule
from shared.games.swick import SWICK

AnyGame = GameModule[Any, Any, Any, Any, Any]

GAMES: dict[str, AnyGame] = {
    SWICK.name: SWICK,
    EUCHRE.name: EUCHRE,
    CONTRACT_WHIST.name: CONTRACT_WHIST,
}


def game(name: str) -> AnyGame:
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None
