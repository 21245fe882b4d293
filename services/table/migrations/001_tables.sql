-- Tables, their event logs and snapshots, shard leases, and the outbox of postings.

CREATE TABLE tables (
    table_id     text PRIMARY KEY,
    game         text NOT NULL,
    shard        integer NOT NULL,
    config       jsonb NOT NULL,
    private      boolean NOT NULL,
    invite_code  text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- The lobby's summary, kept by the owning worker with every accepted command.
    seq          bigint NOT NULL DEFAULT 0,
    phase        text NOT NULL,
    seats        jsonb NOT NULL,
    deadline     bigint,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tables_shard ON tables (shard);

-- One row per accepted command: the primary key is the fencing token, the action id makes
-- a duplicate command visible.
CREATE TABLE events (
    table_id   text NOT NULL REFERENCES tables,
    seq        bigint NOT NULL,
    action_id  text NOT NULL,
    events     jsonb NOT NULL,
    written_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, action_id)
);

CREATE TABLE snapshots (
    table_id text NOT NULL REFERENCES tables,
    seq      bigint NOT NULL,
    state    jsonb NOT NULL,
    PRIMARY KEY (table_id, seq)
);

-- A worker owns a shard while its lease is unexpired; every takeover bumps the epoch, and
-- every write checks the epoch under a share lock, so a worker that lost a shard cannot write.
CREATE TABLE leases (
    shard      integer PRIMARY KEY,
    owner      text,
    epoch      bigint NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL DEFAULT '-infinity'
);

CREATE TABLE workers (
    worker_id text PRIMARY KEY,
    seen_at   timestamptz NOT NULL
);

-- One seat at a time: a player holds at most one seat over all tables.
CREATE TABLE seatings (
    player_id text PRIMARY KEY,
    table_id  text NOT NULL REFERENCES tables,
    seat      integer NOT NULL
);

-- Messages to publish after commit (ledger postings): written in the same transaction as the
-- events that caused them, deleted once the broker confirmed them.
CREATE TABLE outbox (
    id         bigserial PRIMARY KEY,
    table_id   text NOT NULL,
    shard      integer NOT NULL,
    body       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_shard ON outbox (shard, id);
