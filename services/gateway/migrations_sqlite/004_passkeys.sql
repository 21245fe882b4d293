-- Passkeys and their ceremonies' challenges (the PostgreSQL schema's gateway.passkeys and
-- gateway.webauthn_challenges).
CREATE TABLE gateway_passkeys (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL,
    public_key   BLOB NOT NULL,
    sign_count   INTEGER NOT NULL CHECK (sign_count >= 0),
    backed_up    INTEGER NOT NULL CHECK (backed_up IN (0, 1)),
    device_type  TEXT NOT NULL,
    transports   TEXT NOT NULL,
    label        TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
);
CREATE INDEX gateway_passkeys_by_account ON gateway_passkeys (account_id);

CREATE TABLE gateway_webauthn_challenges (
    ticket     TEXT PRIMARY KEY,
    purpose    TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in')),
    account_id TEXT NOT NULL,
    challenge  BLOB NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX gateway_webauthn_challenges_by_expiry ON gateway_webauthn_challenges (expires_at);
