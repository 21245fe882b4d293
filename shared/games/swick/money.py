"""The chip movements of Swick events, for the ledger (rules §2.1, §2.10).

Antes go from wallets to the pot and the carry joins the pot when cards are dealt; at the end
of the hand the pot pays out completely and set penalties go from wallets to the carry.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.interface import Transfer
from shared.games.money import from_wallets, replayed, to_wallets, wallet
from shared.games.swick import events as ev
from shared.games.swick.evolve import apply
from shared.games.swick.state import HandEnding, State

WIN_CODES: dict[HandEnding, str] = {
    "tricks": "trick_payout",
    "all_passed": "all_pass_win",
    "last_standing": "last_standing_win",
    "special": "special_hand",
}


def transfers(state: State, events: Sequence[ev.Event]) -> list[Transfer]:
    moves: list[Transfer] = []
    for s, event in replayed(state, events, apply):
        if isinstance(event, ev.HandDealt):
            if s.carry:
                moves.append(Transfer("carry", "pot", s.carry, "carry_in", event.hand_no))
            moves += from_wallets(s.players, event.antes, "pot", "ante", event.hand_no)
        elif isinstance(event, ev.HandSettled):
            r = event.result
            for seat, player in enumerate(s.players):
                if player is None:
                    continue
                own = wallet(player)
                if r.payouts[seat]:
                    moves.append(
                        Transfer("pot", own, r.payouts[seat], WIN_CODES[r.ending], r.hand_no)
                    )
                if r.penalties[seat]:
                    code = "dealer_set" if seat == s.dealer else "set"
                    moves.append(
                        Transfer(
                            own, "carry", r.penalties[seat], f"{code}_{r.sets[seat]}", r.hand_no
                        )
                    )
        elif isinstance(event, ev.CarryShared):
            moves += to_wallets(s.players, event.shares, "carry", "carry_shared", s.hand_no)
    return moves
