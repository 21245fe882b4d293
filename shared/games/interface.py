"""What every game module offers the services, and what the services send it.

A game is a pure state machine in the sans-I/O style: the table worker turns a player's message
into a ``Command``, asks the game to ``decide`` it against the current state, stores the events it
returns, and folds them into the state with ``evolve``. The game never reads a clock, draws a
random number or does I/O: times arrive in ``Command.at`` and seeds inside actions.

The services know games only through ``GameModule``; Swick is the first module, and a Euchre or
Contract Whist module plugs in by implementing the same protocol. A game is accepted by adding it
to ``registry.py``, which puts it on the conformance suite (``conformance.py``) every game runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from shared.games.lifecycle import Player
from shared.games.results import SeatResult

ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)
StateT = TypeVar("StateT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT")
ConfigT = TypeVar("ConfigT")

TABLE = None
"""The ``actor`` of commands the table itself issues (timeouts, seating a player)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Command(Generic[ActionT]):
    """One request to change a table.

    ``actor`` is the seat acting, or ``None`` for the table itself. ``action_id`` is unique per
    request, so a duplicate takes effect once. ``seq`` is the table sequence number the sender
    had seen: a decision sent before it was offered is stale. ``at`` is the table worker's clock
    in milliseconds, stamped on receipt; clients never set it.
    """

    actor: int | None
    action: ActionT
    action_id: str
    seq: int
    at: int = 0


@dataclass(frozen=True, slots=True)
class Option(Generic[ActionT_co]):
    """An action a seat could take now; ``reason`` says why it may not, when ``legal`` is false."""

    action: ActionT_co
    legal: bool = True
    reason: str = ""


