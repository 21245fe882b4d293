"""The table lifecycle, written once for every game.

A table seats players and bots, lets them leave, sit out and come back, watches who is present,
hands the host's role on, times decisions out and decides for the absent, shows a hand's result
before the next one, and closes when it is abandoned. A game supplies only its own rules
(``rules.Rules``): its deal and phases, the decisions of a hand, how a game starts and ends.
"""
