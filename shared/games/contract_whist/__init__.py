"""Contract Whist: bid your tricks, 10 cards down to 2 and back up, as a pure engine."""

from shared.games.contract_whist.game import CONTRACT_WHIST, ContractWhistGame

__all__ = ["CONTRACT_WHIST", "ContractWhistGame"]
