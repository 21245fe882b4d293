-- The ledger trusts no posting blindly: the same as the PostgreSQL migration 002_trust.sql.

ALTER TABLE ledger_postings ADD COLUMN digest TEXT;

CREATE TABLE ledger_waiting_by_digest (
    table_id   TEXT NOT NULL,
    posting_no INTEGER NOT NULL,
    digest     TEXT NOT NULL,
    body       TEXT NOT NULL,
    arrived_at REAL NOT NULL,
    PRIMARY KEY (table_id, posting_no, digest)
);
INSERT INTO ledger_waiting_by_digest (table_id, posting_no, digest, body, arrived_at)
SELECT table_id, posting_no, 'legacy:' || posting_no, body, 0 FROM ledger_waiting;
DROP TABLE ledger_waiting;
ALTER TABLE ledger_waiting_by_digest RENAME TO ledger_waiting;

CREATE TABLE ledger_dead_postings (
    digest     TEXT PRIMARY KEY,
    posting_id TEXT NOT NULL,
    table_id   TEXT,
    posting_no INTEGER,
    body       TEXT NOT NULL,
    reason     TEXT NOT NULL,
    times      INTEGER NOT NULL DEFAULT 1,
    first_at   REAL NOT NULL,
    last_at    REAL NOT NULL
);
CREATE INDEX ledger_dead_postings_table ON ledger_dead_postings (table_id, posting_no);
INSERT INTO ledger_dead_postings
    (digest, posting_id, table_id, posting_no, body, reason, first_at, last_at)
SELECT 'legacy:' || posting_id, posting_id, json_extract(body, '$.table_id'),
       json_extract(body, '$.posting_no'), body, reason, at, at
FROM ledger_rejected;
DROP TABLE ledger_rejected;

CREATE TABLE ledger_conflicts (
    table_id   TEXT NOT NULL,
    posting_no INTEGER NOT NULL,
    digest     TEXT NOT NULL,
    posting_id TEXT NOT NULL,
    body       TEXT NOT NULL,
    times      INTEGER NOT NULL DEFAULT 1,
    first_at   REAL NOT NULL,
    last_at    REAL NOT NULL,
    PRIMARY KEY (table_id, posting_no, digest)
);

CREATE TABLE ledger_seats (
    player_id TEXT NOT NULL,
    table_id  TEXT NOT NULL,
    bot       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, player_id)
);
INSERT OR IGNORE INTO ledger_seats (player_id, table_id)
SELECT DISTINCT substr(account, 8), table_id FROM (
    SELECT debit AS account, table_id FROM ledger_transfers
    UNION ALL SELECT credit, table_id FROM ledger_transfers
) WHERE table_id IS NOT NULL AND substr(account, 1, 7) = 'wallet:';

INSERT OR IGNORE INTO ledger_accounts (name, kind) VALUES ('bank:house', 'bank');
