"""How the games share out a pot, and the chip movements between players' wallets and the
table's accounts that the ledger books."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, Self, TypeVar

from shared.games.interface import Transfer
from shared.games.lifecycle import Player


def split(pot: int, payees: Sequence[int], first: int, seats: int) -> tuple[int, ...]:
    """Each of ``seats`` seats' share of ``pot``: equal shares to ``payees``; the odd cents one
    each to the payees met first going round the table from seat ``first``."""
    payouts = [0] * seats
    if not payees or not pot:
        return tuple(payouts)
    ordered = sorted(payees, key=lambda seat: (seat - first) % seats)
    share, odd = divmod(pot, len(ordered))
    for index, seat in enumerate(ordered):
        payouts[seat] = share + (1 if index < odd else 0)
    return tuple(payouts)


def wallet(player: Player) -> str:
    return f"wallet:{player.id}"


def _paying(players: Iterable[Player | None], amounts: Iterable[int]) -> list[tuple[str, int]]:
    """The wallet and amount of each seat with a player and an amount other than 0."""
    return [
        (wallet(player), amount)
        for player, amount in zip(players, amounts, strict=False)
        if amount and player is not None
    ]


def from_wallets(
    players: Iterable[Player | None], amounts: Iterable[int], credit: str, code: str, hand_no: int
) -> list[Transfer]:
    """Each seated player paying their amount (by seat) into the ``credit`` account."""
    return [
        Transfer(own, credit, amount, code, hand_no) for own, amount in _paying(players, amounts)
    ]


def to_wallets(
    players: Iterable[Player | None], amounts: Iterable[int], debit: str, code: str, hand_no: int
) -> list[Transfer]:
    """The ``debit`` account paying each seated player their amount (by seat)."""
    return [
        Transfer(debit, own, amount, code, hand_no) for own, amount in _paying(players, amounts)
    ]


class Copyable(Protocol):
    def copy(self) -> Self: ...


S = TypeVar("S", bound=Copyable)
E = TypeVar("E")


def replayed(
    state: S, events: Iterable[E], apply: Callable[[S, E], object]
) -> Iterator[tuple[S, E]]:
    """Each of ``events`` with the table as it was just before it: a copy of ``state`` that
    ``apply`` moves on event by event (``state`` itself is left as it is)."""
    s = state.copy()
    for event in events:
        yield s, event
        apply(s, event)


class StakedState(Copyable, Protocol):
    @property
    def players(self) -> tuple[Player | None, ...]: ...


class StakesPaid(Protocol):
    @property
    def stakes(self) -> tuple[int, ...]: ...


class PotPaidOut(Protocol):
    @property
    def payouts(self) -> tuple[int, ...]: ...


T = TypeVar("T", bound=StakedState)
Started = TypeVar("Started", bound=StakesPaid)
Ended = TypeVar("Ended", bound=PotPaidOut)


def stake_transfers(
    state: T,
    events: Iterable[object],
    apply: Callable[[T, Any], object],
    started: type[Started],
    ended: type[Ended],
    payout: Callable[[T, Ended], tuple[str, int]],
) -> list[Transfer]:
    """The ledger's moves at a table played for a stake: each player's stake from their wallet
    to the pot when the game has ``started``; the payouts from the pot when it has ``ended``,
    under the code and hand number ``payout`` gives them."""
    moves: list[Transfer] = []
    for s, event in replayed(state, events, apply):
        if isinstance(event, started):
            moves += from_wallets(s.players, event.stakes, "pot", "stake", 1)
        elif isinstance(event, ended):
            code, hand_no = payout(s, event)
            moves += to_wallets(s.players, event.payouts, "pot", code, hand_no)
    return moves
