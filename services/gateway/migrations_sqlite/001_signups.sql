-- Sign-ups by client address (as the PostgreSQL schema "gateway", prefixed gateway_).
CREATE TABLE gateway_signups (
    address TEXT NOT NULL,
    at      REAL NOT NULL
);
CREATE INDEX gateway_signups_address ON gateway_signups (address, at);
