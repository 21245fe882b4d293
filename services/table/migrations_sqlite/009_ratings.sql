-- Each game's ratings: the same as the PostgreSQL migration 011_ratings.sql.

CREATE TABLE tables_ratings (
    game       TEXT NOT NULL,
    ladder     TEXT NOT NULL CHECK (ladder IN ('people', 'bots')),
    rated      TEXT NOT NULL,
    name       TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (game, ladder, rated)
);
CREATE INDEX tables_ratings_board ON tables_ratings (game, ladder, mu DESC);
CREATE INDEX tables_ratings_of ON tables_ratings (rated);
