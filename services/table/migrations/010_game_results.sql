-- Each player's result of each finished game (shared/tables_read.py: PlayerResult), stored
-- with the game's record: a player's history reads its games newest first by the index below.
-- ended_ms is the record's ended_at in milliseconds, the history's cursor. Games stored before
-- this migration have no results: they are in no one's history.

CREATE TABLE game_results (
    table_id   text NOT NULL,
    game_no    integer NOT NULL,
    player_id  text NOT NULL,
    seat       integer NOT NULL,
    name       text NOT NULL,
    bot        text,
    side       integer NOT NULL,
    points     integer,
    chips      bigint,
    place      integer,
    left_early boolean NOT NULL,
    ended_ms   bigint NOT NULL,
    PRIMARY KEY (table_id, game_no, player_id),
    FOREIGN KEY (table_id, game_no) REFERENCES game_records
);
CREATE INDEX game_results_by_player
    ON game_results (player_id, ended_ms DESC, table_id DESC, game_no DESC);
