"""Fresh tables of every game for ``swick arena`` and ``swick bots check``: seated, started,
with no timer, and played through the game's ``GameModule`` (``shared.games.registry``).

A Swick table's players can afford any hand (its deal is one hand); a Euchre or Contract Whist
table plays for points, one game whose every hand is dealt from the game's seed, so the same
seed deals the same cards hand by hand however the players play.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.benchmarks.engine import seated_table
from shared.games.interface import Command
from shared.games.lifecycle import Player, StartGame, TakeSeat
from shared.games.registry import AnyGame
from shared.games.registry import game as game_module

GAMES = ("swick", "euchre", "contract-whist")
SEATS = {"swick": range(3, 7), "euchre": range(4, 5), "contract-whist": range(2, 6)}
DEFAULT_SEATS = {"swick": 3, "euchre": 4, "contract-whist": 4}
ENDED = ("ended", "closed")


@dataclass
class Table:
    """One table of ``game`` and the commands it was sent."""

    game: AnyGame
    state: Any
    seats: int
    commands: int = 0

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def legal(self, seat: int) -> list[Any]:
        return [
            option.action for option in self.game.legal_actions(self.state, seat) if option.legal
        ]

    def view(self, seat: int | None) -> Any:
        return self.game.view_for(self.state, seat)

    @property
    def ended(self) -> bool:
        return self.game.phase(self.state) in ENDED

    def act(self, seat: int | None, action: Any) -> list[Any]:
        """``action`` for ``seat`` (``None``: the table's own); raises ``IllegalCommand``."""
        command = Command(
            actor=seat, action=action, action_id=f"a{self.commands}", seq=self.game.seq(self.state)
        )
        self.state, events = self.game.step(self.state, command)
        self.commands += 1
        return events


def check_seats(game: str, seats: int) -> None:
    """Raises ``ValueError`` unless ``game`` is played at ``seats`` seats."""
    if game not in SEATS:
        raise ValueError(f"no game {game!r}: one of {', '.join(GAMES)}")
    allowed = SEATS[game]
    if seats not in allowed:
        sizes = f"{allowed[0]}" if len(allowed) == 1 else f"{allowed[0]} to {allowed[-1]}"
        raise ValueError(f"{game} is played at {sizes} seats, not {seats}")


def seat_lineup(game: str, names: Sequence[str], players: int | None = None) -> tuple[str, ...]:
    """The strategy at each seat: ``names`` repeated round the table to fill ``players``
    seats; by default a Swick table has a seat a name, a Euchre table 4 (``a,b``: the two
    partnerships) and a Contract Whist table 4, or a seat a name when more are named. Raises
    ``ValueError`` for a lineup the game cannot seat."""
    if not names or not all(names):
        raise ValueError("name the strategies, comma-separated")
    if game not in DEFAULT_SEATS:
        check_seats(game, 0)  # names the games
    if players is None:
        players = len(names) if game == "swick" else max(DEFAULT_SEATS[game], len(names))
    check_seats(game, players)
    if len(names) > players:
        raise ValueError(f"{len(names)} strategies named for {players} seats")
    return tuple(names[seat % len(names)] for seat in range(players))


def fresh_table(
    game: str,
    seats: int,
    seed: int,
    *,
    target: int | None = None,
    rounds: int | None = None,
    salt: str | None = None,
) -> Table:
    """A started game of ``game`` at ``seats`` seats, its cards dealt from ``seed``: a Euchre
    game to ``target`` points, a Contract Whist game of ``rounds`` rounds (the rules' full
    game by default). ``salt`` (the game's name by default) goes into the game's seed with
    ``seed``: a Swick table's cards come from ``seed`` alone."""
    check_seats(game, seats)
    g = game_module(game)
    if game == "swick":
        return Table(g, seated_table(seats, seed=seed), seats)
    settings: dict[str, Any] = {"seats": seats, "timer_ms": None, "private": True}
    if target is not None:
        settings["target"] = target
    if rounds is not None:
        settings["rounds"] = rounds
    table = Table(g, g.new_table(g.make_config(settings)), seats)
    for seat in range(seats):
        table.act(None, TakeSeat(seat, Player(f"p{seat}", f"Seat {seat + 1}"), 0))
    table.act(0, StartGame(hashlib.sha256(f"{salt or game}-{seed}".encode()).hexdigest()))
    return table


def play_to_end(table: Table, strategies: Sequence[Any], limit: int) -> None:
    """Play ``table``'s game to its end with ``strategies[seat]`` deciding for each seat (the
    one legal action taken without asking). Raises ``IllegalAnswer`` for an answer not among
    the legal ones, ``RuntimeError`` for a game not ended after ``limit`` commands."""
    while not table.ended:
        if table.commands > limit or not table.to_act():
            raise RuntimeError(f"a {table.game.name} game did not end")
        seat = table.to_act()[0]
        legal = table.legal(seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = table.view(seat)
            action = strategies[seat].choose(view, legal)
            if action not in legal:
                raise IllegalAnswer(table.game.name, seat, view, action)
        table.act(seat, action)


def played_scores(
    game: str,
    strategies: Sequence[Any],
    seed: int,
    limit: int,
    *,
    target: int | None = None,
    rounds: int | None = None,
    salt: str | None = None,
) -> tuple[int, ...]:
    """The final scores of a fresh game (``fresh_table``) played to its end by ``strategies``
    (``play_to_end``)."""
    table = fresh_table(game, len(strategies), seed, target=target, rounds=rounds, salt=salt)
    play_to_end(table, strategies, limit)
    scores: tuple[int, ...] = table.state.scores
    return scores


def game_points(table: Table) -> tuple[int, ...]:
    """What each seat of an ended Euchre or Contract Whist game scored: its team's points
    (Euchre: seats 0 and 2 are a team), or its own total."""
    scores: Sequence[int] = table.view(None).scores
    if table.game.name == "euchre":
        return tuple(scores[seat % 2] for seat in range(table.seats))
    return tuple(scores)


class IllegalAnswer(Exception):
    """A strategy answered an action that is not among the legal ones given to it."""

    def __init__(self, game: str, seat: int, view: Any, action: Any) -> None:
        super().__init__(
            f"the strategy at seat {seat} answered {action!r}, not one of the legal actions"
            f" ({game}, {view.phase.value})"
        )
        self.seat = seat
        self.action = action
