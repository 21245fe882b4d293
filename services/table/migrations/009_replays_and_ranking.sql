-- Each finished game's replay, built once by the table worker when the game ends (gzip of its
-- JSON, served as stored: a request never reads the table's log), and what the boards of games
-- won need: whom the winners beat (a JSON array of identities, sorted: wins over the same
-- opponents on one day count once) and whether the game was long enough or staked to count.
-- Records stored before this migration are not ranked: they count on no board.

CREATE TABLE game_replays (
    table_id text NOT NULL REFERENCES tables,
    game_no  integer NOT NULL,
    replay   bytea NOT NULL,
    PRIMARY KEY (table_id, game_no)
);

ALTER TABLE game_records
    ADD COLUMN opponents text NOT NULL DEFAULT '[]',
    ADD COLUMN ranked boolean NOT NULL DEFAULT false;
