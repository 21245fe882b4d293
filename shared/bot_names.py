"""The names bots sit under: one per seat, so that bots at one table never read alike
("Medium..." twice); the level shows beside it as the bot's badge. People may not take them."""

from __future__ import annotations

BOT_NAMES = ("Ada", "Bram", "Cleo", "Dex", "Esme", "Finn")
