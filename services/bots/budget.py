"""The hard bot's budget, the same at live tables and in the arena (a module of its own, so the
``swick`` command can show it in ``--help`` without loading the engine).

The budget is a number of worlds sampled per decision: what 128 cost a searched decision is
measured by ``swick bench bots`` (its figures are in docs/bots.md).
The wall-clock cap only guards live tables against a starved machine; the arena runs without
it.
"""

HARD_WORLDS = 128
HARD_CAP_MS = 200.0

# The hard Euchre bot's worlds per decision: about 50 ms of CPU each (a Euchre hand is short).
EUCHRE_WORLDS = 24
