-- A deleted account's wallet is closed: its whole balance went to the house in one posting
-- ('close:<player>', code 'close'; a debt is taken on by the house the same way), and it never
-- opens again, so no later grant or seat can bring it back. A row here is the closing's
-- record: a second request to close finds it and changes nothing.
CREATE TABLE closed_wallets (
    player_id text PRIMARY KEY,
    returned  bigint NOT NULL,      -- what went to the house (below zero: a debt it took on)
    closed_at timestamptz NOT NULL DEFAULT now()
);
