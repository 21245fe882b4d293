-- Stored replays, and the boards' opponents and ranking: the same as the PostgreSQL migration
-- 009_replays_and_ranking.sql.

CREATE TABLE tables_game_replays (
    table_id TEXT NOT NULL REFERENCES tables_tables,
    game_no  INTEGER NOT NULL,
    replay   BLOB NOT NULL,
    PRIMARY KEY (table_id, game_no)
);

ALTER TABLE tables_game_records ADD COLUMN opponents TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tables_game_records ADD COLUMN ranked INTEGER NOT NULL DEFAULT 0;
