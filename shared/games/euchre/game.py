"""Euchre as a ``GameModule``: the one object the services use to run a Euchre table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.games.euchre import actions as ac
from shared.games.euchre import events as ev
from shared.games.euchre import record
from shared.games.euchre.cards import DECK, code
from shared.games.euchre.codec import CODEC
from shared.games.euchre.dealing import ALGORITHM
from shared.games.euchre.decide import RULES
from shared.games.euchre.legal import legal_actions
from shared.games.euchre.money import transfers
from shared.games.euchre.state import (
    DEFAULT_TARGET,
    DEFAULT_TIMER_MS,
    IN_HAND,
    MAX_STAKE,
    SEATS,
    TARGET_RANGE,
    State,
    TableConfig,
    new_table,
)
from shared.games.euchre.views import EuchreView, view_for
from shared.games.interface import RecordVerdict, TableForm
from shared.games.results import SeatResult, net_chips
from shared.games.table.game import TableGame, ranged, stake, timing, trick_cards
from shared.games.views import viewer


class EuchreGame(TableGame[State, ac.Action, ev.Event, EuchreView]):
    rules = RULES
    codec = CODEC
    checkpoints = (ev.HandScored, ev.GameEnded)
    name = "euchre"
    form = TableForm(
        title="Euchre",
        defaults={
            "seats": SEATS,
            "timer_ms": DEFAULT_TIMER_MS,
            "target": DEFAULT_TARGET,
            "stake": 0,
        },
        own=("target", "stake"),
        played_for="it is played for points, or for a stake a player",
        quick_play=("medium", "medium", "medium"),
        bot_fills_left_seat=True,
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        """``target`` (1 to 10 points, default 10), ``stake`` (0 to 300 cents, default 0: points
        only), ``timer_ms`` (10 to 120 s, default 20 s; ``None`` only at a private table),
        ``private``, ``interlude_ms``; ``seats`` is 4 if given. Other settings (a Swick table's
        antes...) are ignored."""
        ranged(settings, "seats", SEATS, SEATS, SEATS, "A Euchre table has 4 seats")
        low, high = TARGET_RANGE
        target = ranged(
            settings,
            "target",
            DEFAULT_TARGET,
            low,
            high,
            f"A game is played to {low} to {high} points",
        )
        return TableConfig(
            target=target,
            stake=stake(settings, MAX_STAKE),
            **timing(settings, DEFAULT_TIMER_MS),
        )

    # The engine's own functions serve as the module's methods.
    new_table = staticmethod(new_table)
    legal_actions = staticmethod(legal_actions)
    transfers = staticmethod(transfers)
    view_for = staticmethod(view_for)

    # The deals, the dealer taking the turn-up and the discard.
    recorded = frozenset(
        {"game_started", "hand_dealt", "turn_up_taken", "dealer_discarded", "game_ended"}
    )

    def record(self, events: Sequence[Any], seats: int) -> Any:
        loaded = (CODEC.load_event(data) for data in events)
        return record.dump_record(record.game_record(loaded))

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        # The target reached, or the other partnership forfeited (rules §12.5).
        if isinstance(ended, ev.GameEnded) and ended.winner is not None:
            return tuple(seat for seat in range(SEATS) if seat % 2 == ended.winner)
        return ()

    counted = frozenset({"hand_scored"})

    def stats(self, events: Sequence[ev.Event], seat: int) -> dict[str, int]:
        # The hands this seat made trump in: made or euchred, alone, marched (all five tricks).
        made = [e.result for e in events if isinstance(e, ev.HandScored) and e.result.maker == seat]
        return {
            "hands": sum(isinstance(e, ev.HandScored) for e in events),
            "made": sum(r.outcome != "euchred" for r in made),
            "euchred": sum(r.outcome == "euchred" for r in made),
            "loners": sum(r.alone for r in made),
            "marches": sum(r.outcome in ("march", "alone_march") for r in made),
        }

    def results(self, started: ev.Event, ended: ev.Event) -> tuple[SeatResult, ...]:
        # Partnerships: both partners share their team's points and place.
        assert isinstance(started, ev.GameStarted) and isinstance(ended, ev.GameEnded)
        return tuple(
            SeatResult(
                seat,
                seat % 2,
                ended.scores[seat % 2],
                net_chips(started.stakes, ended.payouts, seat),
                None if ended.winner is None else 1 if seat % 2 == ended.winner else 2,
            )
            for seat in range(SEATS)
        )

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"target": 1, "stake": 20},
        {"target": 3, "interlude_ms": 5_000},
        {"target": 10, "stake": 300},
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if s.phase not in IN_HAND:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.kitty, *trick_cards(s))
        if s.discard is not None:
            places.append(s.discard)
        if s.turn_up is not None and s.turn_up_at in ("up", "down", "kitty"):
            places.append(s.turn_up)  # else the dealer took it into their hand
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §8: the turn-up wherever it went, the tricks; a player's own hand and, the
        # dealer, their own discard.
        s = state
        seen = set(trick_cards(s))
        if s.turn_up is not None:
            seen.add(s.turn_up)
        seat = viewer(s, seat)  # a spectator (None) holds no hand
        if seat is not None:
            seen.update(s.hands[seat])
            if seat == s.dealer and s.discard is not None:
                seen.add(s.discard)
        return frozenset(code(card) for card in seen)

    record_algorithm = ALGORITHM

    def verify_record(self, data: Any) -> RecordVerdict:
        read = record.load_record(data)
        verdict = record.verify(read)
        return RecordVerdict(verdict.ok, verdict.hands, "hands", read.fingerprint, verdict.mismatch)


EUCHRE = EuchreGame()
