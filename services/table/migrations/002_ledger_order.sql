-- Postings are numbered per table so the ledger applies them in order, and a player's last
-- table remembers which posting settled their chips there.

ALTER TABLE tables ADD COLUMN postings bigint NOT NULL DEFAULT 0;

CREATE TABLE departures (
    player_id  text PRIMARY KEY,
    table_id   text NOT NULL,
    posting_no bigint NOT NULL
);
