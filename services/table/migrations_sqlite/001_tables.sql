-- The table service in an embedded SQLite file: the same tables as the PostgreSQL schema
-- "tables" (migrations/), named with the prefix tables_. JSON is stored as TEXT, times as
-- seconds since the epoch (REAL), booleans as 0/1.

CREATE TABLE tables_tables (
    table_id     TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    shard        INTEGER NOT NULL,
    config       TEXT NOT NULL,
    private      INTEGER NOT NULL,
    invite_code  TEXT NOT NULL UNIQUE,
    created_at   REAL NOT NULL,
    -- The lobby's summary, kept by the owning worker with every accepted command.
    seq          INTEGER NOT NULL DEFAULT 0,
    phase        TEXT NOT NULL,
    seats        TEXT NOT NULL,
    deadline     INTEGER,
    updated_at   REAL NOT NULL,
    -- Postings are numbered per table so the ledger applies them in order.
    postings     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tables_tables_shard ON tables_tables (shard);
CREATE INDEX tables_tables_updated ON tables_tables (updated_at);

-- One row per accepted command: the primary key is the fencing token, the action id makes
-- a duplicate command visible.
CREATE TABLE tables_events (
    table_id   TEXT NOT NULL REFERENCES tables_tables,
    seq        INTEGER NOT NULL,
    action_id  TEXT NOT NULL,
    events     TEXT NOT NULL,
    written_at REAL NOT NULL,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, action_id)
);

CREATE TABLE tables_snapshots (
    table_id TEXT NOT NULL REFERENCES tables_tables,
    seq      INTEGER NOT NULL,
    state    TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);

-- A worker owns a shard while its lease is unexpired; every takeover bumps the epoch, and
-- every write checks the epoch inside its (single writer) transaction. expires_at 0: free.
CREATE TABLE tables_leases (
    shard      INTEGER PRIMARY KEY,
    owner      TEXT,
    epoch      INTEGER NOT NULL DEFAULT 0,
    expires_at REAL NOT NULL DEFAULT 0
);

CREATE TABLE tables_workers (
    worker_id TEXT PRIMARY KEY,
    seen_at   REAL NOT NULL
);

-- One seat at a time: a player holds at most one seat over all tables.
CREATE TABLE tables_seatings (
    player_id TEXT PRIMARY KEY,
    table_id  TEXT NOT NULL REFERENCES tables_tables,
    seat      INTEGER NOT NULL
);

-- A player's last table remembers which posting settled their chips there.
CREATE TABLE tables_departures (
    player_id  TEXT PRIMARY KEY,
    table_id   TEXT NOT NULL,
    posting_no INTEGER NOT NULL
);

-- Messages to publish after commit (ledger postings): written in the same transaction as the
-- events that caused them, deleted once published. AUTOINCREMENT: an id is never reused, so
-- a late ``sent`` of a relayed row cannot delete a newer one.
CREATE TABLE tables_outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id   TEXT NOT NULL,
    shard      INTEGER NOT NULL,
    body       TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX tables_outbox_shard ON tables_outbox (shard, id);
