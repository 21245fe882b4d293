"""What the table service needs from its storage, whichever database holds it.

``TableStorage`` is implemented by ``TableStore`` (PostgreSQL, ``store.py``) and by
``SqliteTableStore`` (one embedded SQLite file, ``store_sqlite.py``); the contract tests in
``tests/contract/test_table_storage.py`` run against both. Times are the database's clock.
It includes the read model other services may read (``shared/tables_read.py``: its rows are
defined there), so each of those reads is one query of the same store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shared.tables_read import (
    BotAccount,
    GameRecordRow,
    HistoryCursor,
    PlayedGame,
    PlayerStats,
    RatingRow,
    Stored,
    TableReads,
    TableRow,
    Winner,
)

__all__ = [
    "Append",
    "BotAccount",
    "DuplicateAction",
    "Fenced",
    "GameRecordRow",
    "HistoryCursor",
    "PlayedGame",
    "PlayerStats",
    "Queued",
    "RatingRow",
    "SeatConflict",
    "Stored",
    "TableRow",
    "TableStorage",
    "TooManyTables",
    "Winner",
    "Write",
]


class Fenced(Exception):
    """This worker no longer holds the shard: it must drop the shard and write nothing."""


class DuplicateAction(Exception):
    """The action id was already applied to this table."""


class SeatConflict(Exception):
    """A player took a seat here while holding one at another table."""


class TooManyTables(Exception):
    """The host already has as many open tables as one may."""


@dataclass(frozen=True, slots=True)
class Write:
    """One accepted command and what it changes besides the log."""

    seq: int
    action_id: str
    events: list[Any]
    phase: str
    seats: list[Any]
    deadline: int | None
    snapshot: Any | None = None
    posting: Callable[[int], Any] | None = None  # the posting's body, given its number
    seat_claims: Sequence[tuple[str, int]] = ()  # (player, seat)
    seat_releases: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class Append:
    """One write of a batch: a table's command, under the lease of the table's shard."""

    table_id: str
    shard: int
    epoch: int
    write: Write


Queued = tuple[int, Any]  # a posting in the outbox: (outbox id, body)


class TableStorage(TableReads, Protocol):
    """Tables, their event logs and snapshots, shard leases, seatings, bot accounts and the
    outbox.

    JSON values (configs, seats, events, snapshots, posting bodies) come back as they went in.
    """

    async def migrate(self, shards: int) -> None:
        """Create or update the schema, and a lease row (free) for each of ``shards`` shards.
        Safe to call again, and from several processes."""

    # Leases.

    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None:
        """Take ``shard`` for ``ttl`` seconds if its lease expired or is ``owner``'s already.

        Every success bumps the lease's epoch (the fencing token) and returns the new epoch;
        ``None`` while another owner's lease is unexpired, or if the shard has no lease row.
        """

    async def renew(self, owner: str, epochs: dict[int, int], ttl: float) -> set[int]:
        """Extend by ``ttl`` seconds the leases of ``epochs`` (shard -> epoch) that ``owner``
        still holds at the same epoch; returns those shards. A lease taken over since (another
        owner, or a newer epoch) is not extended and not returned. Expiry alone does not lose a
        lease: it is lost when someone acquires it."""

    async def release(self, owner: str, shard: int) -> None:
        """Let ``shard``'s lease expire now if ``owner`` holds it (the epoch stays)."""

    async def heartbeat(self, worker_id: str, window: float) -> int:
        """Record that ``worker_id`` is alive now; how many workers (this one included) were
        seen in the last ``window`` seconds. Workers not seen for an hour are forgotten."""

    async def leave(self, worker_id: str) -> None:
        """A worker stops: every lease it holds expires now and it is no longer counted."""

    # Tables.

    async def create(self, row: TableRow, host_limit: int | None = None) -> bool:
        """Insert a new table; ``False`` (and nothing written) if its id or invite code exists
        already.

        With ``host_limit``, raises ``TooManyTables`` (and writes nothing) if ``row.host_id``
        hosts that many tables not closed already; concurrent creations by one host are
        counted one after the other, so the limit holds under any race."""

    async def table(self, table_id: str) -> TableRow | None:
        """The table's row as last written, or ``None``."""

    async def by_invite(self, code: str) -> TableRow | None:
        """The table with invite code ``code``, or ``None``."""

    async def lobby(self, limit: int = 200) -> list[TableRow]:
        """Public tables not closed, the most recently updated (created or appended) first."""

    async def live_tables(self, shard: int) -> list[str]:
        """Tables of ``shard`` that may have a deadline, a bot to wake or a close to come:
        those whose phase is not ``closed``."""

    async def load(self, table_id: str, back: int = 1) -> Stored | None:
        """The table's row, its latest snapshot and the event batches logged after that
        snapshot's seq, in seq order (all batches when it has no snapshot), read as of one
        moment; ``None`` if there is no such table.

        With ``back`` above 1, the snapshot is the ``back``-th latest instead (2: the one
        before the latest; all batches when there are fewer snapshots): the recent history
        of a table, a hand or more further back."""

    async def overview(self) -> dict[str, Any]:
        """For operators: ``{"tables": [...], "shards": [...], "workers": [...]}``.

        Tables: those ``live_tables`` would wake (all shards), the most recently updated first,
        at most 200, each ``{"table_id", "phase", "seq", "shard", "private", "players"`` (the
        names of the seats taken, in seat order), ``"updated_at"`` (ISO 8601 with its UTC
        offset)``}``. Shards: every lease row by shard, ``{"shard", "owner", "epoch", "live"}``
        (``live``: unexpired). Workers: every worker remembered, by id, ``{"worker_id",
        "seen_s_ago"}``.
        """

    async def departure(self, player_id: str) -> tuple[str, int] | None:
        """The table a player last left, and the table's posting count once they left (the
        number of the last posting that may have settled their chips there)."""

    async def events(self, table_id: str) -> list[Any]:
        """Every event of a table, in order (the batches flattened)."""

    async def seat_of(self, player_id: str) -> tuple[str, int] | None:
        """The table and seat a player holds, or ``None``."""

    async def forget_player(self, player_id: str) -> int:
        """A deleted account's name forgotten (``services/table/forgetting.py``): every object
        of the logs (events, snapshots, seats summaries) naming the player's id is named
        ``DELETED_PLAYER``, and the stored records and replays of those tables' finished games
        are rebuilt from the rewritten log in place of the old ones (their winners too). Ids
        stay. How many tables named the player; safe to call again."""

    async def append(
        self, table_id: str, shard: int, owner: str, epoch: int, write: Write
    ) -> tuple[int, Any] | None:
        """Log one accepted command under the lease, all or nothing, in one transaction that
        checks the lease before writing.

        Writes the events at ``write.seq``, the table's summary (seq, phase, seats, deadline,
        updated now), the snapshot if any, and releases then claims seats. With a posting, the
        table's posting count goes up by one, ``write.posting(count)`` gives the body, and it
        is queued in the outbox: returns (outbox id, body); else ``None``. Each released player
        gets a departure with the table's posting count after this write (so one who leaves in
        the command that settled their hand waits for that posting).

        Raises, having written nothing:
        ``Fenced`` if ``owner``/``epoch`` no longer match the shard's lease (whether or not it
        expired), or if ``write.seq`` of the table was logged already (also when its action id
        is the same); ``DuplicateAction`` if the action id was logged for this table before;
        ``SeatConflict`` if a player claiming a seat here holds one (at any table).
        """

    async def append_batch(self, owner: str, appends: Sequence[Append]) -> list[Queued | None]:
        """Log several commands (of one table or many, in order) as ``append`` does each, in
        one transaction: all of them, or, raising as ``append`` does, none. Returns each one's
        queued posting."""

    async def save_record(self, record: GameRecordRow) -> None:
        """Store a finished game's record and each player's result of it (``results``), and
        rate its players by them (``shared.ratings``), in one transaction; a record stored
        already for that game is kept (both come from the same log, so they are the same),
        and so are its results, and nobody is rated for it again."""

    async def games_of(
        self, player_id: str, game: str | None, before: HistoryCursor | None, limit: int
    ) -> list[PlayedGame]:
        """The finished games the player sat in (of ``game`` only, when given), newest first:
        ``limit`` of them from just ``before`` that cursor (from the newest without one), each
        with everyone's results."""

    async def stats_of(self, player_id: str, game: str) -> PlayerStats:
        """The player's finished games of ``game`` added up (none: zeros)."""

    async def rating_board(self, game: str, ladder: str, limit: int) -> list[RatingRow]:
        """The game's ``ladder`` (``people`` or ``bots``), best first: the settled ratings by
        mean, then the provisional ones (``shared.ratings.PROVISIONAL``) by mean."""

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        """The player's ratings on the people's ladder of every game they were rated at, by
        game."""

    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None:
        """The stored record of the table's ``game_no``-th game (its text exactly as saved),
        or ``None``."""

    async def save_replay(self, table_id: str, game_no: int, replay: bytes) -> None:
        """Store a finished game's replay (gzip-compressed JSON); one stored already for that
        game is kept (both come from the same log, so they are the same)."""

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None:
        """The stored replay of the table's ``game_no``-th game, byte for byte, or ``None``."""

    async def games_won(self, game: str, since: float, limit: int) -> list[dict[str, Any]]:
        """Players by games of ``game`` won, among the ranked records stored since ``since``
        (seconds since the epoch), most first: ``{"player_id", "name", "bot", "won"}``. Wins
        over the same opponents on the same UTC day count once."""

    # Bot accounts.

    async def register_bot(self, name: str, owner: str) -> bool:
        """Create the bot account ``name``; ``False`` (and nothing changed) if it exists."""

    async def bot_account(self, name: str) -> BotAccount | None:
        """The bot account ``name``, or ``None``: tables seat registered bots only."""

    async def bot_accounts(self) -> list[BotAccount]:
        """Every bot account, by name."""

    async def outbox(self, shards: Iterable[int], older_than: float) -> list[tuple[int, Any]]:
        """Postings of ``shards`` queued more than ``older_than`` seconds ago and not ``sent``:
        (outbox id, body), oldest first, at most 500. Ids only grow: one is never reused."""

    async def sent(self, ids: Sequence[int]) -> None:
        """Take the postings ``ids`` out of the outbox (ids not there are ignored)."""
