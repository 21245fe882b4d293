"""The stakes: paid into the pot when a game starts, shared by the winners when it ends (or by
the others when some end it early), docs/rules/contract-whist.md §8, and the chip movements
the ledger books for them."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.contract_whist import events as ev
from shared.games.contract_whist.evolve import apply
from shared.games.contract_whist.state import State
from shared.games.interface import Transfer


def split(pot: int, winners: Sequence[int], first: int, seats: int) -> tuple[int, ...]:
    """Each seat's share of ``pot``: equal shares to ``winners``; the odd cents one each to the
    winners met first going round the table from seat ``first`` (the game's first bidder)."""
    payouts = [0] * seats
    if not winners or not pot:
        return tuple(payouts)
    ordered = sorted(winners, key=lambda seat: (seat - first) % seats)
    share, odd = divmod(pot, len(ordered))
    for index, seat in enumerate(ordered):
        payouts[seat] = share + (1 if index < odd else 0)
    return tuple(payouts)


def transfers(state: State, events: Sequence[ev.Event]) -> list[Transfer]:
    """Stakes go from wallets to the pot when a game starts; the pot pays out when it ends."""
    moves: list[Transfer] = []
    s = state.copy()
    for event in events:
        if isinstance(event, ev.GameStarted):
            for seat, stake in enumerate(event.stakes):
                player = s.players[seat]
                if stake and player is not None:
                    moves.append(Transfer(f"wallet:{player.id}", "pot", stake, "stake", 1))
        elif isinstance(event, ev.GameEnded):
            # A win by score, or a share of the stakes of those who ended the game early.
            code = "whist_win" if event.reason == "rounds" or event.forfeited else "stake_return"
            for seat, amount in enumerate(event.payouts):
                player = s.players[seat]
                if amount and player is not None:
                    moves.append(
                        Transfer("pot", f"wallet:{player.id}", amount, code, max(s.round_no, 1))
                    )
        apply(s, event)
    return moves
