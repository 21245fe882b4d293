"""The hard bot's budget, the same at live tables and in the arena (a module of its own, so the
``swick`` command can show it in ``--help`` without loading the engine).

The budget is a number of worlds sampled per decision: at 128 a searched decision costs 10 to
15 ms at the median and 18 to 25 ms at the 95th percentile, at 3 to 6 seats, on one core
(``swick bench bots``; a slower machine took up to 4 times as long).
The wall-clock cap only guards live tables against a starved machine; the arena runs without
it.
"""

HARD_WORLDS = 128
HARD_CAP_MS = 200.0

# The hard Euchre bot's worlds per decision: about 50 ms of CPU each (a Euchre hand is short).
EUCHRE_WORLDS = 24
