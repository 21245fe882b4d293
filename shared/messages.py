"""The messages services exchange over the bus: one module, so every contract is in one place.

Requests go to the shard queue of their table and are handled in order by the worker that owns
it. Updates fan out to every gateway watching the table. Bot turns go to the bots service of the
seat's bot; postings go to the ledger.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Generic, Literal, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

JSON: TypeAlias = dict[str, Any]
Span: TypeAlias = tuple[int, int]  # a view's [start, end) in the bytes after a bundle's first line
V = TypeVar("V")

BOT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")
"""A bot's name: a level (easy, medium, hard) or a strategy a bots service runs by that name."""


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# Requests: table shard queue.


class TableRequest(Message):
    """A request to one table; its ``kind`` tells which."""

    kind: str
    table_id: str
    request_id: str  # a duplicate takes effect once (an action's id, say)


class CreateTable(TableRequest):
    """Open a table with its host in the first seat, bots where asked, and maybe start at once."""

    kind: Literal["create"] = "create"
    game: str
    settings: JSON
    invite_code: str
    host_id: str
    host_name: str
    bots: dict[int, str] = Field(default_factory=dict)  # seat -> bot name or level
    start: bool = False
    # When its sender stops waiting (ms since the epoch): a table not created by then is not
    # created at all, since its sender was told it could not be.
    expires_at: int | None = None


class Act(TableRequest):
    """A player's action at a table: a game decision or a lifecycle action."""

    kind: Literal["act"] = "act"
    player_id: str
    seq: int
    action: JSON
    # The bot it comes from, set by the table workers' relay of a bot's actions queue
    # (services/table/bot_relay.py): trusted only from the table workers' own user.
    bot: str | None = None


class Join(TableRequest):
    kind: Literal["join"] = "join"
    player_id: str
    name: str
    seat: int | None = None  # None: the first free seat


class Presence(TableRequest):
    """A gateway saw a player's connection to the table open or close."""

    kind: Literal["presence"] = "presence"
    player_id: str
    connected: bool
    # The table's own deferred check (services/table/presence.py): apply the seat's latest
    # report if it still differs; ``connected`` is then not read.
    due: bool = False


class Sync(TableRequest):
    """Ask for a fresh snapshot of the table's views (after a connect or a gap in ``seq``)."""

    kind: Literal["sync"] = "sync"
    player_id: str | None = None


class Tick(TableRequest):
    """The owning worker's timer: the table's deadline at ``seq`` may have passed."""

    kind: Literal["tick"] = "tick"
    seq: int


Request: TypeAlias = Annotated[
    CreateTable | Act | Join | Presence | Sync | Tick, Field(discriminator="kind")
]
REQUEST: TypeAdapter[Request] = TypeAdapter(Request)


# Updates: the updates exchange, routing key ``table.<id>``.


class Outcome(Message):
    """The answer to one request: accepted, or refused with a stable code and a reason."""

    request_id: str
    player_id: str | None
    ok: bool
    code: str = ""
    message: str = ""


class Updated(Message, Generic[V]):
    """The table after ``seq``: each seated player's own view and the spectators' view."""

    kind: Literal["update"] = "update"
    table_id: str
    seq: int
    views: dict[str, V]  # player id -> that seat's view
    spectator: V
    outcome: Outcome | None = None
    snapshot_for: str | None = None  # a Sync's player (or "*" for a spectator's)


class TableUpdate(Updated[str]):
    """The views as JSON text, serialized once by the table: a gateway passes them on
    unparsed."""


class ChatLine(Message):
    kind: Literal["chat"] = "chat"
    table_id: str
    id: str = ""  # the line's own id: the same live and when a gateway replays it
    player_id: str
    name: str
    text: str
    at: int


class Refusal(Message):
    """A request the table refused before it reached the game (unknown table, not seated)."""

    kind: Literal["refusal"] = "refusal"
    table_id: str
    outcome: Outcome


Update: TypeAlias = Annotated[TableUpdate | ChatLine | Refusal, Field(discriminator="kind")]
UPDATE: TypeAdapter[Update] = TypeAdapter(Update)


