"""What the stores read of a player's finished games, the same SQL for either database: the
history (``games_of``), the statistics (``stats_of``) and the ladders (``rating_board``,
``ratings_of``). A store names its tables (``tables.x`` or ``tables_x``) and its numbered
placeholders (``$1`` or ``?1``); the statements are otherwise one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from services.table.archive_rows import added_up, played_games, rating_of
from shared.ratings import PROVISIONAL
from shared.rows import Row
from shared.tables_read import HistoryCursor, PlayedGame, PlayerStats, RatingRow

FIRST_PAGE = HistoryCursor(2**62, "", 0)  # before every game: a history's first page
RATING_COLUMNS = "game, ladder, rated, name, mu, sigma, games"

# A page of a player's history and everyone's results of its games, in one statement.
HISTORY = (
    "WITH page AS (SELECT r.table_id, r.game_no, r.ended_ms, t.game"
    " FROM {results} r JOIN {tables} t USING (table_id)"
    " WHERE r.player_id = {m}1 AND (CAST({m}2 AS text) IS NULL OR t.game = {m}2)"
    " AND (r.ended_ms, r.table_id, r.game_no) < ({m}3, {m}4, {m}5)"
    " ORDER BY r.ended_ms DESC, r.table_id DESC, r.game_no DESC LIMIT {m}6)"
    " SELECT page.game, page.ended_ms, o.table_id, o.game_no, o.player_id, o.seat, o.name,"
    " o.bot, o.side, o.points, o.chips, o.place, o.left_early, o.stats"
    " FROM page JOIN {results} o USING (table_id, game_no)"
    " ORDER BY page.ended_ms DESC, page.table_id DESC, page.game_no DESC, o.seat, o.left_early"
)
STATS = (
    "SELECT r.place, r.left_early, r.stats FROM {results} r JOIN {tables} t USING (table_id)"
    " WHERE r.player_id = {m}1 AND t.game = {m}2"
)
# A ladder, best first: settled ratings by mean, then provisional ones (``shared.ratings``).
BOARD = (
    f"SELECT {RATING_COLUMNS} FROM {{ratings}} WHERE game = {{m}}1 AND ladder = {{m}}2"
    f" AND games > 0 ORDER BY (sigma >= {PROVISIONAL}), mu DESC, rated LIMIT {{m}}3"
)
OWN_RATINGS = (
    f"SELECT {RATING_COLUMNS} FROM {{ratings}} WHERE rated = {{m}}1"
    " AND ladder = 'people' AND games > 0 ORDER BY game"
)


class PlayerReads(ABC):
    tables: ClassVar[str]  # how the store names a table: ``tables.{}`` or ``tables_{}``
    mark: ClassVar[str]  # its placeholders' sign: ``$`` or ``?``

    @abstractmethod
    async def _read(self, query: str, *args: Any) -> Sequence[Row]: ...

    def _sql(self, template: str) -> str:
        named = self.tables.format
        return template.format(
            m=self.mark,
            results=named("game_results"),
            tables=named("tables"),
            ratings=named("ratings"),
        )

    async def games_of(
        self, player_id: str, game: str | None, before: HistoryCursor | None, limit: int
    ) -> list[PlayedGame]:
        at = before or FIRST_PAGE
        args = (player_id, game, at.ended_ms, at.table_id, at.game_no, limit)
        return played_games(await self._read(self._sql(HISTORY), *args))

    async def stats_of(self, player_id: str, game: str) -> PlayerStats:
        return added_up(game, await self._read(self._sql(STATS), player_id, game))

    async def rating_board(self, game: str, ladder: str, limit: int) -> list[RatingRow]:
        return [rating_of(row) for row in await self._read(self._sql(BOARD), game, ladder, limit)]

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        return [rating_of(row) for row in await self._read(self._sql(OWN_RATINGS), player_id)]
