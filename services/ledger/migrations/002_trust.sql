-- The ledger trusts no posting blindly (docs/chips.md).
--
-- Each applied posting keeps a digest of its body: a redelivery with the same digest is a
-- duplicate, another body under the same table and number is a conflict. Postings that arrive
-- early wait under their digest, so a second body for a number never takes the first's place.
-- Invalid postings are dead-lettered with their reason and take no place in their table's
-- order. The ledger records who it seated at which table: only they appear in its postings.
-- The house (an account of the bank's kind) stakes the bots.

ALTER TABLE postings ADD COLUMN digest text;

ALTER TABLE waiting ADD COLUMN digest text;
UPDATE waiting SET digest = 'legacy:' || posting_no;
ALTER TABLE waiting ALTER COLUMN digest SET NOT NULL;
ALTER TABLE waiting ADD COLUMN arrived_at timestamptz NOT NULL DEFAULT clock_timestamp();
ALTER TABLE waiting DROP CONSTRAINT waiting_pkey;
ALTER TABLE waiting ADD PRIMARY KEY (table_id, posting_no, digest);

CREATE TABLE dead_postings (
    digest     text PRIMARY KEY,
    posting_id text NOT NULL,
    table_id   text,
    posting_no bigint,
    body       jsonb NOT NULL,
    reason     text NOT NULL,
    times      integer NOT NULL DEFAULT 1,
    first_at   timestamptz NOT NULL DEFAULT now(),
    last_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dead_postings_table ON dead_postings (table_id, posting_no);
INSERT INTO dead_postings (digest, posting_id, table_id, posting_no, body, reason, first_at)
SELECT 'legacy:' || posting_id, posting_id, body ->> 'table_id', (body ->> 'posting_no')::bigint,
       body, reason, at
FROM rejected;
DROP TABLE rejected;

CREATE TABLE conflicts (
    table_id       text NOT NULL,
    posting_no     bigint NOT NULL,
    digest         text NOT NULL,
    posting_id     text NOT NULL,
    body           jsonb NOT NULL,
    times          integer NOT NULL DEFAULT 1,
    first_at       timestamptz NOT NULL DEFAULT now(),
    last_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, posting_no, digest)
);

CREATE TABLE seats (
    player_id text NOT NULL,
    table_id  text NOT NULL,
    bot       boolean NOT NULL DEFAULT false,
    at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, player_id)
);
-- Who already played at a table is known to have sat there.
INSERT INTO seats (player_id, table_id)
SELECT DISTINCT substr(account, 8), table_id FROM (
    SELECT debit AS account, table_id FROM transfers UNION ALL SELECT credit, table_id FROM transfers
) moved WHERE table_id IS NOT NULL AND account LIKE 'wallet:%'
ON CONFLICT DO NOTHING;

INSERT INTO accounts (name, kind) VALUES ('bank:house', 'bank') ON CONFLICT DO NOTHING;
