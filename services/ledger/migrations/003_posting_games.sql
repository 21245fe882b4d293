-- Each posting names the game its table plays, so the leaderboard can be per game. Every
-- posting applied before this migration came from a Swick table (the other games moved no
-- chips yet), which is also the default of a posting that names no game.

ALTER TABLE postings ADD COLUMN game text NOT NULL DEFAULT 'swick';
CREATE INDEX postings_game ON postings (game, id);
