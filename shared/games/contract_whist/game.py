"""Contract Whist as a ``GameModule``: the one object the services use to run a table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.games.contract_whist import actions as ac
from shared.games.contract_whist import events as ev
from shared.games.contract_whist import record
from shared.games.contract_whist.cards import DECK, code
from shared.games.contract_whist.codec import CODEC
from shared.games.contract_whist.dealing import ALGORITHM
from shared.games.contract_whist.decide import RULES
from shared.games.contract_whist.legal import legal_actions
from shared.games.contract_whist.money import transfers
from shared.games.contract_whist.state import (
    DEFAULT_SEATS,
    DEFAULT_TIMER_MS,
    FULL_GAME,
    IN_ROUND,
    MAX_SEATS,
    MAX_STAKE,
    MIN_SEATS,
    State,
    TableConfig,
    new_table,
)
from shared.games.contract_whist.views import WhistView, view_for
from shared.games.interface import RecordVerdict, TableForm
from shared.games.results import SeatResult, net_chips, places_by
from shared.games.table.game import TableGame, ranged, seat_count, stake, timing, trick_cards
from shared.games.views import viewer


class ContractWhistGame(TableGame[State, ac.Action, ev.Event, WhistView]):
    rules = RULES
    codec = CODEC
    checkpoints = (ev.RoundScored, ev.GameEnded)
    name = "contract-whist"
    form = TableForm(
        title="Contract Whist",
        defaults={
            "seats": DEFAULT_SEATS,
            "timer_ms": DEFAULT_TIMER_MS,
            "rounds": FULL_GAME,
            "stake": 0,
        },
        own=("rounds", "stake"),
        played_for="it is played for points and one stake a player",
        quick_play=("medium", "medium", "medium"),
        bot_fills_left_seat=True,
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        """``seats`` (2 to 5, default 4), ``rounds`` (1 to 17, default 17: the first rounds of
        the schedule), ``stake`` (0 to 300 cents, default 0), ``timer_ms`` (10 to 120 s, default
        30 s; ``None`` only at a private table), ``private``, ``interlude_ms``. Other settings
        (a Swick table's antes...) are ignored."""
        seats = seat_count(settings, DEFAULT_SEATS, MIN_SEATS, MAX_SEATS)
        rounds = ranged(
            settings, "rounds", FULL_GAME, 1, FULL_GAME, f"A game is 1 to {FULL_GAME} rounds"
        )
        return TableConfig(
            seats=seats,
            rounds=rounds,
            stake=stake(settings, MAX_STAKE),
            **timing(settings, DEFAULT_TIMER_MS, "round"),
        )

    # The engine's own functions serve as the module's methods.
    new_table = staticmethod(new_table)
    legal_actions = staticmethod(legal_actions)
    transfers = staticmethod(transfers)
    view_for = staticmethod(view_for)

    # Each round's deal.
    recorded = frozenset({"game_started", "round_dealt", "game_ended"})

    def record(self, events: Sequence[Any], seats: int) -> Any:
        loaded = (CODEC.load_event(data) for data in events)
        return record.dump_record(record.game_record(loaded))

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        # The highest totals, or those who stayed when others ended the game (rules §8.4).
        if isinstance(ended, ev.GameEnded) and (ended.reason == "rounds" or ended.forfeited):
            return ended.winners
        return ()

    counted = frozenset({"round_scored"})

    def stats(self, events: Sequence[ev.Event], seat: int) -> dict[str, int]:
        # Rounds played, bids made exactly, and the points they scored.
        rounds = [e.result for e in events if isinstance(e, ev.RoundScored)]
        return {
            "rounds": len(rounds),
            "exact": sum(r.bids[seat] == r.tricks[seat] for r in rounds),
            "points": sum(r.points[seat] for r in rounds),
        }

    def results(self, started: ev.Event, ended: ev.Event) -> tuple[SeatResult, ...]:
        # By the totals after the last round; those who ended the game early come last, after
        # everyone who stayed (rules §8.4); a game cut short otherwise places nobody.
        assert isinstance(started, ev.GameStarted) and isinstance(ended, ev.GameEnded)
        places: list[int | None]
        if ended.forfeited:
            places = [1 if seat in ended.winners else 2 for seat in range(len(ended.scores))]
        elif ended.reason == "rounds":
            places = [*places_by(ended.scores)]
        else:
            places = [None] * len(ended.scores)
        return tuple(
            SeatResult(
                seat, seat, points, net_chips(started.stakes, ended.payouts, seat), places[seat]
            )
            for seat, points in enumerate(ended.scores)
        )

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"seats": 2, "rounds": 2, "stake": 10},
        {"seats": 3, "rounds": 3, "interlude_ms": 5_000},
        {"seats": 5, "rounds": 4, "stake": 300},
        {"seats": 4, "rounds": FULL_GAME, "stake": 50},
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if s.phase not in IN_ROUND:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.undealt, *trick_cards(s))
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §9: the tricks; a player's own hand.
        s = state
        seen = set(trick_cards(s))
        seat = viewer(s, seat)  # a spectator (None) holds no hand
        if seat is not None:
            seen.update(s.hands[seat])
        return frozenset(code(card) for card in seen)

    record_algorithm = ALGORITHM

    def verify_record(self, data: Any) -> RecordVerdict:
        read = record.load_record(data)
        verdict = record.verify(read)
        return RecordVerdict(
            verdict.ok, verdict.rounds, "rounds", read.fingerprint, verdict.mismatch
        )


CONTRACT_WHIST = ContractWhistGame()
