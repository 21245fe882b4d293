-- Each game's ratings (shared/ratings.py): one row per game, ladder (people by account id,
-- bots by name) and who, updated in the transaction that first stores a finished game's
-- record, so a game redelivered or stored again moves no rating twice. The boards read them
-- by the index below.

CREATE TABLE ratings (
    game       text NOT NULL,
    ladder     text NOT NULL CHECK (ladder IN ('people', 'bots')),
    rated      text NOT NULL,
    name       text NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL,
    games      integer NOT NULL,
    PRIMARY KEY (game, ladder, rated)
);
CREATE INDEX ratings_board ON ratings (game, ladder, mu DESC);
CREATE INDEX ratings_of ON ratings (rated);
