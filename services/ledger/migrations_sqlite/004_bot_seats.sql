-- A table returns a bot's chips to the house when the bot leaves its seat (an 'unstake' leg),
-- and the ledger takes that leg only for a wallet it seated at that table as a bot. Seats
-- recorded before bots were told apart (002_trust's) are marked by the players' own flag.

UPDATE ledger_seats SET bot = 1
WHERE bot = 0 AND player_id IN (SELECT player_id FROM ledger_players WHERE bot);
