"""Who must decide now, what they may decide, and what the table decides for them (rules §7)."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.cards import SUITS
from shared.games.contract_whist.play import (
    closest_bid,
    default_trump,
    estimate,
    play_reasons,
    safe_card,
)
from shared.games.contract_whist.state import Phase, State
from shared.games.interface import Option
from shared.games.options import offered

PHASE_NAMES = {
    Phase.LOBBY: "the lobby",
    Phase.WAITING: "waiting for players",
    Phase.BID: "the bidding",
    Phase.TRUMP: "the choice of trump",
    Phase.TRICKS: "the tricks",
    Phase.INTERLUDE: "the last round's result",
    Phase.ENDED: "the end of the game",
    Phase.CLOSED: "closed",
}

NEXT_HAND = ac.NextHand()


def to_act(s: State) -> tuple[int, ...]:
    phase = s.phase
    if phase in (Phase.BID, Phase.TRUMP, Phase.TRICKS):
        return () if s.turn is None else (s.turn,)
    if phase is Phase.INTERLUDE:
        return s.interlude
    return ()


def forbidden_bid(cards: int, bids: Sequence[int], seats: int) -> int | None:
    """The one bid the last bidder may not make (the bids would total the cards), when there
    is such a bid in 0..cards and the next bid is the last; ``None`` otherwise."""
    if len(bids) != seats - 1:
        return None
    hook = cards - sum(bids)
    return hook if 0 <= hook <= cards else None


def hook_reason(cards: int) -> str:
    return f"The bids would total {cards}, the cards in each hand: someone must miss"


def bid_reasons(cards: int, bids: Sequence[int], seats: int) -> list[tuple[int, str]]:
    """Every bid 0..cards with the reason it may not be made ("" when it may)."""
    hook = forbidden_bid(cards, bids, seats)
    return [(bid, hook_reason(cards) if bid == hook else "") for bid in range(cards + 1)]


def legal_actions(s: State, seat: int) -> list[Option[ac.Action]]:
    """Every option of ``seat``'s pending decision; illegal ones carry the reason."""
    if seat not in to_act(s):
        return []
    phase = s.phase
    if phase is Phase.TRICKS:
        return offered(ac.PlayCard, play_reasons(s.hands[seat], s.trick))
    if phase is Phase.BID:
        return offered(ac.MakeBid, bid_reasons(s.cards, [b.bid for b in s.bids], s.n))
    if phase is Phase.TRUMP:
        return [Option(ac.ChooseTrump(suit)) for suit in (*SUITS, None)]
    if phase is Phase.INTERLUDE:
        return [Option(NEXT_HAND)]
    return []


def default_choice(
    phase: Phase,
    hand: Sequence[int],
    trick: Sequence[tuple[int, int]],
    trump: int | None,
    options: Sequence[Option[ac.Action]],
) -> ac.Action:
    """What the table decides for a seat (rules §7), from what that seat itself can see: the
    legal bid closest to the hand's estimate (ties: the lower); its longest suit as trump
    (ties ♣ ♦ ♥ ♠, never no trumps); the safe card."""
    if phase is Phase.BID:
        legal = [o.action.bid for o in options if o.legal and isinstance(o.action, ac.MakeBid)]
        return ac.MakeBid(closest_bid(estimate(hand), legal))
    if phase is Phase.TRUMP:
        return ac.ChooseTrump(default_trump(hand))
    if phase is Phase.TRICKS:
        return ac.PlayCard(safe_card(hand, trick, trump))
    if phase is Phase.INTERLUDE:
        return NEXT_HAND
    raise ValueError(f"nothing to decide at {phase}")


def default_action(s: State, seat: int) -> ac.Action:
    """What the table decides for a seat whose deadline passed (rules §7)."""
    return default_choice(s.phase, s.hands[seat], s.trick, s.trump, legal_actions(s, seat))
