"""A finished game's public record, and the check that its seed really dealt every card.

The record lists, for every round, its number, the cards each player held, its first bidder,
the cards each seat was dealt and the undealt rest of the deck. Once the seed is revealed
anyone can re-deal the rounds with ``verify`` and compare them card by card
(docs/rules/contract-whist.md §2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import Card, labels
from shared.games.contract_whist.dealing import ALGORITHM, bidder_of_round, deal, first_bidder
from shared.games.contract_whist.state import cards_in_round
from shared.games.record import RecordFormat, revealed_seed


@dataclass(frozen=True, slots=True)
class RoundRecord:
    round_no: int
    cards: int
    first_bidder: int
    dealt: tuple[tuple[Card, ...], ...]  # by seat number
    undealt: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    algorithm: str
    seed: str
    fingerprint: str
    seats: int
    first_bidder: int
    rounds: tuple[RoundRecord, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    rounds: int  # how many rounds were checked
    mismatch: str = ""  # the first difference found


_FORMAT = RecordFormat(GameRecord)
dump_record = _FORMAT.dump
load_record = _FORMAT.load


def game_record(events: Iterable[ev.Event]) -> GameRecord:
    """The record of the last game started in ``events`` (a table's event list)."""
    started: ev.GameStarted | None = None
    rounds: list[RoundRecord] = []
    for event in events:
        if isinstance(event, ev.GameStarted):
            started, rounds = event, []
        elif isinstance(event, ev.RoundDealt):
            rounds.append(
                RoundRecord(
                    event.round_no, event.cards, event.first_bidder, event.hands, event.undealt
                )
            )
    if started is None:
        raise ValueError("no game was started in these events")
    return GameRecord(
        ALGORITHM,
        started.seed,
        started.fingerprint,
        len(started.stakes),
        started.first_bidder,
        tuple(rounds),
    )


def verify(record: GameRecord) -> Verdict:
    """Re-deal every round of ``record`` from its seed and compare every card: round ``r``
    has the schedule's cards and its first bidder is one seat further round than round 1's."""
    seed = revealed_seed(record.algorithm, ALGORITHM, record.seed, record.fingerprint)
    if isinstance(seed, str):
        return Verdict(False, 0, seed)
    n = record.seats
    if not 2 <= n <= 5:
        return Verdict(False, 0, f"a table has 2 to 5 seats, not {n}")
    first = first_bidder(seed, n)
    if first != record.first_bidder:
        return Verdict(False, 0, f"the first bidder should be seat {first + 1}")
    for checked, rnd in enumerate(record.rounds):
        round_no = checked + 1
        if rnd.round_no != round_no:
            return Verdict(False, checked, f"round {round_no} is missing")
        if round_no > 17 or rnd.cards != cards_in_round(round_no):
            return Verdict(False, checked, f"round {round_no} is not a round of the schedule")
        bidder = bidder_of_round(first, round_no, n)
        if rnd.first_bidder != bidder:
            return Verdict(False, checked, f"round {round_no}: seat {bidder + 1} bids first")
        dealt, undealt = deal(seed, round_no, bidder, n, rnd.cards)
        for seat, (cards, expected) in enumerate(zip(rnd.dealt, dealt, strict=False)):
            if cards != expected:
                return Verdict(
                    False,
                    checked,
                    f"round {round_no}: seat {seat + 1} was dealt {labels(cards)}, "
                    f"the seed deals {labels(expected)}",
                )
        if len(rnd.dealt) != n:
            return Verdict(False, checked, f"round {round_no}: {n} seats are dealt")
        if rnd.undealt != undealt:
            return Verdict(False, checked, f"round {round_no}: the undealt cards differ")
    return Verdict(True, len(record.rounds))
