-- The bot names tables may seat. Each is a broker user of its own (created with the account),
-- so a bot's actions carry an identity the broker vouches for.
CREATE TABLE tables.bot_accounts (
    name        text PRIMARY KEY,
    owner       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
