"""Replays of finished games: every step of a game, with every seat's hand shown.

A game's seed is revealed when it ends, so its replay may show every card. A replay is built
from the table's log the way a table worker rebuilds a table: the game module's ``new_table``
of the table's settings, then ``evolve`` of every event in order. Each accepted command of the
game gives one frame: ``{"seq", "view", "hands"}``, the spectators' view after that command
and each seat's hand (from that seat's own view). The document is
``{"game", "table_id", "game_no", "seats", "frames"}``.

The table worker builds it once, when the game ends (with its record), and stores it
gzip-compressed (``pack_replay``); gateways serve the stored bytes. Only the game module's
protocol is used.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from typing import Any

from shared.games.registry import game

ALL_BATCHES = 1_000_000_000  # ``load``'s ``back`` past any snapshot: every batch of the log


def build_replay(
    table_id: str,
    game_name: str,
    config: dict[str, Any],
    batches: Sequence[tuple[int, list[Any]]],
    game_no: int,
) -> str | None:
    """The replay (JSON text) of the table's ``game_no``-th game from its logged batches (each
    an accepted command's ``(seq, events)``), or ``None`` while that game has not ended. Pure
    and CPU-bound: run it in a thread."""
    g = game(game_name)
    state = g.new_table(g.make_config(config))
    started = 0
    frames: list[str] = []
    names: list[str | None] = []
    for seq, events in batches:
        begins = ends = False
        for data in events:
            kind = data.get("kind")
            state = g.evolve(state, g.load_event(data))
            if kind == "game_started":
                started += 1
                begins = started == game_no
            elif kind == "game_ended" and started == game_no:
                ends = True
        if started != game_no:
            continue
        if begins:
            names = [None if p is None else p.name for p in g.players(state)]
        seats = range(len(g.players(state)))
        public, own = g.views_json(state, seats)
        hands = [json.loads(own[seat]).get("hand", []) for seat in seats]
        frames.append(
            f'{{"seq":{seq},"view":{public},"hands":{json.dumps(hands, separators=(",", ":"))}}}'
        )
        if ends:
            head = json.dumps(
                {"game": game_name, "table_id": table_id, "game_no": game_no, "seats": names},
                separators=(",", ":"),
            )
            return f'{head[:-1]},"frames":[{",".join(frames)}]}}'
    return None


def pack_replay(text: str) -> bytes:
    """The stored form of a replay: gzip with no timestamp, so the same game packs to the same
    bytes whoever builds it and whenever."""
    return gzip.compress(text.encode(), 6, mtime=0)
