-- Each player's token version (the PostgreSQL schema's gateway.sessions).
CREATE TABLE gateway_sessions (
    player_id  TEXT PRIMARY KEY,
    version    INTEGER NOT NULL CHECK (version > 0),
    revoked_at INTEGER NOT NULL
);
