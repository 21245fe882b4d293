"""The chips of a table as the ledger would book them from a game's transfers, to check that
none is made or lost and that the stacks and the pot are what the transfers moved."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from shared.games.interface import Transfer
from shared.games.lifecycle import Player


class Staked(Protocol):
    """A table state's chips: the pot, and each seat's player and stack."""

    pot: int
    players: tuple[Player | None, ...]
    stacks: tuple[int, ...]


class Books:
    """Every wallet that sat at the table (keyed ``wallet:<player id>``), and the pot."""

    def __init__(self) -> None:
        self.accounts: dict[str, int] = {"pot": 0}
        self.brought = 0

    def seat(self, player: Player, stack: int) -> None:
        """A player sits down bringing ``stack``."""
        self.accounts[f"wallet:{player.id}"] = stack
        self.brought += stack

    def book(self, moves: Iterable[Transfer], s: Staked) -> None:
        """Book ``moves``; then the pot and each seated player's wallet are those of ``s``."""
        for move in moves:
            assert move.amount > 0
            self.accounts[move.debit] -= move.amount
            self.accounts[move.credit] += move.amount
        assert sum(self.accounts.values()) == self.brought, "chips were created or destroyed"
        assert self.accounts["pot"] == s.pot
        for player, stack in zip(s.players, s.stacks, strict=True):
            if player is not None:
                assert self.accounts[f"wallet:{player.id}"] == stack

    def wallet(self, player_id: str) -> int:
        return self.accounts[f"wallet:{player_id}"]
