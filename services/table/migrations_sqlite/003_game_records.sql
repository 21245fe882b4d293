-- Finished games' public records, as the PostgreSQL migration 004 (players: a JSON array).

CREATE TABLE tables_game_records (
    table_id TEXT NOT NULL REFERENCES tables_tables,
    game_no  INTEGER NOT NULL,
    record   TEXT NOT NULL,
    players  TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no)
);
