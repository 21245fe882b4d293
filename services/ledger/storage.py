"""What the ledger service needs from its books, whichever database holds them.

``LedgerStorage`` is implemented by ``Ledger`` (PostgreSQL, ``ledger.py``) and by
``SqliteLedger`` (an embedded SQLite file, ``ledger_sqlite.py``); both apply the same rules
(``rules.py``), and the contract tests in ``tests/contract/test_ledger_storage.py`` run
against both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from shared.messages import Posting

Outcome = Literal["applied", "duplicate", "waiting", "rejected", "conflict"]


class Rejected(Exception):
    """A posting that breaks a rule of the ledger (an ante the wallet cannot cover, a leg out
    of bounds, an account not of its table): it is dead-lettered with this reason."""


class Pending(Exception):
    """The table's earlier postings are not all applied yet."""


class AtStake(Exception):
    """A player's chips are in a pot whose hand or game has not paid out: their wallet cannot
    close yet (``str(error)`` names the table)."""


class Closed(Exception):
    """The wallet was closed (its account deleted): it opens no more, for a grant or a seat."""


@dataclass(frozen=True, slots=True)
class Closing:
    """A closed wallet: what went to the house when it closed (below zero: a debt the house
    took on), and whether an earlier request had closed it already (then nothing changed)."""

    player_id: str
    returned: int
    already_closed: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "returned": self.returned,
            "already_closed": self.already_closed,
        }


@dataclass(frozen=True, slots=True)
class Health:
    """The invariants (``ok`` when all hold) and, apart from them, what needs an operator:
    dead-lettered postings, conflicting duplicates, and tables blocked behind a dead letter."""

    ok: bool
    debits: int
    credits: int
    accounts_match_transfers: bool
    open_pots: list[str]
    mismatches: int
    issued_outside_grants: int  # transfers out of the bank or the house that are no grant/stake
    dead_letters: int = 0
    conflicts: int = 0
    blocked_tables: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "debits": self.debits,
            "credits": self.credits,
            "balanced": self.debits == self.credits,
            "accounts_match_transfers": self.accounts_match_transfers,
            "open_pots": self.open_pots,
            "reconciliation_mismatches": self.mismatches,
            "issued_outside_grants": self.issued_outside_grants,
            "attention": bool(self.dead_letters or self.conflicts or self.blocked_tables),
            "dead_letters": self.dead_letters,
            "conflicts": self.conflicts,
            "blocked_tables": self.blocked_tables,
        }


