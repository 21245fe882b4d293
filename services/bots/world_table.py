"""The table's part of a search's sampled world, the same in every game: the seats as the view
shows them, everyone connected, present and on time, and a seed of the bot's own generator (the
view shows none) for what the engine deals from it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypedDict

from shared.games.lifecycle import Player


class SeatShown(Protocol):
    @property
    def player(self) -> Player | None: ...
    @property
    def sitting_out(self) -> bool: ...


class TableShown(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def seats(self) -> Sequence[SeatShown]: ...
    @property
    def host(self) -> int | None: ...
    @property
    def game_no(self) -> int: ...


class WorldTable(TypedDict):
    """Fields of every game's ``State``."""

    seq: int
    turn_seq: int
    players: tuple[Player | None, ...]
    sitting_out: tuple[bool, ...]
    leaving: tuple[bool, ...]
    connected: tuple[bool, ...]
    timeouts: tuple[int, ...]
    host: int | None
    game_no: int
    seed: str


def world_table(view: TableShown, rng: random.Random) -> WorldTable:
    n = len(view.seats)
    return WorldTable(
        seq=view.seq,
        turn_seq=view.seq,
        players=tuple(s.player for s in view.seats),
        sitting_out=tuple(s.sitting_out for s in view.seats),
        leaving=(False,) * n,
        connected=(True,) * n,
        timeouts=(0,) * n,
        host=view.host,
        game_no=view.game_no,
        seed=rng.randbytes(32).hex(),
    )
