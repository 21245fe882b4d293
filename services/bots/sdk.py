"""The first bot SDK, Swick's alone: kept so that the bots written against it keep working.

New bots import ``swick_sdk`` (every game: ``swick_sdk.swick``, ``swick_sdk.euchre``,
``swick_sdk.contract_whist``); this module re-exports ``swick_sdk.swick``'s names and the
shared ones (``serve``, ``Strategy``, ``DEFAULT_PORT``...) under the names it always had, and
``SDK_VERSION`` stays ``"1.0"`` while they do.
"""

from __future__ import annotations

from swick_sdk import DEFAULT_PORT, Strategy, StrategyFactory, load_strategy, serve
from swick_sdk.swick import (
    Action,
    Card,
    ChooseAnte,
    DecideTrump,
    DiscardFourth,
    Draw,
    FaceTrump,
    HandResult,
    Knock,
    Option,
    Phase,
    PlayCard,
    Ready,
    SeatStatus,
    SeatView,
    SkipHand,
    SwickView,
    Trick,
    label,
    legal_actions,
    make,
    medium,
    own_cards,
    parse,
    play_order,
    rank_of,
    refused,
    seen_cards,
    strength,
    suit_of,
    trump_suit,
)

SDK_VERSION = "1.0"

__all__ = [
    "DEFAULT_PORT",
    "SDK_VERSION",
    "Action",
    "Card",
    "ChooseAnte",
    "DecideTrump",
    "DiscardFourth",
    "Draw",
    "FaceTrump",
    "HandResult",
    "Knock",
    "Option",
    "Phase",
    "PlayCard",
    "Ready",
    "SeatStatus",
    "SeatView",
    "SkipHand",
    "Strategy",
    "StrategyFactory",
    "SwickView",
    "Trick",
    "label",
    "legal_actions",
    "load_strategy",
    "make",
    "medium",
    "own_cards",
    "parse",
    "play_order",
    "rank_of",
    "refused",
    "seen_cards",
    "serve",
    "strength",
    "suit_of",
    "trump_suit",
]
