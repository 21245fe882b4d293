-- Double-entry accounts and immutable transfers.
--
-- A transfer moves `amount` cents from its debit account to its credit account; an account's
-- balance is credits - debits. The bank issues chips (its balance is minus everything issued),
-- wallets hold a player's chips (set penalties may leave a debt), a table's pot and carry
-- never go below zero.

CREATE TABLE accounts (
    name    text PRIMARY KEY,   -- 'bank', 'wallet:<player>', 'pot:<table>', 'carry:<table>'
    kind    text NOT NULL CHECK (kind IN ('bank', 'wallet', 'pot', 'carry')),
    debits  bigint NOT NULL DEFAULT 0 CHECK (debits >= 0),
    credits bigint NOT NULL DEFAULT 0 CHECK (credits >= 0),
    CHECK (kind NOT IN ('pot', 'carry') OR credits >= debits)
);

-- What caused transfers: one table event (id '<table>:<seq>') or a grant ('grant:<player>').
CREATE TABLE postings (
    id         text PRIMARY KEY,
    table_id   text,
    posting_no bigint,          -- the table's postings count 1, 2, 3...: applied in this order
    hand_no    integer,
    applied_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (table_id, posting_no)
);

CREATE TABLE transfers (
    id         text PRIMARY KEY,   -- '<posting>:<leg>': the idempotency key
    posting_id text NOT NULL REFERENCES postings,
    debit      text NOT NULL REFERENCES accounts,
    credit     text NOT NULL REFERENCES accounts,
    amount     bigint NOT NULL CHECK (amount > 0),
    code       text NOT NULL,
    table_id   text,
    hand_no    integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (debit <> credit)
);
CREATE INDEX transfers_debit ON transfers (debit, created_at DESC);
CREATE INDEX transfers_credit ON transfers (credit, created_at DESC);
CREATE INDEX transfers_created ON transfers (created_at);

-- How far each table's postings were applied, and postings that arrived ahead of their turn.
CREATE TABLE table_progress (
    table_id   text PRIMARY KEY,
    posting_no bigint NOT NULL
);
CREATE TABLE waiting (
    table_id   text NOT NULL,
    posting_no bigint NOT NULL,
    body       jsonb NOT NULL,
    PRIMARY KEY (table_id, posting_no)
);

-- After each posting, the table's stacks of the players it touched; a difference with the
-- wallet is a reconciliation failure.
CREATE TABLE reconciliations (
    table_id   text NOT NULL,
    player_id  text NOT NULL,
    posting_no bigint NOT NULL,
    table_says bigint NOT NULL,
    ledger_says bigint NOT NULL,
    checked_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, player_id)
);

-- Postings the ledger could not apply (an ante the wallet cannot cover): kept for an operator.
CREATE TABLE rejected (
    posting_id text PRIMARY KEY,
    body       jsonb NOT NULL,
    reason     text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);

INSERT INTO accounts (name, kind) VALUES ('bank', 'bank');

CREATE TABLE players (
    player_id text PRIMARY KEY,
    name      text NOT NULL,
    bot       boolean NOT NULL DEFAULT false
);
