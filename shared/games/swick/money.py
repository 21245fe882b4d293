"""The chip movements of Swick events, for the ledger (rules §2.1, §2.10).

Antes go from wallets to the pot and the carry joins the pot when cards are dealt; at the end
of the hand the pot pays out completely and set penalties go from wallets to the carry.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.interface import Transfer
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
    s = state.copy()
    for event in events:
        if isinstance(event, ev.HandDealt):
            if s.carry:
                moves.append(Transfer("carry", "pot", s.carry, "carry_in", event.hand_no))
            for seat, ante in enumerate(event.antes):
                player = s.players[seat]
                if ante and player is not None:
                    moves.append(
                        Transfer(f"wallet:{player.id}", "pot", ante, "ante", event.hand_no)
                    )
        elif isinstance(event, ev.HandSettled):
            r = event.result
            for seat, player in enumerate(s.players):
                if player is None:
                    continue
                wallet = f"wallet:{player.id}"
                if r.payouts[seat]:
                    moves.append(
                        Transfer("pot", wallet, r.payouts[seat], WIN_CODES[r.ending], r.hand_no)
                    )
                if r.penalties[seat]:
                    code = "dealer_set" if seat == s.dealer else "set"
                    moves.append(
                        Transfer(
                            wallet, "carry", r.penalties[seat], f"{code}_{r.sets[seat]}", r.hand_no
                        )
                    )
        elif isinstance(event, ev.CarryShared):
            for seat, share in enumerate(event.shares):
                player = s.players[seat]
                if share and player is not None:
                    moves.append(
                        Transfer("carry", f"wallet:{player.id}", share, "carry_shared", s.hand_no)
                    )
        apply(s, event)
    return moves