# A table worker sends what one batch of requests produced as one bundle, to every gateway
# watching any of its tables: a line of JSON (``Bundle``), then the views' JSON text back to
# back. A gateway cuts each view out by its span, and never parses one.


class BundledUpdate(Updated[Span]):
    """The views as spans of a bundle's bytes."""


class Bundle(Message):
    kind: Literal["bundle"] = "bundle"
    updates: list[Annotated[BundledUpdate | Refusal, Field(discriminator="kind")]]


BUNDLE: TypeAdapter[Bundle] = TypeAdapter(Bundle)
BUNDLE_START = b'{"kind":"bundle"'


def pack(updates: Sequence[TableUpdate | Refusal]) -> bytes:
    texts: list[bytes] = []
    at = 0

    def span(view: str) -> Span:
        nonlocal at
        text = view.encode()
        texts.append(text)
        at += len(text)
        return at - len(text), at

    bundled: list[BundledUpdate | Refusal] = []
    for update in updates:
        if isinstance(update, Refusal):
            bundled.append(update)
            continue
        bundled.append(
            BundledUpdate(
                table_id=update.table_id,
                seq=update.seq,
                views={player: span(view) for player, view in update.views.items()},
                spectator=span(update.spectator),
                outcome=update.outcome,
                snapshot_for=update.snapshot_for,
            )
        )
    return b"".join([Bundle(updates=bundled).model_dump_json().encode(), b"\n", *texts])


def unpack(body: bytes) -> list[TableUpdate | Refusal]:
    """A bundle's updates, each view's text cut out as it was sent."""
    head, _, texts = body.partition(b"\n")
    updates: list[TableUpdate | Refusal] = []
    for update in BUNDLE.validate_json(head).updates:
        if isinstance(update, Refusal):
            updates.append(update)
            continue
        updates.append(
            TableUpdate.model_construct(
                table_id=update.table_id,
                seq=update.seq,
                views={p: texts[a:b].decode() for p, (a, b) in update.views.items()},
                spectator=texts[update.spectator[0] : update.spectator[1]].decode(),
                outcome=update.outcome,
                snapshot_for=update.snapshot_for,
            )
        )
    return updates


# Bot turns: the bots exchange, routing key = the bot's name.


class BotTurn(Message):
    table_id: str
    seat: int
    seq: int
    bot: str
    player_id: str
    view: JSON


# Ledger postings: the postings queue.

HOUSE = "bank:house"  # the account that stakes the bots (the ledger's; a table names it too)
# A bot's chips go back to the house when it leaves its seat: a table's ``unstake`` leg, from a
# wallet of one of its own bots (``bot:<table>:<seat>``, seated there as a bot) to the house.
UNSTAKE = "unstake"
# A deleted account's wallet is closed: its whole balance goes to the house in one posting of
# the ledger's own (``close:<player>``, legs of code ``close``), and it never opens again.
CLOSE = "close"
# What every service shows in place of a deleted account's name (its records stay verifiable).
DELETED_PLAYER = "Deleted player"


class Leg(Message):
    """One movement of chips: ``amount`` cents from ``debit`` to ``credit`` (account names)."""

    debit: str
    credit: str
    amount: int
    code: str


class Posting(Message):
    """Every chip movement of one accepted command, applied atomically and exactly once.

    ``id`` (``"<table>:<seq>"``) is the idempotency key; ``posting_no`` counts the table's
    postings from 1, so the ledger applies them in order. ``stacks`` are the table's stacks of
    the players involved afterwards: the ledger's wallets must agree.
    """

    id: str
    table_id: str
    posting_no: int
    hand_no: int
    legs: tuple[Leg, ...]
    stacks: dict[str, int]
    names: dict[str, str]
    bots: tuple[str, ...] = ()
    # The game its table plays; left out for Swick, so a Swick posting's body (and its digest)
    # is what it was before postings named their game.
    game: str = Field(default="swick", max_length=32, exclude_if=lambda game: game == "swick")
