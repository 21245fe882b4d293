-- Who opened each table, so that a player's open tables can be counted (and limited).

ALTER TABLE tables ADD COLUMN host_id text NOT NULL DEFAULT '';
CREATE INDEX tables_open_by_host ON tables (host_id) WHERE phase <> 'closed';
