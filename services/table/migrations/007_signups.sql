-- Sign-ups by client address: each one can bring a starting grant, so the gateways limit them
-- per address and period (docs/chips.md). Rows older than the period are deleted as new ones
-- come.
CREATE TABLE tables.signups (
    address text NOT NULL,
    at      double precision NOT NULL   -- seconds since the epoch
);
CREATE INDEX signups_address ON tables.signups (address, at);