class LedgerStorage(Protocol):
    """Double-entry books: accounts ('bank', 'bank:house', 'wallet:<player>', 'pot:<table>',
    'carry:<table>') whose balance is credits - debits, moved only by the transfers (legs) of
    postings; every account's totals equal the sums of its transfers, and all debits equal
    all credits. The bank only pays starting grants, the house only stakes bots."""

    async def migrate(self) -> None:
        """Create or update the schema (with the bank's account). Safe to call again."""

    # Wallets.

    async def open_wallet(self, player_id: str, name: str = "", bot: bool = False) -> int:
        """The wallet's balance, opening it the first time with the starting grant (a posting
        ``grant:<player>`` from the bank, code 'grant'; none if the grant is 0, or for a
        ``bot``: bots are staked by the house when seated). A ``name`` records (or renames) the
        player; ``bot`` counts only when the player is new. Opened once, however many calls
        race. Only the ledger's service credential reaches this (through ``seat``). Raises
        ``Closed`` for a closed wallet (``close_wallet``)."""

    async def seat(
        self,
        player_id: str,
        name: str,
        bot: bool,
        after: tuple[str, int] | None,
        table_id: str | None = None,
    ) -> int:
        """The balance of a player sitting down at ``table_id`` (recorded, unless it is below
        zero, which every game refuses a seat: only the players seated at a table may appear in
        its postings); raises ``Pending`` (nothing done) while
        their last table's postings up to ``after`` (table, posting number) are not all applied.
        A person's wallet opens as ``open_wallet`` does; a bot's (``bot``) is never granted: it
        is filled up to the grant from the house (a posting ``stake:<player>:<n>``, code
        'stake')."""

    async def balance(self, player_id: str) -> int | None:
        """The wallet's balance (below zero after set penalties), ``None`` if never opened."""

    async def close_wallet(self, player_id: str, after: tuple[str, int] | None = None) -> Closing:
        """Close a deleted account's wallet (opened or not): its whole balance goes to the
        house in one posting ``close:<player>`` (code 'close'; a debt the house takes on, from
        the house; none at 0), its name becomes ``DELETED_PLAYER``, and from then on
        ``open_wallet`` and ``seat`` raise ``Closed``. Closed once, however many calls race: a
        later call changes nothing and says so (``already_closed``). Raises, changing nothing,
        ``Pending`` while their last table's postings up to ``after`` are not all applied, and
        ``AtStake`` while chips of theirs are in a pot that has not paid out since."""

    # Postings.

    async def apply(self, posting: Posting) -> Outcome:
        """Apply ``posting`` exactly once (by its id), all its legs or none; a table's postings
        (``posting_no`` 1, 2, 3...) in order.

        'applied': written, then the table's postings that waited for it are applied too, in
        order. 'duplicate': applied before (nothing changes, but a posting of the table still
        waiting for its turn is applied now: a redelivery finishes an interrupted drain).
        'waiting': it comes after one not applied yet; kept (once) until that one is.
        'rejected': it breaks a rule (``rules.check_table_posting`` and ``check_seated``; an
        ante its wallet cannot cover; a pot or carry going below zero); nothing moves, it is
        dead-lettered (once, by its body) for an operator with its reason, and takes no place
        in its table's order: a valid posting of that number still applies, and until one
        does, the table's later postings wait (the table shows as blocked).
        'conflict': a posting of that number with another body was applied (or is applied
        while this one waits): it is never applied, and recorded (once by its body) and
        logged as a conflict. Accounts a posting names are opened at 0. After an applied table
        posting, each player of its ``stacks`` whose wallet it moved gets a reconciliation row
        (the table's stack against the wallet), and its ``names`` name players."""

    async def apply_batch(self, postings: Sequence[Posting]) -> bool:
        """Apply ``postings`` (in order) in one transaction if each of them is simply applied
        (none early, repeated, conflicting, breaking a rule, or releasing a waiting one): true;
        else write nothing and return false (apply them one by one). A store may always
        decline."""

    async def problems(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        """What needs an operator, newest first: ``{"dead_letters": [{"posting_id",
        "table_id", "posting_no", "reason", "times", "at"}], "conflicts": [{"posting_id",
        "table_id", "posting_no", "digest", "applied_digest", "times", "at"}]}``."""

    async def house(self) -> dict[str, int]:
        """The house's exposure: ``{"staked"`` (what it put into bots' wallets less what their
        tables returned, code 'unstake'), ``"balance"``
        (its account: minus what it staked), ``"held_by_bots"`` (the bots' wallets now),
        ``"result"`` (balance + held_by_bots: what the house is up or down against players)``}``.
        """

    async def dead_letter(self, posting: Posting, reason: str) -> None:
        """Set ``posting`` aside unapplied for an operator with ``reason``, as ``apply`` does a
        'rejected' one (once by its body; counted in ``check``'s ``dead_letters``, listed by
        ``problems``): also for a posting that could not be applied after repeated attempts."""

    # Reading.

    async def history(
        self, player_id: str, limit: int = 50, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A player's transfers, newest first (by time, then transfer id), at most ``limit``,
        after the transfer ``before`` (the last id of the previous page): each ``{"id",
        "amount"`` (positive into the wallet, negative out of it), ``"code", "table_id",
        "hand_no", "at"`` (ISO 8601 with its UTC offset)``}``. The legs of one posting share
        their time; paging cuts anywhere and yields every transfer once."""

    async def leaderboard(
        self, since: datetime, limit: int = 20, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Players by net chips won at the tables (grants left out) in transfers since
        ``since``, best first: ``{"player_id", "name"`` (the id when unnamed), ``"bot", "net"}``;
        with ``game``, only transfers of that game's tables (their postings name the game).
        """

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        """The table's last reconciliation of each player it touched: ``{"table_id",
        "postings_applied", "players": [{"player_id", "posting_no", "table_says",
        "ledger_says", "matches"}]`` (by player id), ``"matches"}``."""

    async def check(self) -> Health:
        """The books' invariants, recomputed from scratch as of one moment (over the whole
        database): debits equal credits, each account equals its transfers, every hand's pot
        that paid out nets to zero, no reconciliation mismatch, nothing left the bank or the
        house but grants and stakes; ``ok`` if all hold. Apart from them: how many postings
        are dead-lettered or in conflict, and which tables are blocked by a dead letter."""
