-- Who opened each table, so that a player's open tables can be counted (and limited).

ALTER TABLE tables_tables ADD COLUMN host_id TEXT NOT NULL DEFAULT '';
CREATE INDEX tables_tables_open_by_host ON tables_tables (host_id) WHERE phase <> 'closed';
