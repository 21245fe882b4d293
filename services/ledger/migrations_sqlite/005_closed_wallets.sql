-- A deleted account's wallet is closed (migrations/005_closed_wallets.sql): its balance went
-- to the house, and it never opens again. Times in seconds since the epoch.
CREATE TABLE ledger_closed_wallets (
    player_id TEXT PRIMARY KEY,
    returned  INTEGER NOT NULL,
    closed_at REAL NOT NULL
);
