-- Who won each finished game (a JSON array of [player_id, name, bot]) and when it was stored,
-- for the per-game boards of games won. Records stored before this migration name no winner.

ALTER TABLE game_records
    ADD COLUMN winners jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN ended_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX game_records_ended ON game_records (ended_at);
