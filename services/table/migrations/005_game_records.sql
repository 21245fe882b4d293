-- Finished games' public records, built once when a game ends and served as stored. The text
-- is kept byte for byte (not jsonb, which would rewrite it); players: everyone seated at the
-- table up to the game's end, who may read a private table's records.

CREATE TABLE game_records (
    table_id text NOT NULL REFERENCES tables,
    game_no  integer NOT NULL,
    record   text NOT NULL,
    players  text[] NOT NULL,
    PRIMARY KEY (table_id, game_no)
);
