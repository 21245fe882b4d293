"""The Swick Online bot SDK: everything a bot for any of the platform's games needs.

Import from here, and only from here: ``swick_sdk`` (what every game shares) and one module a
game, ``swick_sdk.swick``, ``swick_sdk.euchre`` and ``swick_sdk.contract_whist`` (each game's
view, actions, legal options, card helpers and the built-in medium bot's choice). Their names
are a stable contract: ``SDK_VERSION`` changes when one of them changes incompatibly; the
platform's modules they come from are internal and may change. ``pip install`` the platform
(``pip install -e .`` in a checkout, or its wheel) and ``import swick_sdk`` works from
anywhere, with no ``PYTHONPATH``.

A bot is a class built with a ``random.Random`` whose ``choose(view, legal)`` returns one of
``legal``; ``view.game`` says which game's view it is (``game_of``). Measure it with
``swick arena --game G --seats mybot:MyBot,medium,... --duplicate``, check it with
``swick bots check --game G --strategy mybot:MyBot`` (or ``check``) and serve it to real
tables with ``swick bots --strategy mybot:MyBot --name mybot`` (or ``serve``); see
docs/bots.md.

**Cards**: each game's view holds that game's own cards (ints numbered for its deck); every
game module converts them to the protocol's codes (``code``: ``"QS"``, ``"10H"``) and to one
numbering shared by all the games (``index``): ``card_index(code)``, suit * 13 + rank over the
full 52-card deck (♣ 0, ♦ 1, ♥ 2, ♠ 3; the Two 0 to the Ace 12), so the Queen of spades is 49
in every game. ``card_code`` is its inverse.

**How it is called**: ``swick bots`` builds one instance of the class per process and calls
``choose`` for every table the bot sits at, from one thread of its own, one decision at a
time: no locking is needed, but state kept on the instance is shared by all the tables (key it
by ``view.seat`` and the table, or keep none). An exception, an illegal answer or more than
10 s gives the seat the rules' default.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from services.bots.check import CheckReport, check
from services.bots.games import view_game as game_of
from services.bots.strategy import Strategy, StrategyFactory, load_strategy
from services.serve import run_bots, until_stopped
from shared.games.interface import Option
from shared.settings import Settings
from swick_sdk import contract_whist, euchre, swick
from swick_sdk.cards import (
    DECK,
    RANKS,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    CardCode,
    card_code,
    card_index,
    rank_of_index,
    suit_of_index,
)

SDK_VERSION = "1.0"

GAMES = ("swick", "euchre", "contract-whist")
"""The games a bot can be seated at: what ``view.game`` (``game_of(view)``) is."""

# The port ``swick bots`` (and ``serve``) answers /healthz, /readyz and /metrics on by default:
# not the built-in bots' (9101) nor the platform's internal ones, so both run on one machine.
DEFAULT_PORT = 9110

__all__ = [
    "DECK",
    "DEFAULT_PORT",
    "GAMES",
    "RANKS",
    "SDK_VERSION",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "CardCode",
    "CheckReport",
    "Option",
    "Strategy",
    "StrategyFactory",
    "card_code",
    "card_index",
    "check",
    "contract_whist",
    "euchre",
    "game_of",
    "load_strategy",
    "rank_of_index",
    "serve",
    "suit_of_index",
    "swick",
]


def serve(
    factory: StrategyFactory,
    name: str,
    *,
    amqp_url: str | None = None,
    port: int = DEFAULT_PORT,
    think_ms: int | None = None,
) -> None:
    """Serve ``factory``'s strategy to the tables as the registered bot ``name`` until the
    process is stopped (what ``swick bots --strategy ... --name ...`` does). ``amqp_url`` is
    the bot's broker URL (``SWICK_AMQP_URL`` by default); ``port`` answers /healthz, /readyz
    and /metrics; ``think_ms`` is the pause at tables with people."""
    settings = Settings.from_env()
    if amqp_url is not None:
        settings = replace(settings, amqp_url=amqp_url, amqp_urls={})
    if think_ms is not None:
        settings = replace(settings, bot_think_ms=think_ms)
    asyncio.run(until_stopped(run_bots(settings, {name: factory}, port=port)))
