-- What each player did over each finished game (GameModule.stats: counts such as Euchre's
-- hands made and euchred), as JSON text, for their statistics. Results stored before this
-- migration have none ('{}').

ALTER TABLE game_results ADD COLUMN stats text NOT NULL DEFAULT '{}';
