-- Each table's recent chat: the gateways keep its last lines (services/gateway/chat.py) and
-- send them to a watcher with the table's history, so a reloaded page still shows them.
CREATE TABLE chat (
    n         bigserial PRIMARY KEY,    -- the order lines were kept in
    table_id  text NOT NULL,
    line_id   text NOT NULL,            -- the line's id, as the clients saw it live
    player_id text NOT NULL,
    name      text NOT NULL,
    text      text NOT NULL,
    at        bigint NOT NULL           -- ms since the epoch
);
CREATE INDEX chat_table ON chat (table_id, n);
