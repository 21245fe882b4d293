-- Who won each finished game and when it was stored (seconds since the epoch): the same as
-- the PostgreSQL migration 008_game_winners.sql.

ALTER TABLE tables_game_records ADD COLUMN winners TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tables_game_records ADD COLUMN ended_at REAL NOT NULL DEFAULT 0;
CREATE INDEX tables_game_records_ended ON tables_game_records (ended_at);
