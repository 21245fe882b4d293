-- Each table's recent chat (the PostgreSQL schema's gateway.chat).
CREATE TABLE gateway_chat (
    n         INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id  TEXT NOT NULL,
    line_id   TEXT NOT NULL,
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    at        INTEGER NOT NULL
);
CREATE INDEX gateway_chat_table ON gateway_chat (table_id, n);
