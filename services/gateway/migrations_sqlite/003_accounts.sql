-- Accounts and their devices (the PostgreSQL schema's gateway.accounts and gateway.devices).
CREATE TABLE gateway_accounts (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    handle_key  TEXT NOT NULL,
    tag         INTEGER NOT NULL CHECK (tag BETWEEN 0 AND 9999),
    created_at  INTEGER NOT NULL,
    deleted_at  INTEGER,
    UNIQUE (handle_key, tag)
);

CREATE TABLE gateway_devices (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES gateway_accounts (id),
    kind        TEXT NOT NULL,
    how         TEXT NOT NULL,
    address     TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    revoked_at  INTEGER
);
CREATE INDEX gateway_devices_by_account ON gateway_devices (account_id);
