"""A finished game's public record, and the check that its seed really dealt every card.

The record lists, for every hand, who was dealt in and with what entropy, the cards each seat was
dealt, the trump card, and every discard and draw. Once the seed is revealed anyone can re-deal
the hands with ``verify`` (or ``swick verify RECORD.json``) and compare them card by card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from shared import fairness
from shared.games.record import RecordFormat, Verdict, revealed_seed
from shared.games.swick import events as ev
from shared.games.swick.cards import Card, labels
from shared.games.swick.dealing import deal, entropy_context, recycled


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """One seat's discards and the cards it drew; a dealer's fourth-card discard draws none."""

    seat: int
    discards: tuple[Card, ...]
    drawn: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    hand_no: int
    dealer: int
    order: tuple[int, ...]
    entropy: tuple[str, ...]  # per seat of ``order``
    dealt: tuple[tuple[Card, ...], ...]  # per seat of ``order``
    trump_card: Card
    kept: bool
    draws: tuple[DrawRecord, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    algorithm: str
    seats: int
    seed: str
    fingerprint: str
    first_dealer: int
    dealer_candidates: tuple[int, ...]
    hands: tuple[HandRecord, ...]


_FORMAT = RecordFormat(GameRecord)
dump_record = _FORMAT.dump
load_record = _FORMAT.load


def game_record(events: Iterable[ev.Event], seats: int) -> GameRecord:
    """The record of the last game started in ``events`` (a table's event list)."""
    started: ev.GameStarted | None = None
    hands: list[HandRecord] = []
    dealer = 0
    entropy: dict[int, str] = {}
    current: HandRecord | None = None
    draws: list[DrawRecord] = []

    def close() -> None:
        nonlocal current
        if current is not None:
            hands.append(
                HandRecord(
                    current.hand_no,
                    current.dealer,
                    current.order,
                    current.entropy,
                    current.dealt,
                    current.trump_card,
                    current.kept,
                    tuple(draws),
                )
            )
        current = None
        draws.clear()

    for event in events:
        if isinstance(event, ev.GameStarted):
            started, hands, current = event, [], None
            draws.clear()
        elif isinstance(event, ev.HandOpened):
            close()
            dealer, entropy = event.dealer, {}
        elif isinstance(event, ev.AnteChosen):
            entropy[dealer] = event.entropy
        elif isinstance(event, ev.Readied):
            entropy[event.seat] = event.entropy
        elif isinstance(event, ev.HandDealt):
            current = HandRecord(
                event.hand_no,
                dealer,
                event.order,
                tuple(entropy.get(seat, "") for seat in event.order),
                tuple(event.hands[seat] for seat in event.order),
                event.trump_card,
                False,
                (),
            )
        elif isinstance(event, ev.TrumpDecided) and current is not None:
            current = replace(current, kept=event.keep)
        elif isinstance(event, ev.Drew):
            draws.append(DrawRecord(event.seat, event.discards, event.drawn))
        elif isinstance(event, ev.DealerDiscarded):
            draws.append(DrawRecord(dealer, (event.card,), ()))
        elif isinstance(event, ev.Waiting | ev.GameEnded):
            close()
    close()
    if started is None:
        raise ValueError("no game was started in these events")
    return GameRecord(
        fairness.ALGORITHM,
        seats,
        started.seed,
        started.fingerprint,
        started.first_dealer,
        started.dealer_candidates,
        tuple(hands),
    )


def verify(record: GameRecord) -> Verdict:
    """Re-deal every hand of ``record`` from its seed and compare every card."""
    seed = revealed_seed(record.algorithm, fairness.ALGORITHM, record.seed, record.fingerprint)
    if isinstance(seed, str):
        return Verdict(False, 0, seed)
    first = fairness.choose_first_dealer(seed, record.dealer_candidates)
    if first != record.first_dealer:
        return Verdict(False, 0, f"the first dealer should be seat {first + 1}")
    for checked, hand in enumerate(record.hands):
        mismatch = _verify_hand(seed, record.seats, hand)
        if mismatch:
            return Verdict(False, checked, f"hand {hand.hand_no}: {mismatch}")
    return Verdict(True, len(record.hands))


def _verify_hand(seed: bytes, seats: int, hand: HandRecord) -> str:
    entropy: list[str | None] = [None] * seats
    for seat, text in zip(hand.order, hand.entropy, strict=True):
        entropy[seat] = text
    context = entropy_context(hand.order, entropy)
    dealt, trump_card, stock = deal(seed, hand.hand_no, hand.order, context, seats)
    held = {}
    for seat, cards in zip(hand.order, hand.dealt, strict=True):
        if cards != dealt[seat]:
            return (
                f"seat {seat + 1} was dealt {labels(cards)}, the seed deals {labels(dealt[seat])}"
            )
        held[seat] = list(cards)
    if trump_card != hand.trump_card:
        return f"the trump card should be {labels([trump_card])}"
    if hand.kept:
        held[hand.dealer].append(trump_card)
    pile: list[Card] = []
    recycles = 0
    for draw in hand.draws:
        if any(card not in held.get(draw.seat, ()) for card in draw.discards):
            return f"seat {draw.seat + 1} discarded a card it did not hold"
        need = len(draw.drawn)
        if need and need != len(draw.discards):
            return f"seat {draw.seat + 1} drew {need} cards for {len(draw.discards)} discards"
        if need and len(stock) < need:
            stock += recycled(seed, hand.hand_no, context, recycles, pile)
            pile, recycles = [], recycles + 1
        if draw.drawn != stock[:need]:
            return (
                f"seat {draw.seat + 1} drew {labels(draw.drawn)}, "
                f"the stock gives {labels(stock[:need])}"
            )
        stock = stock[need:]
        for card in draw.discards:
            held[draw.seat].remove(card)
        held[draw.seat].extend(draw.drawn)
        pile.extend(draw.discards)
    return ""
