"""The WebSocket protocol between the browser and the gateway, version 1.

Every client message is one JSON object with a ``type``, an ``id`` (unique per message, chosen
by the client) and ``seq``, the table sequence number the client last saw (0 if none). Every
client message is answered by an ``ack`` or a ``reject`` carrying its ``id``; a ``reject`` has a
stable ``code`` and a ``message`` for the player. The table's state arrives as a ``snapshot``
of the client's own view (on watching, on asking with ``sync``) and then as ``update`` messages
in ``seq`` order: a client that sees a gap asks for a ``sync``.

Messages are text frames; a binary frame is refused (``malformed``) and the socket stays open.
Fields are typed strictly: a number must be an integer (not ``"3"``, ``3.0`` or ``true``), a
flag ``true`` or ``false`` (not ``"no"`` or ``0``).

``docs/protocol.md`` is generated from these models (``python -m services.gateway.protocol``).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import sys
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from shared.games.contract_whist.state import RoundResult
from shared.games.contract_whist.views import SeatView as WhistSeatView
from shared.games.contract_whist.views import WhistView
from shared.games.euchre.views import EuchreView
from shared.games.euchre.views import SeatView as EuchreSeatView
from shared.games.swick.views import SeatView, SwickView

VERSION = 1
MAX_FRAME = 4096  # bytes of one client message
MESSAGES_PER_SECOND = 30  # a socket's sustained rate of client messages ...
MESSAGE_BURST = 60  # ... and how many it may send at once
MAX_CHAT = 280

Id = Annotated[str, Field(min_length=1, max_length=64)]
Seq = Annotated[int, Field(ge=0)]
TableId = Annotated[str, Field(min_length=1, max_length=64)]


class ClientMessage(BaseModel):
    # Strict: a number is an int (not a bool, not a string), a bool is true or false.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    id: Id
    seq: Seq = 0


class Watch(ClientMessage):
    """Watch a table: as its player if you sit there, else as a spectator (a private table
    needs its invite code). Answered by a ``history``, an ``ack``, then a ``snapshot``; send
    as ``seq`` the last ``seq`` of this table whose changes you have shown (0: none, or
    everything), and the ``history`` leaves out the views up to it. Wrong invite codes are
    throttled per address; send ``table`` with the ``invite`` when you know it, so that
    asking for a table still being created does not count as a wrong guess."""

    type: Literal["watch"]
    table: TableId | None = None
    invite: str | None = Field(default=None, max_length=32)


class Unwatch(ClientMessage):
    type: Literal["unwatch"]
    table: TableId


class Join(ClientMessage):
    """Take a seat (between hands): a given one, or the first free one."""

    type: Literal["join"]
    table: TableId
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


class Act(ClientMessage):
    """A decision or a table action: ``action`` is ``{"kind": ..., ...}``; see below."""

    type: Literal["act"]
    table: TableId
    action: dict[str, Any]


class Sync(ClientMessage):
    """Ask for a fresh snapshot of your view."""

    type: Literal["sync"]
    table: TableId


class Chat(ClientMessage):
    type: Literal["chat"]
    table: TableId
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class Ping(ClientMessage):
    type: Literal["ping"]


Incoming: TypeAlias = Annotated[
    Watch | Unwatch | Join | Act | Sync | Chat | Ping, Field(discriminator="type")
]
INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)


class ServerMessage(BaseModel):
    model_config = ConfigDict(frozen=True)


class Welcome(ServerMessage):
    """The first message on a connection."""

    type: Literal["welcome"] = "welcome"
    protocol: int = VERSION
    player: dict[str, str]
    seated: str | None = None  # the table where you hold a seat, if any


class Ack(ServerMessage):
    type: Literal["ack"] = "ack"
    id: str


class Reject(ServerMessage):
    type: Literal["reject"] = "reject"
    id: str | None
    code: str
    message: str


class Snapshot(ServerMessage):
    """Your whole view of a table at ``seq``."""

    type: Literal["snapshot"] = "snapshot"
    table: str
    seq: int
    view: dict[str, Any]


def view_frame(kind: Literal["snapshot", "update"], table: str, seq: int, view: str) -> str:
    """A ``snapshot`` or ``update`` frame around a view its table already serialized, so the
    gateway passes views on without parsing them (equal to the model's own JSON)."""
    return f'{{"type":"{kind}","table":{json.dumps(table)},"seq":{seq},"view":{view}}}'


class Update(ServerMessage):
    """Your view after the table accepted command ``seq`` (always the previous ``seq`` + 1)."""

    type: Literal["update"] = "update"
    table: str
    seq: int
    view: dict[str, Any]


class ChatLine(ServerMessage):
    """A line of the table's chat, to everyone watching it. ``id`` is the line's own: a line
    also in a ``history`` has the same ``id`` there (show it once)."""

    type: Literal["chat"] = "chat"
    table: str
    id: str = ""
    player: str
    name: str
    text: str
    at: int


class History(ServerMessage):
    """Sent on ``watch``, before its ``ack`` and the snapshot it asks for (a seated player's
    socket is also sent a snapshot as it opens, which may come first): what a page that
    starts watching (a reload, a reconnect) needs to show its hand log and chat again.

    ``chat``: the table's last lines (at most 50), oldest first, as ``chat`` messages carry
    them. ``views``: your views of the table's recent commands (the last hand and the current
    one, at most 80), oldest first, each exactly as a ``snapshot`` at its ``seq`` showed it to
    you then (your seat's view while you held a seat, else the spectators'): no card you could
    not see then. Views at or before the ``seq`` of your ``watch`` are left out. A client
    words the changes between consecutive views (as it does between updates) for its hand log;
    the snapshot is the table now. The server keeps no log of wordings: it rebuilds the views
    from the table's stored events when asked, which costs the game nothing while it is
    played (a full history is some 100 KB at a table of six; one after a reconnect, a few)."""

    type: Literal["history"] = "history"
    table: str
    chat: list[ChatLine]
    views: list[dict[str, Any]]


def history_frame(table: str, chat: list[ChatLine], views: list[str]) -> str:
    """A ``history`` frame around views already serialized (equal to the model's own JSON)."""
    lines = ",".join(line.model_dump_json() for line in chat)
    return (
        f'{{"type":"history","table":{json.dumps(table)},"chat":[{lines}],'
        f'"views":[{",".join(views)}]}}'
    )


Outgoing: TypeAlias = Welcome | Ack | Reject | Snapshot | Update | ChatLine | History

ACTIONS = """\
| `kind` | fields | who, when |
|---|---|---|
| `ante` | `amount`, `entropy` (optional, up to 64 characters) | the dealer, normal hand |
| `ready` | `entropy` (optional) | players asked to ready up |
| `skip_hand` | | players asked to ready up: sit this hand out |
| `next_hand` | | in the `interlude` after a hand: the people present when it ended |
| `trump` | `keep`: bool | the dealer, after the deal |
| `knock` | `knock`: bool (false = pass) | in turn, then the dealer |
| `draw` | `discards`: card codes, 0 to 3 | in turn, then the dealer |
| `discard` | `card` | a dealer holding 4 cards |
| `face_trump` | `play`: bool (false = Set single) | a dealer who kept a face trump |
| `play` | `card` | in turn, during the tricks |
| `sit_out` | `sitting_out`: bool (`false` when marked away: "I'm back") | any seated player |
| `leave` | | any seated player (mid-hand: after the hand) |
| `start_game` | | the host, between games |
| `end_game` | | the host, between hands, with no carry |
| `hand_over_host` | `seat` | the host |
| `add_bot` | `seat`, `bot`: a registered bot (easy, medium, hard...) | the host, between hands |

Cards are codes: rank (`7` `8` `9` `10` `J` `Q` `K` `A`) then suit (`C` `D` `H` `S`), as in
`10D` or `AS`, exactly so: `"ks"` or `30` is not a card. Fields are typed strictly, as in every
message: `"knock": "no"` or `"amount": "3"` is `malformed`, not read as false or 3. An action
names every field of its kind and no other: a field left out is not defaulted (Euchre's
`{"kind": "order_up"}` without `alone` is `malformed`) and an unknown one is `malformed` too;
the `action` of each option in the view is complete, as sent. The view lists your options with
`legal` and, when not, the `reason`.
"""

AFTER_A_GAME = """\
A table whose game is over (phase `ended`) keeps its seats: its host may `start_game` again, a
rematch for everyone still seated, bots included, under a new seed. `GET /api/me` says
`seated_game_over: true` of such a seat, and it blocks nothing: `POST /api/tables`,
`POST /api/quickplay` and a `join` of another table first leave it (as a `leave` would),
whereas a seat at a table still in play is refused with 409 (`join`: `seated_elsewhere`). The
lobby (`GET /api/tables`) lists public tables in play only: not those whose game is over, and
not one person's game against bots with every seat taken.
"""

GAMES = """\
A table plays one game, named by its `game` in the lobby (`GET /api/tables`) and chosen when it
is opened: `POST /api/tables` and `POST /api/quickplay` take `"game": "swick"` (the default),
`"game": "euchre"` or `"game": "contract-whist"`; any other is refused with 422 and a `detail`
naming the games. A setting left out takes the game's default; a setting of another game is
refused with 422 (`"A Swick table has no target: it is played for chips"`). A Euchre table has
4 seats (partners sit across: seats 0 and 2, 1 and 3), a 20 s timer unless `timer_seconds`
says otherwise, `target` (1 to 10 points, 10 if left out) and `stake` (0 to 300 cents each
player pays into the pot when a game starts, shared by the winning partnership; 0, points
only, if left out; the table's answer shows both); it takes no `antes`, and a Swick table
takes no `target` or `stake`. Quick play at Euchre seats you with three bots. A Contract Whist
table has `seats` (2 to 5, 4 if left out), `rounds` (the first 1 to 17 rounds of the schedule
10 cards down to 2 and back up to 10; 17 if left out), `stake` (0 to 300 cents each player pays
into the pot when a game starts, shared by the seats with the highest total; 0, points only, if
left out) and a 30 s timer unless `timer_seconds` says otherwise; the table's answer shows
`rounds` and `stake`. Quick play at Contract Whist seats you with three medium bots for a full
game of 17 rounds, points only. The messages are the same for every game; the actions and the
view are the game's own. Everything above the Euchre sections is Swick's; a Euchre view says
`"game": "euchre"`, a Contract Whist view `"game": "contract-whist"`.
"""

EUCHRE_ACTIONS = """\
| `kind` | fields | who, when |
|---|---|---|
| `order_up` | `alone`: bool | first round, in turn: make the turn-up's suit trump (the dealer: \
pick it up) |
| `name_trump` | `suit` (`C` `D` `H` `S`), `alone`: bool | second round, in turn: never the \
turned-down suit |
| `pass` | | either round, in turn (not the dealer in the second round: stick the dealer) |
| `discard` | `card` | the dealer who took the turn-up |
| `play` | `card` | in turn, during the tricks |
| `next_hand` | | in the `interlude` after a hand |

and `sit_out`, `leave`, `start_game`, `end_game`, `hand_over_host` and `add_bot` as at Swick;
a seat left during a game is taken at once by a medium bot the table seats, so a partnership is
never a player short.
Cards are codes: rank (`9` `10` `J` `Q` `K` `A`) then suit (`C` `D` `H` `S`), as in `JH`.
"""

EUCHRE_VIEW_INTRO = """\
A Euchre view shows your own `hand`, your own `discarded` card when you are the dealer who took
the turn-up, and what is public: the `turn_up` (once shown, wherever it went: `turn_up_at`),
every call, trump, the maker, who sits out (`resting`) and the cards played. No other seat's
hand, the kitty or another seat's discard is ever in it. `scores` and `team_tricks` are per
team (team 0: seats 0 and 2). `pot` is the stakes paid in this game (0 at a points-only table)
and `payouts` what each seat took from it when the game ended (`config.stake` is the stake).
A game cut short by one partnership (its host's `end_game`, its last person leaving or
abandoning the table) is forfeited by it: `forfeited` lists its seats, `winner` is the other
team and `payouts` its shares of the pot (docs/rules/euchre.md §12.5).
"""

WHIST_ACTIONS = """\
| `kind` | fields | who, when |
|---|---|---|
| `bid` | `bid`: 0 to the cards each player holds | phase `bid`, in turn: the tricks you will \
take; the last bidder may not make the bids total the cards (`forbidden_bid`) |
| `choose_trump` | `suit` (`C` `D` `H` `S`), or `null` for no trumps | phase `trump`: the \
highest bidder (the earliest of a tie) |
| `play` | `card` | phase `tricks`, in turn: follow the suit led if you can |
| `next_hand` | | in the `interlude` after a round |

and `sit_out`, `leave`, `start_game`, `end_game`, `hand_over_host` and `add_bot` as at Swick;
a seat left during a game is taken at once by a medium bot the table seats, which plays on with
the seat's score.
Cards are codes: rank (`2` to `10`, `J` `Q` `K` `A`) then suit (`C` `D` `H` `S`), as in `10H`.
A refused bid says why: `forbidden_bid` with the same `reason` the view gave the option
(`"The bids would total 7, the cards in each hand: someone must miss"`), `bad_bid` outside
0 to the cards; a card that does not follow is `illegal_card` with its reason.
"""

WHIST_VIEW_INTRO = """\
A Contract Whist view shows your own `hand` and `options` and what is public: every bid in
bidding order (`bids`), their total (`bid_total`) against the `cards` each player holds, the
`forbidden_bid` while the last bidder is to bid, the `chooser` and `trump` (or `no_trumps`),
the current `trick` and the round's finished tricks (`played`, with their `takers`), each
seat's bid, tricks, total and cards held, the score `sheet`, the `pot` and, once the game has
ended, the `seed`, `winners` and `payouts`; the players who ended a game early (the host's
`end_game`, the last person leaving or abandoning the table) are in `forfeited`, their stakes
shared by the `winners` (docs/rules/contract-whist.md §8.4). No other seat's hand and no
undealt card is ever in it. `round_no` counts the rounds of `rounds`.
"""

CONNECTING = """\
Connect to `/ws?token=<token>` with the token from `POST /api/players`. A browser page of another
origin than the gateway's (or those in `SWICK_ALLOWED_ORIGINS`) is refused at the handshake with
HTTP 403; a client that sends no `Origin` (not a page) is not. Otherwise the server accepts the
connection, then closes it with a code of its own when it cannot go on:

- **4401**: the token is not valid (expired, its device signed out, signed with a secret the
  server does not hold, or malformed). Drop it and sign in again (a passkey, a link code, a
  recovery code; or `POST /api/players` for a new player): reconnecting with it is refused
  again. A socket is closed with it when its token expires or is revoked.
- **4409**: the same player connected elsewhere (the newer socket wins). Wait until the player
  wants this one back.
- **1008**: the client flooded the server, or did not read what it was sent: a client that
  falls a few hundred messages behind is cut at once (its connection reset, so it may never
  see the code). Reconnect and `sync`.
- Anything else: the connection dropped, or the server is restarting. Reconnect with backoff
  (0.5 s doubling to 2 s, with jitter; the web client waits at most 2 s between attempts).

A move (`act`, `join`) sent but not answered when the connection dropped may have been made:
after reconnecting, send it again with the same `id`. It is made at most once; if it was
made, the answer is `duplicate`.

The HTTP API answers 401 to the same tokens. A token is valid for 30 days; `GET /api/me`
returns a fresh one in `token` when the one sent is a day old (or signed with a previous key):
keep it. Renewal keeps the time you first signed in, and a sign-in lasts 90 days at most
(`SWICK_SESSION_DAYS`), however often renewed: then `/api/me` answers 401 and the socket 4401.

To sign out everywhere (a token was stolen), `POST /api/me/revoke` with your token: every token
of yours signed until then opens nothing more, and every socket opened with one is closed with
**4401** (on every gateway, within a second). The answer is like `GET /api/me`'s, its
`token` a fresh one of the same sign-in: the only one that still works, so keep it. An operator
does the same for any player with `POST /admin/players/{id}/revoke` (the admin token). To sign
one device out, `DELETE /api/account/devices/{id}` (the ids are in `GET /api/account`), or
`POST /api/account/sign-out` for the device asking; its sockets close the same way. Accounts,
devices and the ways to sign in again are in [accounts](accounts.md).
"""

REJECT_CODES = f"""\
| `code` | meaning |
|---|---|
| `malformed` | not JSON, a binary frame, an unknown `type`, or a field of the wrong shape or type |
| `too_large` | the frame is over the size limit |
| `rate_limited` | over {MESSAGES_PER_SECOND} messages a second (bursts of {MESSAGE_BURST}; chat: \
less), or wrong invite codes |
| `no_table` | there is no such table (or a wrong invite code) |
| `not_watching` | watch the table before acting there |
| `not_seated` | take a seat first |
| `table_closed` | the table has closed: find another in the lobby |
| `unknown_bot` | no bot of that name is registered |
| `stale` | the decision opened after the `seq` you sent: look again |
| `duplicate` | a message with this `id` was already applied |
| `unavailable` | the tables cannot be reached, or did not answer in 30 s: look again shortly |
| `not_your_turn`, `wrong_phase`, `illegal_card`, ... | refused by the game: see `message` |
"""


VIEW_INTRO = """\
`snapshot` and `update` carry the same thing: the whole view of the table as your seat may
see it (a spectator's has `seat` null, an empty `hand` and no `options`). Cards are codes; a
`null` in `hand` is a card you may not see yet (the dealer's own, before the dealer's knock).
Once a game has ended, `end_reason` says why: `host` (the host ended it), `no_dealer` (players
enough cover the smallest ante, but none can pay what a dealer pays, so no hand can start) or
`closed` (the table closed). A table closes, at the end of the hand in play, when no person is
seated at it or none has been connected for a while (five minutes by default): any carry is
shared among the seated players, every seat is vacated and the phase becomes `closed`; it
leaves the lobby and refuses everything after.
"""


def _fields(cls: type) -> list[tuple[str, str]]:
    def shown(kind: object) -> str:
        text = str(kind).replace("tuple", "list").replace(", ...]", "]")
        return text.replace("|", "\\|")  # a bar would end the table cell

    return [(f.name, shown(f.type)) for f in dataclasses.fields(cls)]


def _table(cls: type) -> list[str]:
    """A dataclass's fields as the lines of a Markdown table."""
    rows = [f"| `{name}` | `{kind}` |" for name, kind in _fields(cls)]
    return ["| field | type |", "|---|---|", *rows]


def _section(kind: str, doc: str, schema: dict[str, Any]) -> list[str]:
    """A message's part of the reference: its type, what it is for and its JSON schema."""
    return [
        "",
        f"### `{kind}`",
        "",
        doc,
        "",
        "```json",
        json.dumps(schema, indent=2, sort_keys=True),
        "```",
    ]


def markdown() -> str:
    """The protocol reference, from the models above."""
    parts = [
        "# The Swick Online WebSocket protocol (version 1)",
        "",
        "Generated from `services/gateway/protocol.py` by "
        "`python -m services.gateway.protocol`; do not edit by hand.",
        "",
        (__doc__ or "").strip(),
        "",
        CONNECTING,
        "",
        "## Client messages",
    ]
    for model in (Watch, Unwatch, Join, Act, Sync, Chat, Ping):
        schema = model.model_json_schema()
        own = model.__doc__ != ClientMessage.__doc__
        doc = inspect.cleandoc(model.__doc__ or "") if own else ""
        parts += _section(schema["properties"]["type"]["const"], doc, schema)
    parts += ["", "## Actions (`act`)", "", ACTIONS, "## Server messages"]
    for out in (Welcome, Ack, Reject, Snapshot, Update, ChatLine, History):
        schema = out.model_json_schema()
        parts += _section(
            schema["properties"]["type"]["default"], inspect.cleandoc(out.__doc__ or ""), schema
        )
    parts += ["", "## The view", "", VIEW_INTRO, *_table(SwickView)]
    parts += ["", "Each entry of `seats`:", "", *_table(SeatView)]
    parts += ["", "## After a game", "", AFTER_A_GAME]
    parts += ["", "## Games", "", GAMES, "## Euchre actions (`act`)", "", EUCHRE_ACTIONS]
    parts += ["## The Euchre view", "", EUCHRE_VIEW_INTRO, *_table(EuchreView)]
    parts += ["", "Each entry of its `seats`:", "", *_table(EuchreSeatView)]
    parts += ["", "## Contract Whist actions (`act`)", "", WHIST_ACTIONS]
    parts += ["## The Contract Whist view", "", WHIST_VIEW_INTRO, *_table(WhistView)]
    parts += ["", "Each entry of its `seats`:", "", *_table(WhistSeatView)]
    parts += ["", "Each line of its `sheet` (and its `result`):", "", *_table(RoundResult)]
    parts += ["", "## Rejection codes", "", REJECT_CODES]
    return "\n".join(line for line in parts).replace("\n\n\n", "\n\n")


if __name__ == "__main__":
    sys.stdout.write(markdown())
