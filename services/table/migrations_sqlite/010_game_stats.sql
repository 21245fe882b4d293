-- Each player's statistics of each finished game: the same as the PostgreSQL migration
-- 012_game_stats.sql.

ALTER TABLE tables_game_results ADD COLUMN stats TEXT NOT NULL DEFAULT '{}';
