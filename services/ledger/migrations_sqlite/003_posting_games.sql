-- Each posting names the game its table plays: the same as the PostgreSQL migration
-- 003_posting_games.sql.

ALTER TABLE ledger_postings ADD COLUMN game TEXT NOT NULL DEFAULT 'swick';
CREATE INDEX ledger_postings_game ON ledger_postings (game, id);
