-- Sign-ups by client address (the PostgreSQL schema's tables.signups).
CREATE TABLE tables_signups (
    address TEXT NOT NULL,
    at      REAL NOT NULL
);
CREATE INDEX tables_signups_address ON tables_signups (address, at);
