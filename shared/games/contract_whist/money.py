"""The stakes: paid into the pot when a game starts, shared by the winners when it ends (or by
the others when some end it early), docs/rules/contract-whist.md §8, and the chip movements
the ledger books for them."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games import money
from shared.games.contract_whist import events as ev
from shared.games.contract_whist.evolve import apply
from shared.games.contract_whist.state import State
from shared.games.interface import Transfer
from shared.games.money import stake_transfers

split = money.split
"""Each seat's share of a pot: the winners' equal shares, the odd cents one each to the winners
met first going round the table from the game's first bidder."""


def transfers(state: State, events: Sequence[ev.Event]) -> list[Transfer]:
    """Stakes go from wallets to the pot when a game starts; the pot pays out when it ends."""
    return stake_transfers(state, events, apply, ev.GameStarted, ev.GameEnded, _payout)


def _payout(s: State, event: ev.GameEnded) -> tuple[str, int]:
    # A win by score, or a share of the stakes of those who ended the game early.
    code = "whist_win" if event.reason == "rounds" or event.forfeited else "stake_return"
    return code, max(s.round_no, 1)
