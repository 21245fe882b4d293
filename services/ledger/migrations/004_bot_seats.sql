-- A table returns a bot's chips to the house when the bot leaves its seat (an 'unstake' leg),
-- and the ledger takes that leg only for a wallet it seated at that table as a bot. Seats
-- recorded before bots were told apart (002_trust's) are marked by the players' own flag.

UPDATE seats SET bot = true FROM players
WHERE players.player_id = seats.player_id AND players.bot AND NOT seats.bot;
