"""What the ledger service needs from its books, whichever database holds them.

``LedgerStorage`` is implemented by ``Ledger`` (PostgreSQL, ``ledger.py``) and by
``SqliteLedger`` (an embedded SQLite file, ``ledger_sqlite.py``); both apply the same rules
(``rules.py``), and the contract tests in ``tests/contract/test_ledger_storage.py`` run
against both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from shared.messages import Posting

Outcome = Literal["applied", "duplicate", "waiting", "rejected"]


class Rejected(Exception):
    """A posting that breaks a rule of the ledger (an ante the wallet cannot cover)."""


class Pending(Exception):
    """The table's earlier postings are not all applied yet."""


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    debits: int
    credits: int
    accounts_match_transfers: bool
    open_pots: list[str]
    rejected: int
    mismatches: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "debits": self.debits,
            "credits": self.credits,
            "balanced": self.debits == self.credits,
            "accounts_match_transfers": self.accounts_match_transfers,
            "open_pots": self.open_pots,
            "rejected_postings": self.rejected,
            "reconciliation_mismatches": self.mismatches,
        }


class LedgerStorage(Protocol):
    """Double-entry books: accounts ('bank', 'wallet:<player>', 'pot:<table>',
    'carry:<table>') whose balance is credits - debits, moved only by the transfers (legs) of
    postings; every account's totals equal the sums of its transfers, and all debits equal
    all credits."""

    async def migrate(self) -> None:
        """Create or update the schema (with the bank's account). Safe to call again."""

    # Wallets.

    async def open_wallet(self, player_id: str, name: str = "", bot: bool = False) -> int:
        """The wallet's balance, opening it the first time with the starting grant (a posting
        ``grant:<player>`` from the bank, code 'grant'; none if the grant is 0). A ``name``
        records (or renames) the player; ``bot`` counts only when the player is new. Opened
        once, however many calls race."""

    async def seat(
        self, player_id: str, name: str, bot: bool, after: tuple[str, int] | None
    ) -> int:
        """``open_wallet``'s balance, for a player sitting down; raises ``Pending`` (nothing
        opened) while their last table's postings up to ``after`` (table, posting number) are
        not all applied."""

    async def balance(self, player_id: str) -> int | None:
        """The wallet's balance (below zero after set penalties), ``None`` if never opened."""

    # Postings.

    async def apply(self, posting: Posting) -> Outcome:
        """Apply ``posting`` exactly once (by its id), all its legs or none; a table's postings
        (``posting_no`` 1, 2, 3...) in order.

        'applied': written, then the table's postings that waited for it are applied too, in
        order. 'duplicate': applied before (nothing changes, but a posting of the table still
        waiting for its turn is applied now: a redelivery finishes an interrupted drain).
        'waiting': it comes after one not applied yet; kept (once) until that one is.
        'rejected': it breaks a rule (a leg moving nothing, or between an account and itself
        or an account of no known kind; an ante its wallet cannot cover; a pot or carry going
        below zero); nothing moves, it is kept (once) for an operator with its reason, and its
        table's later postings wait. Accounts a posting names are opened at 0. After an applied
        table posting, each player of its ``stacks`` whose wallet it moved gets a
        reconciliation row (the table's stack against the wallet), and its ``names`` name
        players."""

    async def set_aside(self, posting: Posting, reason: str) -> None:
        """Keep ``posting`` (once) for an operator with ``reason``, unapplied: a posting that
        could not be applied after repeated attempts. It counts as a rejected posting."""

    # Reading.

    async def history(
        self, player_id: str, limit: int = 50, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A player's transfers, newest first (by time, then transfer id), at most ``limit``,
        after the transfer ``before`` (the last id of the previous page): each ``{"id",
        "amount"`` (positive into the wallet, negative out of it), ``"code", "table_id",
        "hand_no", "at"`` (ISO 8601 with its UTC offset)``}``. The legs of one posting share
        their time; paging cuts anywhere and yields every transfer once."""

    async def leaderboard(self, since: datetime, limit: int = 20) -> list[dict[str, Any]]:
        """Players by net chips won at the tables (grants left out) in transfers since
        ``since``, best first: ``{"player_id", "name"`` (the id when unnamed), ``"bot", "net"}``.
        """

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        """The table's last reconciliation of each player it touched: ``{"table_id",
        "postings_applied", "players": [{"player_id", "posting_no", "table_says",
        "ledger_says", "matches"}]`` (by player id), ``"matches"}``."""

    async def check(self) -> Health:
        """The books' invariants, recomputed from scratch as of one moment (over the whole
        database): debits equal credits, each account equals its transfers, every hand's pot
        that paid out nets to zero, no rejected posting, no reconciliation mismatch; ``ok`` if
        all hold."""
