"""The lobby's request and response bodies, and the ids its URLs take: a table's row as the
lobby shows it (``table_out``), the game a body names (``form_of``, a 422 for one there is not).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import HTTPException
from fastapi import Path as PathParam
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from shared.games.interface import TableForm
from shared.games.registry import GAMES, game
from shared.ids import INVITE_CODE, TABLE_ID
from shared.tables_read import TableRow


class Strict(BaseModel):
    """A request body taken as the socket takes a frame: a wrong type is a 422, never coerced
    (``"3"`` is no 3, ``true`` no 1), and a field the API does not have is a 422 too."""

    model_config = ConfigDict(strict=True, extra="forbid")


def _seat_number(key: object) -> object:
    """A seat as a JSON object's key: its digits (``"1"``), as JSON keys are always text."""
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2:
        return int(key)
    return key  # an int given in Python; anything else fails the strict int check


SeatNumber = Annotated[int, BeforeValidator(_seat_number)]
# Ids in the URLs, checked against their shape before any use.
TableId = Annotated[str, PathParam(pattern=f"^{TABLE_ID}$", description="a table's id")]
InviteCode = Annotated[str, PathParam(pattern=f"^{INVITE_CODE}$", description="an invite code")]


class NewPlayer(Strict):
    name: str = Field(max_length=64)


class PlayerOut(BaseModel):
    id: str
    name: str
    handle: str | None = Field(
        default=None, description="Your name and tag, unique on the site: Rita#4821"
    )
    token: str | None = None
    seated: str | None = Field(default=None, description="The table where you hold a seat")
    seated_game_over: bool = Field(
        default=False,
        description="That table's game is over: opening or joining another table leaves it",
    )


class MyBalance(BaseModel):
    player_id: str
    balance: int | None = Field(
        description="Your chips in cents; null until your wallet opens (when you first sit down)"
    )
    starting_grant: int = Field(description="The chips a new wallet opens with, in cents")


class NewTable(Strict):
    game: str = Field(
        default="swick",
        max_length=32,
        description=f"the game: {' or '.join(GAMES)} (swick if left out)",
    )
    seats: int = Field(
        3,
        ge=1,
        le=10,
        description="Swick: 3 to 6 (3 if left out); Euchre: 4; Contract Whist: 2 to 5 (4)",
    )
    antes: list[int] | None = Field(
        default=None,
        max_length=20,
        description="Swick only: multiples of 3 cents, 3 to 300 ([3, 6, 9, 12, 15] if left out)",
    )
    timer_seconds: int | None = Field(
        default=30,
        description="10 to 120; none only for private tables (left out: 30 for Swick and "
        "Contract Whist, 20 for Euchre)",
    )
    target: int | None = Field(
        default=None,
        description="Euchre only: the points a game is played to, 1 to 10 (10 if left out)",
    )
    rounds: int | None = Field(
        default=None,
        description="Contract Whist only: the first 1 to 17 rounds of the schedule "
        "(17 if left out)",
    )
    stake: int | None = Field(
        default=None,
        description="Contract Whist and Euchre only: the cents each player pays into the pot "
        "when a game starts, 0 to 300 (0 if left out: points only)",
    )
    interlude_seconds: int = Field(
        default=5,
        ge=0,
        le=30,
        description="how long a hand's result shows before the next hand asks "
        "anything (everyone pressing Next hand ends it sooner); 0 for no pause",
    )
    private: bool = False
    bots: dict[SeatNumber, str] = Field(
        default_factory=dict, max_length=10, description="seat (1 to 5) -> level"
    )
    start: bool = False


# The settings only some games have: each game's form names its own (``TableForm.own``).
OWN_SETTINGS = ("antes", "target", "rounds", "stake")


class QuickPlay(Strict):
    game: str = Field(default="swick", max_length=32, description=f"{' or '.join(GAMES)}")


class TableOut(BaseModel):
    id: str
    game: str
    seats: list[dict[str, Any] | None]
    antes: list[int]
    timer_seconds: int | None
    interlude_seconds: int
    private: bool
    phase: str
    in_progress: bool
    invite_code: str | None = None
    # A game's own settings besides antes; a Swick table's answer stays as it was.
    target: int | None = Field(None, exclude_if=lambda target: target is None)
    rounds: int | None = Field(None, exclude_if=lambda rounds: rounds is None)
    stake: int | None = Field(None, exclude_if=lambda stake: stake is None)


def table_out(row: TableRow, *, with_invite: bool = False) -> TableOut:
    form = game(row.game).form
    own = {name: row.config.get(name, form.defaults[name]) for name in form.own}
    return TableOut(
        id=row.table_id,
        game=row.game,
        seats=row.seats,
        antes=own.pop("antes", []),
        timer_seconds=None
        if row.config.get("timer_ms") is None
        else row.config["timer_ms"] // 1000,
        interlude_seconds=(row.config.get("interlude_ms") or 0) // 1000,
        private=row.private,
        phase=row.phase,
        in_progress=row.phase not in ("lobby", "ended"),
        invite_code=row.invite_code if with_invite else None,
        **own,
    )


def form_of(name: str) -> TableForm:
    """The form of the game named ``name``; 422 naming the games for one there is not."""
    if name not in GAMES:
        raise HTTPException(
            422, f"There is no game {name!r}: choose {' or '.join(map(repr, GAMES))}"
        )
    return GAMES[name].form
