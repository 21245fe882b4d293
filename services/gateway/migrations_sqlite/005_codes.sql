-- Device links' one-time codes, as keyed hashes (the PostgreSQL schema's gateway.link_codes).
CREATE TABLE gateway_link_codes (
    code_hash  TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    device_id  TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE UNIQUE INDEX gateway_link_codes_device ON gateway_link_codes (device_id);
CREATE INDEX gateway_link_codes_expiry ON gateway_link_codes (expires_at);

-- Recovery codes, as hashes (the PostgreSQL schema's gateway.recovery_codes).
CREATE TABLE gateway_recovery_codes (
    code_hash  TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX gateway_recovery_codes_account ON gateway_recovery_codes (account_id);
