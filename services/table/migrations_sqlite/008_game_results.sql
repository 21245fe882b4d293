-- Each player's result of each finished game: the same as the PostgreSQL migration
-- 010_game_results.sql.

CREATE TABLE tables_game_results (
    table_id   TEXT NOT NULL,
    game_no    INTEGER NOT NULL,
    player_id  TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    bot        TEXT,
    side       INTEGER NOT NULL,
    points     INTEGER,
    chips      INTEGER,
    place      INTEGER,
    left_early INTEGER NOT NULL,
    ended_ms   INTEGER NOT NULL,
    PRIMARY KEY (table_id, game_no, player_id),
    FOREIGN KEY (table_id, game_no) REFERENCES tables_game_records
);
CREATE INDEX tables_game_results_by_player
    ON tables_game_results (player_id, ended_ms DESC, table_id DESC, game_no DESC);
