-- The bot names tables may seat (the PostgreSQL schema's tables.bot_accounts).
CREATE TABLE tables_bot_accounts (
    name        TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    created_at  REAL NOT NULL
);
