"""A player sitting down, the same whichever database keeps the books: their last table's
postings applied first, then their wallet (a person's opened with the grant, a bot's filled up
by the house), then the seat recorded."""

from __future__ import annotations

from abc import ABC, abstractmethod

from services.ledger.storage import Pending


class Seating(ABC):
    @abstractmethod
    async def open_wallet(self, player_id: str, name: str = "", bot: bool = False) -> int: ...

    @abstractmethod
    async def _stake(self, player_id: str, name: str) -> int:
        """A bot's balance after the house fills its wallet up to the grant."""

    @abstractmethod
    async def _applied(self, table_id: str) -> int:
        """How many of the table's postings are applied."""

    @abstractmethod
    async def _record_seat(self, player_id: str, table_id: str, bot: bool) -> None:
        """Record that the player sits at the table (once)."""

    async def seat(
        self,
        player_id: str,
        name: str,
        bot: bool,
        after: tuple[str, int] | None,
        table_id: str | None = None,
    ) -> int:
        """The balance a player sits down with; ``Pending`` while their last table's postings
        (up to ``after``) are not all applied."""
        if after is not None:
            # The table they left, not the one they sit at now: that one is recorded below.
            left, posting_no = after
            done = await self._applied(left)
            if done < posting_no:
                raise Pending(f"{left} is applied to {done} of {posting_no}")
        if bot:
            balance = await self._stake(player_id, name)
        else:
            balance = await self.open_wallet(player_id, name, bot)
        if table_id and balance >= 0:  # a debt is refused a seat by every game: none recorded
            await self._record_seat(player_id, table_id, bot)
        return balance
