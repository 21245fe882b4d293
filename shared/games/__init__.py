"""Game modules: each trick-taking game is one pure engine behind ``shared.games.interface``."""
