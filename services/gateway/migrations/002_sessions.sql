-- Each player's token version (services/gateway/sessions.py): signing out everywhere raises
-- it, and the gateways refuse tokens signed under an older one. A player without a row is at 0.
CREATE TABLE sessions (
    player_id  text PRIMARY KEY,
    version    integer NOT NULL CHECK (version > 0),
    revoked_at bigint NOT NULL          -- ms since the epoch, of the last sign-out everywhere
);
