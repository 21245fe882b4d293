"""Swick as a ``GameModule``: the one object the services use to run a Swick table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.fairness import ALGORITHM
from shared.games.interface import IllegalCommand, RecordVerdict, TableForm
from shared.games.results import SeatResult, places_by
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick import record
from shared.games.swick.cards import DECK, code
from shared.games.swick.codec import CODEC
from shared.games.swick.decide import RULES
from shared.games.swick.legal import legal_actions
from shared.games.swick.money import transfers
from shared.games.swick.state import (
    DEFAULT_ANTES,
    DEFAULT_TIMER_MS,
    MAX_SEATS,
    MIN_SEATS,
    HandResult,
    State,
    TableConfig,
    new_table,
)
from shared.games.swick.views import SwickView, dealer_sees_own_cards, view_for
from shared.games.table.game import TableGame, seat_count, timing, trick_cards, whole
from shared.games.views import viewer

MAX_ANTE = 300


class SwickGame(TableGame[State, ac.Action, ev.Event, SwickView]):
    rules = RULES
    codec = CODEC
    checkpoints = (ev.HandSettled, ev.GameEnded)
    name = "swick"
    form = TableForm(
        title="Swick",
        defaults={"seats": MIN_SEATS, "timer_ms": DEFAULT_TIMER_MS, "antes": list(DEFAULT_ANTES)},
        own=("antes",),
        played_for="it is played for chips",
        quick_play=("medium", "medium"),
    )

    def make_config(self, settings: Mapping[str, Any]) -> TableConfig:
        antes = tuple(settings.get("antes", DEFAULT_ANTES))
        seats = seat_count(settings, MIN_SEATS, MIN_SEATS, MAX_SEATS)
        if not antes or any(not whole(a) or a <= 0 or a % 3 or a > MAX_ANTE for a in antes):
            raise IllegalCommand(
                "bad_config", f"Antes are multiples of 3 cents, from 3 to {MAX_ANTE}"
            )
        return TableConfig(
            seats=seats,
            antes=tuple(sorted(set(antes))),
            **timing(settings, DEFAULT_TIMER_MS),
        )

    # The engine's own functions serve as the module's methods.
    new_table = staticmethod(new_table)
    legal_actions = staticmethod(legal_actions)
    transfers = staticmethod(transfers)
    view_for = staticmethod(view_for)

    # The deals, the antes and readiness that decide who is dealt in, the trump, the draws and
    # the discards.
    recorded = frozenset(
        {
            "game_started",
            "hand_opened",
            "ante_chosen",
            "readied",
            "hand_dealt",
            "trump_decided",
            "drew",
            "dealer_discarded",
            "waiting",
            "game_ended",
        }
    )

    def record(self, events: Sequence[Any], seats: int) -> Any:
        return record.dump_record(
            record.game_record((CODEC.load_event(data) for data in events), seats)
        )

    def winners(self, ended: ev.Event) -> tuple[int, ...]:
        return ()  # a pot game: chips are won hand by hand, not the game

    counted = frozenset({"hand_dealt", "knocked", "hand_settled"})

    def stats(self, events: Sequence[ev.Event], seat: int) -> dict[str, int]:
        # The hands dealt to this seat; those it played (knocked in, or, as the dealer, took
        # a trick or was set) and was set in; its net a hand, with the sum of squares for the
        # interval of the mean over many games.
        dealt = knocked = False
        settled: list[HandResult] = []
        played = 0
        for e in events:
            if isinstance(e, ev.HandDealt):
                dealt, knocked = seat in e.order, False
            elif isinstance(e, ev.Knocked) and e.seat == seat:
                knocked = e.knock
            elif isinstance(e, ev.HandSettled) and dealt:
                settled.append(e.result)
                played += knocked or e.result.tricks[seat] > 0 or bool(e.result.sets[seat])
        nets = [r.delta[seat] for r in settled]
        return {
            "hands": len(settled),
            "knocks": played,
            "sets": sum(bool(r.sets[seat]) for r in settled),
            "net": sum(nets),
            "net_squares": sum(net * net for net in nets),
        }

    def results(self, started: ev.Event, ended: ev.Event) -> tuple[SeatResult, ...]:
        # No points: the seats are placed by the chips each won or lost over the game.
        assert isinstance(ended, ev.GameEnded)
        nets = [standing.net for standing in ended.standings]
        return tuple(
            SeatResult(standing.seat, standing.seat, None, standing.net, place)
            for standing, place in zip(ended.standings, places_by(nets), strict=True)
        )

    deck = tuple(code(card) for card in DECK)
    sample_settings: tuple[Mapping[str, Any], ...] = (
        {"seats": 3},
        {"seats": 4, "antes": [3, 6, 9], "interlude_ms": 5_000},
        {"seats": 6, "antes": [3, 30, 300]},  # six seats run the stock dry
    )

    def cards_in_play(self, state: State) -> list[str]:
        s = state
        if not s.order:
            return []
        places = [card for hand in s.hands for card in hand]
        places += (*s.stock, *s.discards, *trick_cards(s))
        if s.trump_card is not None and not s.kept:
            places.append(s.trump_card)  # a kept one is in the dealer's hand or a trick
        return [code(card) for card in places]

    def visible_cards(self, state: State, seat: int | None) -> frozenset[str]:
        # Rules §4: the trump card, the tricks, a winning special hand; a player's own cards
        # (a dealer's not until their knock turn, but a kept trump card) and own discards.
        s = state
        seen = set(trick_cards(s))
        if s.trump_card is not None:
            seen.add(s.trump_card)
        if s.result is not None and s.result.special is not None:
            seen.update(s.result.special.cards)
        seat = viewer(s, seat)  # a spectator (None) holds no hand
        if seat is not None:
            blind = seat == s.dealer and not dealer_sees_own_cards(s)
            seen.update(() if blind else s.hands[seat])
            seen.update(s.discarded[seat])
        return frozenset(code(card) for card in seen)

    record_algorithm = ALGORITHM

    def verify_record(self, data: Any) -> RecordVerdict:
        read = record.load_record(data)
        verdict = record.verify(read)
        return RecordVerdict(verdict.ok, verdict.hands, "hands", read.fingerprint, verdict.mismatch)


SWICK = SwickGame()
