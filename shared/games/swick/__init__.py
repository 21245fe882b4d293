"""Swick (Gary L. Koupal, 1999): a 3-6 player trick-taking pot game, as a pure engine."""

from shared.games.swick.game import SWICK, SwickGame

__all__ = ["SWICK", "SwickGame"]
