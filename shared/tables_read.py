"""The tables' read model: what another service (the gateway) may read of the table service's
storage, and the rows it reads. This module is the contract; no reader imports the table
service.

Who writes it: the table service's workers, in the schema ``tables`` of PostgreSQL
(``services/table/store.py``) or the same tables of the embedded SQLite file
(``services/table/store_sqlite.py``). Both stores implement this protocol with the same
queries the table service itself runs, so each read has one SQL statement; a reader is handed
a store by whatever composes the services (``services/serve.py``, ``services/embedded.py``).

What it holds (``docs/read-model.md``):

- ``tables``: one row per table (``TableRow``): game, shard, config, private, invite code, the
  seq, phase, seats and deadline of its last accepted command, its host. Written at creation
  and by every accepted command, in the transaction that logs the command.
- ``events`` and ``snapshots``: the table's log, one batch of events per accepted command (by
  seq), and a snapshot now and then (``Stored``).
- ``seatings``: the one seat each seated player holds.
- ``game_records`` and ``game_replays``: each finished game's public record
  (``GameRecordRow``) and its gzip-compressed replay, written by the worker as the game ends.
- ``bot_accounts``: the bot names tables may seat (``BotAccount``).
- ``leases`` and ``workers``: the shards' owners and live workers, for the operators' overview.

What a reader may rely on: a table row and its log are written in one transaction, so a row's
``seq`` is never ahead of its log; a record or replay, once stored, never changes but when an
account is deleted (below); JSON values come back as they went in. A reader writes in two
cases only. ``save_record``/``save_replay`` of a game that ended before workers stored them,
built from the log with ``shared.games.records`` and ``shared.games.replays`` (pure functions
of the events, so every builder stores the same thing, and a stored one is kept). And
``forget_player``, when an operator deletes an account: its name becomes ``DELETED_PLAYER``
in the logs of the tables it sat at and in their records and replays (rebuilt from the
rewritten log, so a record still verifies: its seed, deals and plays are unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.settings import Settings


@dataclass(frozen=True, slots=True)
class TableRow:
    table_id: str
    game: str
    shard: int
    config: dict[str, Any]
    private: bool
    invite_code: str
    seq: int
    phase: str
    seats: list[Any]
    deadline: int | None
    host_id: str = ""  # the player who opened it


@dataclass(frozen=True, slots=True)
class BotAccount:
    """A bot name tables may seat: who runs it, and since when (ISO 8601, UTC)."""

    name: str
    owner: str
    created_at: str


@dataclass(frozen=True, slots=True)
class Stored:
    """A table as stored: its latest snapshot (if any) and the events logged after it."""

    row: TableRow
    snapshot: Any | None
    batches: list[tuple[int, list[Any]]]  # (seq, events) after the snapshot


@dataclass(frozen=True, slots=True)
class Winner:
    """A player who won a finished game, as seated when it ended."""

    player_id: str
    name: str
    bot: bool


@dataclass(frozen=True, slots=True, order=True)
class HistoryCursor:
    """Where a page of a player's history ends: games that ended before this one come next."""

    ended_ms: int
    table_id: str
    game_no: int

    def __str__(self) -> str:
        return f"{self.ended_ms}.{self.game_no}.{self.table_id}"

    @classmethod
    def parse(cls, text: str) -> HistoryCursor:
        """The cursor ``str`` wrote; ``ValueError`` for any other text."""
        ended, game_no, table_id = text.split(".", 2)
        if not (ended.isdigit() and game_no.isdigit() and table_id) or len(text) > 200:
            raise ValueError("not a history cursor")
        return cls(int(ended), table_id, int(game_no))


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A player's result of a finished game (``shared.games.results.SeatResult``, with who
    sat there): everyone who sat in during the game has one. ``left``: they left before its
    end, so their seat's result went to whoever sat there then, and they take the last place
    with no points or chips of the game's own (a leaver's chips moved when they left)."""

    player_id: str
    seat: int
    name: str
    bot: str | None  # a bot's level or registered name; ``None`` for a person
    side: int
    points: int | None
    chips: int | None
    place: int | None
    left: bool = False
    # What they did over the game (``GameModule.stats``): counts, for one who held the seat
    # from the game's start to its end; empty for the others.
    stats: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game in a player's history: its table, number and game, when it ended (ms
    since the epoch), how many places it had (sides: two in Euchre) and everyone's results."""

    table_id: str
    game_no: int
    game: str
    ended_ms: int
    results: tuple[PlayerResult, ...]

    @property
    def places(self) -> int:
        return len({result.side for result in self.results if not result.left})

    @property
    def cursor(self) -> HistoryCursor:
        return HistoryCursor(self.ended_ms, self.table_id, self.game_no)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's finished games of one game added up: how many, how many they came first in
    (alone or sharing first place) and left early, and their ``PlayerResult.stats`` summed."""

    game: str
    games: int
    first: int
    left: int
    stats: dict[str, int]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A rating on a game's ladder (``shared/ratings.py``): who (an account id on the people's
    ladder, a bot's name on the bots'), the name they were last seen by, the model's mean and
    deviation, and the rated games it counts."""

    game: str
    ladder: str
    rated: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class GameRecordRow:
    """A finished game's public record as stored: its JSON text, every player seated at the
    table up to the game's end (they may read a private table's records), and who won it (a
    Euchre partnership that reached the target, Contract Whist's top scores after the last
    round; nobody for a Swick game or a game cut short), whom they beat, and whether the game
    counts on the boards of games won (``shared/games/records.py``: ``counts_on_boards``)."""

    table_id: str
    game_no: int
    data: str
    players: tuple[str, ...]
    winners: tuple[Winner, ...] = ()
    opponents: tuple[str, ...] = ()  # the seated losers, sorted: persons by id, bots by name
    ranked: bool = False  # long enough or played for a stake: it counts on the boards
    # Each player's, stored beside the record and read back in a history (``games_of``), not
    # with the record: two records of one game are equal whatever results either carries.
    results: tuple[PlayerResult, ...] = field(default=(), compare=False)


