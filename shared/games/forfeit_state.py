"""The first fields of the state of a table whose game those who end it early forfeit (Euchre,
Contract Whist): the commands, the seats and the game's seed, in the order their states are
stored. Each game's ``State`` derives from it and goes on with the fields of its own game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games.lifecycle import Player
from shared.games.table import state as table


@dataclass(eq=True)
class ForfeitTableState(table.SeatsHelpers):
    config: Any  # each game's ``State`` gives its own ``TableConfig`` here
    # Commands: how many were accepted, since when the current decision is open, recent ids.
    seq: int = 0
    turn_seq: int = 0
    deadline: int | None = None
    recent_ids: tuple[str, ...] = ()
    # Seats.
    players: tuple[Player | None, ...] = ()
    stacks: tuple[int, ...] = ()  # chips at the table; the stake leaves them at the start
    sitting_out: tuple[bool, ...] = ()
    leaving: tuple[bool, ...] = ()
    connected: tuple[bool, ...] = ()
    timeouts: tuple[int, ...] = ()
    # The empty seats a bot left during this game (only the table makes a bot leave, when
    # it stopped answering): the table seats a fresh bot in each.
    left_by_bots: tuple[int, ...] = ()
    host: int | None = None
    unattended_since: int | None = None  # since when no seat holds a connected person
    closing: bool = False  # the table closes when the hand or round in play is over
    quitters: tuple[int, ...] = ()  # whose people close it: their side forfeits
    interlude: tuple[int, ...] = ()  # the people yet to press Next hand, while a result shows
    # The game.
    game_no: int = 0
    seed: str = ""  # secret until the game ends
    fingerprint: str = ""
