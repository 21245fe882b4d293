"""What a finished hand pays (rules §2.10).

Tricks pay a third of the pot each. A player still in who misses the tricks they need goes set:
single (match the pot) or, for a dealer who kept a face trump and chose Play, double. Sets paid
at once (a dealer who kept the trump and passed, or chose Set single) are matched too. All set
money becomes the carry: the next hand's starting pot.
"""

from __future__ import annotations

from shared.games.swick.state import HandEnding, HandResult, SetKind, SpecialHand, State


def settle(
    state: State, ending: HandEnding, winner: int | None = None, special: SpecialHand | None = None
) -> HandResult:
    """The result of the hand in ``state``; ``winner`` takes the whole pot when no tricks ran."""
    pot = state.pot
    n = len(state.stacks)
    payouts = [0] * n
    penalties = [0] * n
    sets: list[SetKind] = list(state.early_sets)
    for seat, kind in enumerate(sets):
        if kind:
            penalties[seat] = pot

    def go_set(seat: int) -> None:
        double = seat == state.dealer and state.face_play
        sets[seat] = "double" if double else "single"
        penalties[seat] += 2 * pot if double else pot

    if ending == "tricks":
        third = pot // 3
        for seat in state.in_hand():
            won = state.tricks_won[seat]
            payouts[seat] = third * won
            if won < (2 if seat == state.dealer and state.face_play else 1):
                go_set(seat)
    else:
        assert winner is not None
        payouts[winner] = pot
        if special is not None:
            for seat in state.in_hand():
                if seat != winner:
                    go_set(seat)

    carry_out = sum(penalties)
    antes = state.antes
    return HandResult(
        hand_no=state.hand_no,
        ending=ending,
        pot=pot,
        carry_in=pot - sum(antes),
        carry_out=carry_out,
        antes=antes,
        tricks=state.tricks_won,
        payouts=tuple(payouts),
        penalties=tuple(penalties),
        sets=tuple(sets),
        delta=tuple(payouts[i] - antes[i] - penalties[i] for i in range(n)),
        special=special,
    )