class TableReads(Protocol):
    """What a reader of the tables may ask; each method is documented where the table service
    declares its whole storage (``services/table/storage.py``: ``TableStorage``)."""

    async def table(self, table_id: str) -> TableRow | None: ...

    async def by_invite(self, code: str) -> TableRow | None: ...

    async def lobby(self, limit: int = 200) -> list[TableRow]: ...

    async def load(self, table_id: str, back: int = 1) -> Stored | None: ...

    async def events(self, table_id: str) -> list[Any]: ...

    async def seat_of(self, player_id: str) -> tuple[str, int] | None: ...

    async def departure(self, player_id: str) -> tuple[str, int] | None: ...

    async def forget_player(self, player_id: str) -> int: ...

    async def overview(self) -> dict[str, Any]: ...

    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None: ...

    async def save_record(self, record: GameRecordRow) -> None: ...

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None: ...

    async def save_replay(self, table_id: str, game_no: int, replay: bytes) -> None: ...

    async def games_won(self, game: str, since: float, limit: int) -> list[dict[str, Any]]: ...

    async def bot_account(self, name: str) -> BotAccount | None: ...

    async def games_of(
        self, player_id: str, game: str | None, before: HistoryCursor | None, limit: int
    ) -> list[PlayedGame]: ...

    async def stats_of(self, player_id: str, game: str) -> PlayerStats: ...

    async def rating_board(self, game: str, ladder: str, limit: int) -> list[RatingRow]: ...

    async def ratings_of(self, player_id: str) -> list[RatingRow]: ...


# How a service that runs alone opens the read model: given its settings and the name its
# connections show (``application_name``), the table service's store, migrated, closed on exit.
OpenTableReads = Callable[[Settings, str], AbstractAsyncContextManager[TableReads]]
