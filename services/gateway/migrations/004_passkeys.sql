-- Passkeys (services/gateway/passkeys.py): the WebAuthn credentials an account signs in with,
-- several per account. No foreign key to accounts: an account is never removed, only marked
-- deleted, and signing in checks that its account is still there.
CREATE TABLE passkeys (
    id           text PRIMARY KEY,              -- the credential id, base64url (the browser's)
    account_id   text NOT NULL,
    public_key   bytea NOT NULL,                -- COSE, as the authenticator gave it
    sign_count   bigint NOT NULL CHECK (sign_count >= 0),  -- a clone's count lags behind
    backed_up    boolean NOT NULL,              -- synced by a passkey provider, as last seen
    device_type  text NOT NULL,                 -- single_device or multi_device
    transports   text NOT NULL,                 -- comma-separated hints: usb, internal, ...
    label        text NOT NULL,                 -- the player's name for it
    created_at   bigint NOT NULL,               -- ms since the epoch
    last_used_at bigint                         -- its last sign-in, if any
);
CREATE INDEX passkeys_by_account ON passkeys (account_id);

-- The challenges handed out with each ceremony's options, each good once and for a few
-- minutes; every new one clears the expired.
CREATE TABLE webauthn_challenges (
    ticket     text PRIMARY KEY,                -- what the client hands back with its answer
    purpose    text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
    account_id text NOT NULL,                   -- who registers ('' for a sign-in)
    challenge  bytea NOT NULL,
    expires_at bigint NOT NULL                  -- ms since the epoch
);
CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at);