class IllegalCommand(Exception):
    """A refused command. ``code`` is stable for programs; ``message`` is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Transfer:
    """Chips moving between a player's wallet and the table's pot or carry.

    ``debit`` and ``credit`` name accounts: ``"wallet:<player id>"``, ``"pot"`` or ``"carry"``
    (the services qualify the table's accounts with its id).
    """

    debit: str
    credit: str
    amount: int
    code: str
    hand_no: int


@dataclass(frozen=True, slots=True)
class RecordVerdict:
    """What re-dealing a game's public record from its revealed seed found.

    ``checked`` deals matched, in order (all of them when ``ok``); ``deals`` is what the game
    calls one deal, in the plural (``"hands"``, ``"rounds"``); ``mismatch`` is the first
    difference found. ``fingerprint`` is the seed's, published when the game started.
    """

    ok: bool
    checked: int
    deals: str
    fingerprint: str
    mismatch: str = ""


@dataclass(frozen=True, slots=True)
class TableForm:
    """How people ask for a game's tables (``POST /api/tables``, quick play) and see them.

    ``title`` names the game to people (``"Contract Whist"``). ``defaults`` are the settings a
    new table gets for those its request leaves out: ``seats``, ``timer_ms`` and each of
    ``own``. ``own`` are the settings only this game has, asked for and shown under these
    names (Swick's ``antes``, Euchre's ``target``...); another game's setting is refused with
    ``played_for`` as the reason (``"it is played for points"``). ``quick_play`` are the levels
    of the bots quick play seats beside the player, one a seat: the table has one seat more.
    ``bot_fills_left_seat``: a seat left empty while a game is on is taken at once by a bot the
    table seats (``AddBot`` with no actor), for games that cannot go on a player short (a
    partnership, a round of bids); a pot game lets players come and go instead.
    """

    title: str
    defaults: Mapping[str, Any]
    own: tuple[str, ...]
    played_for: str
    quick_play: tuple[str, ...]
    bot_fills_left_seat: bool = False


class GameModule(Protocol[ConfigT, StateT, ActionT, EventT, ViewT]):
    """A pure game engine, as the services see it."""

    name: str
    form: TableForm

    def make_config(self, settings: Mapping[str, Any]) -> ConfigT:
        """Validate table settings (seats, timer, stakes...); raises ``IllegalCommand``."""
        ...

    def new_table(self, config: ConfigT) -> StateT: ...

    def decide(self, state: StateT, command: Command[ActionT]) -> list[EventT]:
        """The events a command causes; raises ``IllegalCommand`` and changes nothing."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """The state after one event. The given state is never modified."""
        ...

    def step(self, state: StateT, command: Command[ActionT]) -> tuple[StateT, list[EventT]]:
        """``decide`` then ``evolve`` in one pass: the new state and the events to store."""
        ...

    def seq(self, state: StateT) -> int:
        """The table sequence number: how many commands the table has accepted."""
        ...

    def to_act(self, state: StateT) -> tuple[int, ...]:
        """The seats whose decision the table is waiting for."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> Sequence[Option[ActionT]]:
        """What ``seat`` may decide now, and each option it may not take with the reason."""
        ...

    def players(self, state: StateT) -> Sequence[Player | None]:
        """Who sits in each seat."""
        ...

    def stacks(self, state: StateT) -> Sequence[int]:
        """Each seat's chips at the table."""
        ...

    def phase(self, state: StateT) -> str:
        """A short name of what the table is doing, for the lobby (``"lobby"``, ``"ended"``...)."""
        ...

    def checkpoint(self, event: EventT) -> bool:
        """Whether the state after ``event`` is worth a snapshot (a hand ended)."""
        ...

    def transfers(self, state: StateT, events: Sequence[EventT]) -> list[Transfer]:
        """The chip movements ``events`` cause, starting from ``state``."""
        ...

    def deadline(self, state: StateT) -> int | None:
        """When the pending decision times out (ms), or ``None`` if it never does."""
        ...

    def away(self, state: StateT) -> Sequence[bool]:
        """Each seat's away mark: disconnected, or timed out twice running (decided for after
        the short grace; a bot's seat so marked is given to another bot)."""
        ...

    def left_by_bots(self, state: StateT) -> Sequence[int]:
        """The empty seats a bot left during this game (the table makes a bot leave only when
        it stopped answering): the table seats a fresh bot in each, whichever worker holds it."""
        ...

    def unattended_since(self, state: StateT) -> int | None:
        """Since when (ms) no seat has held a connected person, while the table may still be
        closed for it (``CloseTable``); ``None`` while one does, or once it is closing."""
        ...

    def timeout(self, state: StateT, action_id: str, at: int) -> Command[ActionT]:
        """The command the table issues when ``deadline`` has passed."""
        ...

    def view_for(self, state: StateT, seat: int | None) -> ViewT:
        """Everything ``seat`` may see (``None``: a spectator), and nothing more."""
        ...

    recorded: frozenset[str]
    """The kinds of the events a game's public record is made of (its start and end among
    them): a table's log holds thousands of others, and only these are parsed for it."""

    def record(self, events: Sequence[Any], seats: int) -> Any:
        """The public record (JSON data) of the game in ``events``: the dumped events of one
        game, from its start to its end, of the kinds in ``recorded``."""
        ...

    def winners(self, ended: EventT) -> tuple[int, ...]:
        """The seats that won the game ``ended`` (its ``game_ended`` event) ended; none for a
        game with no winner (a pot game, a game cut short without a forfeit)."""
        ...

    def results(self, started: EventT, ended: EventT) -> tuple[SeatResult, ...]:
        """Each seat's result of the game that ``started`` began and ``ended`` ended (its
        ``game_started`` and ``game_ended`` events), one for every seat that played it."""
        ...

    counted: frozenset[str]
    """The kinds of the events a game's statistics (``stats``) are counted from."""

    def stats(self, events: Sequence[EventT], seat: int) -> dict[str, int]:
        """What ``seat`` did over one game (``events``: those of the kinds in ``counted``),
        as counts a player's games add up (``docs/ratings.md`` names them)."""
        ...

    # What the conformance suite (``shared/games/conformance.py``) checks every game by.

    deck: tuple[str, ...]
    """Every card of the game's deck once, as cards travel (``"10D"``; in text ``"10♦"``)."""

    sample_settings: tuple[Mapping[str, Any], ...]
    """Table settings worth playing the game at to check it (``make_config`` accepts each): its
    seat counts, a stake, a short game and a long one."""

    def cards_in_play(self, state: StateT) -> list[str]:
        """Every card of the hand in play, once for each place that holds it (hands, the
        stock, tricks, discards...): the whole ``deck`` once while a hand is dealt; empty
        between hands."""
        ...

    def visible_cards(self, state: StateT, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` (``None``: a spectator) may see now, by the game's rules: the
        public ones and, for a seated player, its own. No view may show any other."""
        ...

    def default_action(self, state: StateT, seat: int) -> ActionT:
        """What the table decides for ``seat`` (one the table waits for) when its time runs out."""
        ...

    record_algorithm: str
    """The dealing algorithm the game's records name (``"euchre-fair-v1"``): a record read on
    its own, as ``swick verify`` reads one, is known to be this game's by it."""

    def verify_record(self, record: Any) -> RecordVerdict:
        """Re-deal a game's public record (``record``'s JSON data) from its revealed seed and
        compare every card; raises ``ValueError`` for data that is not such a record."""
        ...

    def dump_state(self, state: StateT) -> Any: ...
    def load_state(self, data: Any) -> StateT: ...
    def dump_event(self, event: EventT) -> Any: ...
    def load_event(self, data: Any) -> EventT: ...
    def dump_action(self, action: ActionT) -> Any: ...
    def load_action(self, data: Any) -> ActionT: ...
    def dump_view(self, view: ViewT) -> Any: ...
    def view_json(self, view: ViewT) -> str:
        """``dump_view`` as JSON text: what a table sends its watchers, serialized once."""
        ...

    def views_json(self, state: StateT, seats: Iterable[int]) -> tuple[str, dict[int, str]]:
        """The spectators' ``view_json`` and each of ``seats``' (the same text as ``view_json``
        of each ``view_for``), made as cheaply as the game can: what one command publishes."""
        ...
