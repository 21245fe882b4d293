"""The hard bot's budget, the same at live tables and in the arena (a module of its own, so the
``swick`` command can show it in ``--help`` without loading the engine).

The budget is a number of worlds sampled per decision: at 32 a searched decision costs about
45 ms of CPU at the 95th percentile (``swick bench bots``). The wall-clock cap only guards live
tables against a starved machine; the arena runs without it.
"""

HARD_WORLDS = 128
HARD_CAP_MS = 200.0

# The hard Euchre bot's worlds per decision: about 50 ms of CPU each (a Euchre hand is short).
EUCHRE_WORLDS = 24
