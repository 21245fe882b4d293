"""The first bot SDK, Swick's alone: kept so that the bots written against it keep working.

New bots import ``swick_sdk`` (every game: ``swick_sdk.swick``, ``swick_sdk.euchre``,
``swick_sdk.contract_whist``); this module re-exports ``swick_sdk.swick``'s names and the
shared ones (``serve``, ``Strategy``, ``DEFAULT_PORT``...) under the names it always had, and
``SDK_VERSION`` stays ``"1.0"`` while they do.
"""

from __future__ import annotations

from swick_sdk import DEFAULT_PORT, Strategy, StrategyFactory, load_strategy, serve, swick
from swick_sdk.swick import *  # noqa: F403  (Swick's names are this SDK's)

SDK_VERSION = "1.0"

__all__ = ["DEFAULT_PORT", "SDK_VERSION", "Strategy", "StrategyFactory", "load_strategy", "serve"]
__all__ += swick.__all__
# Names ``swick_sdk.swick`` gained after this SDK: not this SDK's (its ``DECK`` would be
# Swick's 32 cards, where ``swick_sdk.DECK`` is the 52 codes).
__all__.remove("DECK")
__all__.remove("GAME")
__all__.remove("SEATS")
__all__.remove("code")
__all__.remove("from_index")
__all__.remove("index")
