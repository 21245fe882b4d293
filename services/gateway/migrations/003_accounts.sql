-- Accounts (services/gateway/accounts.py): an account is permanent, its id the subject of
-- every token it is given. A guest is an account without a credential yet.
CREATE TABLE accounts (
    id          text PRIMARY KEY,
    name        text NOT NULL,                 -- the display name
    handle_key  text NOT NULL,                 -- the name folded (case, look-alikes)
    tag         integer NOT NULL CHECK (tag BETWEEN 0 AND 9999),
    created_at  bigint NOT NULL,               -- ms since the epoch
    deleted_at  bigint,                        -- deleted by an operator: its handle is free
    UNIQUE (handle_key, tag)
);

-- The devices signed in to an account (services/gateway/devices.py): each token names one by
-- its ``sid``; a revoked device's tokens open nothing more.
CREATE TABLE devices (
    id          text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts (id),
    kind        text NOT NULL,                 -- "Chrome on Android", from the User-Agent
    how         text NOT NULL,                 -- how it signed in: new, passkey, link, recovery
    address     text NOT NULL,                 -- where from: the client address it came from
    created_at  bigint NOT NULL,
    last_seen   bigint NOT NULL,
    revoked_at  bigint
);
CREATE INDEX devices_by_account ON devices (account_id);
