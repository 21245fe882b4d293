-- The ledger in an embedded SQLite file: the same tables as the PostgreSQL schema "ledger"
-- (migrations/), named with the prefix ledger_. JSON is stored as TEXT, times as seconds
-- since the epoch (REAL), booleans as 0/1.
--
-- A transfer moves `amount` cents from its debit account to its credit account; an account's
-- balance is credits - debits. The bank issues chips (its balance is minus everything issued),
-- wallets hold a player's chips (set penalties may leave a debt), a table's pot and carry
-- never go below zero.

CREATE TABLE ledger_accounts (
    name    TEXT PRIMARY KEY,   -- 'bank', 'wallet:<player>', 'pot:<table>', 'carry:<table>'
    kind    TEXT NOT NULL CHECK (kind IN ('bank', 'wallet', 'pot', 'carry')),
    debits  INTEGER NOT NULL DEFAULT 0 CHECK (debits >= 0),
    credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    CHECK (kind NOT IN ('pot', 'carry') OR credits >= debits)
);

-- What caused transfers: one table event (id '<table>:<seq>') or a grant ('grant:<player>').
CREATE TABLE ledger_postings (
    id         TEXT PRIMARY KEY,
    table_id   TEXT,
    posting_no INTEGER,          -- the table's postings count 1, 2, 3...: applied in this order
    hand_no    INTEGER,
    applied_at REAL NOT NULL,
    UNIQUE (table_id, posting_no)
);

CREATE TABLE ledger_transfers (
    id         TEXT PRIMARY KEY,   -- '<posting>:<leg>': the idempotency key
    posting_id TEXT NOT NULL REFERENCES ledger_postings,
    debit      TEXT NOT NULL REFERENCES ledger_accounts,
    credit     TEXT NOT NULL REFERENCES ledger_accounts,
    amount     INTEGER NOT NULL CHECK (amount > 0),
    code       TEXT NOT NULL,
    table_id   TEXT,
    hand_no    INTEGER,
    created_at REAL NOT NULL,
    CHECK (debit <> credit)
);
CREATE INDEX ledger_transfers_debit ON ledger_transfers (debit, created_at DESC);
CREATE INDEX ledger_transfers_credit ON ledger_transfers (credit, created_at DESC);
CREATE INDEX ledger_transfers_created ON ledger_transfers (created_at);
CREATE INDEX ledger_transfers_posting ON ledger_transfers (posting_id);

-- How far each table's postings were applied, and postings that arrived ahead of their turn.
CREATE TABLE ledger_table_progress (
    table_id   TEXT PRIMARY KEY,
    posting_no INTEGER NOT NULL
);
CREATE TABLE ledger_waiting (
    table_id   TEXT NOT NULL,
    posting_no INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (table_id, posting_no)
);

-- After each posting, the table's stacks of the players it touched; a difference with the
-- wallet is a reconciliation failure.
CREATE TABLE ledger_reconciliations (
    table_id    TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    posting_no  INTEGER NOT NULL,
    table_says  INTEGER NOT NULL,
    ledger_says INTEGER NOT NULL,
    checked_at  REAL NOT NULL,
    PRIMARY KEY (table_id, player_id)
);

-- Postings the ledger could not apply (an ante the wallet cannot cover): kept for an operator.
CREATE TABLE ledger_rejected (
    posting_id TEXT PRIMARY KEY,
    body       TEXT NOT NULL,
    reason     TEXT NOT NULL,
    at         REAL NOT NULL
);

CREATE TABLE ledger_players (
    player_id TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    bot       INTEGER NOT NULL DEFAULT 0
);

INSERT INTO ledger_accounts (name, kind) VALUES ('bank', 'bank');
