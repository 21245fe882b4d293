"""The stakes: paid into the pot when a game starts, split by the winning partnership when it
ends, forfeited by a partnership that ends it early (docs/rules/euchre.md §12), and the chip
movements the ledger books for them."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.euchre import events as ev
from shared.games.euchre.evolve import apply
from shared.games.euchre.state import SEATS, State
from shared.games.interface import Transfer
from shared.games.money import split as split_among
from shared.games.money import stake_transfers


def split(pot: int, payees: Sequence[int], first: int) -> tuple[int, ...]:
    """Each seat's share of ``pot``: equal shares to ``payees``; the odd cents one each to the
    payees met first going round the table from seat ``first`` (the first dealer's left)."""
    return split_among(pot, payees, first, SEATS)


def payouts(s: State, winner: int | None) -> tuple[int, ...]:
    """How the pot is paid out as the game ends: to the seats of the ``winner`` partnership, or,
    a game cut short (``None``), back to every seat holding a player; ``()`` without a pot."""
    if not s.pot:
        return ()
    seated = [seat for seat in range(SEATS) if s.players[seat] is not None]
    payees = [seat for seat in seated if winner is not None and seat % 2 == winner] or seated
    first = ((s.first_dealer or 0) + 1) % SEATS
    return split(s.pot, payees, first)


def forfeiting_team(s: State, quitters: Sequence[int]) -> int | None:
    """The partnership that forfeits a game cut short by ``quitters`` (the host who ends it, the
    last to leave, those who abandoned it): theirs, when they are all of one partnership and the
    other holds a player to take the pot; ``None`` otherwise (the stakes go back)."""
    teams = {seat % 2 for seat in quitters}
    if len(teams) != 1:
        return None
    team = teams.pop()
    others = [seat for seat in range(SEATS) if seat % 2 != team and s.players[seat] is not None]
    return team if others else None


def transfers(state: State, events: Sequence[ev.Event]) -> list[Transfer]:
    """Stakes go from wallets to the pot when a game starts; the pot pays out when it ends."""
    return stake_transfers(state, events, apply, ev.GameStarted, ev.GameEnded, _payout)


def _payout(s: State, event: ev.GameEnded) -> tuple[str, int]:
    # A partnership that won, by the target or by the other's forfeit, takes the pot.
    code = "euchre_win" if event.winner is not None else "stake_return"
    return code, max(s.hand_no, 1)
