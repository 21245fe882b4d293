"""A finished game's public record, and the check that its seed really dealt every card.

The record lists, for every hand, its dealer, the five cards each seat was dealt, the turn-up,
the kitty and the dealer's discard. Once the seed is revealed anyone can re-deal the hands with
``verify`` and compare them card by card (docs/rules/euchre.md §2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from shared.games.euchre import events as ev
from shared.games.euchre.cards import Card, label, labels
from shared.games.euchre.dealing import ALGORITHM, deal, first_dealer
from shared.games.euchre.state import SEATS
from shared.games.record import RecordFormat, Verdict, revealed_seed


@dataclass(frozen=True, slots=True)
class HandRecord:
    hand_no: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]  # by seat number
    turn_up: Card
    kitty: tuple[Card, ...]
    taken: bool = False  # the dealer took the turn-up
    discard: Card | None = None  # and discarded this card


@dataclass(frozen=True, slots=True)
class GameRecord:
    algorithm: str
    seed: str
    fingerprint: str
    first_dealer: int
    hands: tuple[HandRecord, ...]


_FORMAT = RecordFormat(GameRecord)
dump_record = _FORMAT.dump
load_record = _FORMAT.load


def game_record(events: Iterable[ev.Event]) -> GameRecord:
    """The record of the last game started in ``events`` (a table's event list)."""
    started: ev.GameStarted | None = None
    hands: list[HandRecord] = []
    for event in events:
        if isinstance(event, ev.GameStarted):
            started, hands = event, []
        elif isinstance(event, ev.HandDealt):
            hands.append(
                HandRecord(event.hand_no, event.dealer, event.hands, event.turn_up, event.kitty)
            )
        elif isinstance(event, ev.TurnUpTaken) and hands:
            hands[-1] = replace(hands[-1], taken=True)
        elif isinstance(event, ev.DealerDiscarded) and hands:
            hands[-1] = replace(hands[-1], discard=event.card)
    if started is None:
        raise ValueError("no game was started in these events")
    return GameRecord(
        ALGORITHM, started.seed, started.fingerprint, started.first_dealer, tuple(hands)
    )


def verify(record: GameRecord) -> Verdict:
    """Re-deal every hand of ``record`` from its seed and compare every card; the first hand is
    the first dealer's and the deal moves one seat left each hand."""
    seed = revealed_seed(record.algorithm, ALGORITHM, record.seed, record.fingerprint)
    if isinstance(seed, str):
        return Verdict(False, 0, seed)
    first = first_dealer(seed)
    if first != record.first_dealer:
        return Verdict(False, 0, f"the first dealer should be seat {first + 1}")
    dealer = first
    for checked, hand in enumerate(record.hands):
        if hand.hand_no != checked + 1:
            return Verdict(False, checked, f"hand {checked + 1} is missing")
        if hand.dealer != dealer:
            return Verdict(False, checked, f"hand {hand.hand_no}: seat {dealer + 1} deals it")
        mismatch = _verify_hand(seed, hand)
        if mismatch:
            return Verdict(False, checked, f"hand {hand.hand_no}: {mismatch}")
        dealer = (dealer + 1) % SEATS
    return Verdict(True, len(record.hands))


def _verify_hand(seed: bytes, hand: HandRecord) -> str:
    dealt, turn_up, kitty = deal(seed, hand.hand_no, hand.dealer)
    for seat, (cards, expected) in enumerate(zip(hand.dealt, dealt, strict=True)):
        if cards != expected:
            return f"seat {seat + 1} was dealt {labels(cards)}, the seed deals {labels(expected)}"
    if hand.turn_up != turn_up:
        return f"the turn-up should be {label(turn_up)}"
    if hand.kitty != kitty:
        return f"the kitty should be {labels(kitty)}"
    if hand.discard is not None:
        held = (*dealt[hand.dealer], turn_up) if hand.taken else ()
        if hand.discard not in held:
            return f"the dealer discarded {label(hand.discard)}, a card they did not hold"
    return ""
