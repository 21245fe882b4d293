"""Euchre: a 4-player partnership trick-taking game with bowers, as a pure engine."""

from shared.games.euchre.game import EUCHRE, EuchreGame

__all__ = ["EUCHRE", "EuchreGame"]
