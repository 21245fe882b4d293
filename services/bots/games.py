"""The games a bot can be dealt into: how to read a turn's view, write an answer, and the
rules' default for each, chosen by the view's ``game`` (a Swick view has none: it came first)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.games.contract_whist.codec import CODEC as WHIST_CODEC
from shared.games.contract_whist.seat_default import seat_default as whist_default
from shared.games.euchre.codec import CODEC as EUCHRE_CODEC
from shared.games.euchre.seat_default import seat_default as euchre_default
from shared.games.swick.codec import CODEC as SWICK_CODEC
from shared.games.swick.seat_default import seat_default as swick_default


@dataclass(frozen=True, slots=True)
class BotGame:
    name: str
    load_view: Callable[[Any], Any]
    dump_action: Callable[[Any], Any]
    seat_default: Callable[[Any], Any]


GAMES: dict[str, BotGame] = {
    "swick": BotGame("swick", SWICK_CODEC.load_view, SWICK_CODEC.dump_action, swick_default),
    "euchre": BotGame("euchre", EUCHRE_CODEC.load_view, EUCHRE_CODEC.dump_action, euchre_default),
    "contract-whist": BotGame(
        "contract-whist", WHIST_CODEC.load_view, WHIST_CODEC.dump_action, whist_default
    ),
}


def game_of(view: Mapping[str, Any]) -> BotGame | None:
    """The game a view (as JSON) is of; ``None`` for a game no bot here plays."""
    name = view.get("game", "swick")
    return GAMES.get(name) if isinstance(name, str) else None


def view_game(view: object) -> str:
    """The game of a view already read (a ``SwickView``, an ``EuchreView``, a ``WhistView``)."""
    name: str = getattr(view, "game", "swick")
    return name
