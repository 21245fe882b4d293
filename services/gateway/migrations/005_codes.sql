-- Device links (services/gateway/link_codes.py): the short one-time code a signed-in device
-- shows so that a new device joins its account. Only a keyed hash of the code is kept.
CREATE TABLE link_codes (
    code_hash  text PRIMARY KEY,        -- HMAC-SHA256 of the code, hex
    account_id text NOT NULL,
    device_id  text NOT NULL,           -- the device that asked (its next code replaces this)
    created_at bigint NOT NULL,         -- ms since the epoch
    expires_at bigint NOT NULL,         -- ms since the epoch
    used_at    bigint                   -- when a device joined with it (once at most)
);
CREATE UNIQUE INDEX link_codes_device ON link_codes (device_id);
CREATE INDEX link_codes_expiry ON link_codes (expires_at);

-- Recovery codes (services/gateway/recovery_codes.py): an account's ten one-time codes,
-- shown once and kept as SHA-256 hashes only.
CREATE TABLE recovery_codes (
    code_hash  text PRIMARY KEY,        -- SHA-256 of the code, hex
    account_id text NOT NULL,
    created_at bigint NOT NULL,         -- ms since the epoch
    used_at    bigint                   -- when it signed someone in (once at most)
);
CREATE INDEX recovery_codes_account ON recovery_codes (account_id);
