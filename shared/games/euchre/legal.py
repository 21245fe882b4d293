"""Who must decide now, what they may decide, and what the table decides for them (rules §7)."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.euchre import actions as ac
from shared.games.euchre.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, suit_of
from shared.games.euchre.play import play_reasons, safest, stuck_suit
from shared.games.euchre.state import Phase, State
from shared.games.interface import Option
from shared.games.options import offered

PHASE_NAMES = {
    Phase.LOBBY: "the lobby",
    Phase.WAITING: "waiting for players",
    Phase.ORDER: "the first round of making trump",
    Phase.DISCARD: "the dealer's discard",
    Phase.NAME: "the second round of making trump",
    Phase.TRICKS: "the tricks",
    Phase.INTERLUDE: "the last hand's result",
    Phase.ENDED: "the end of the game",
    Phase.CLOSED: "closed",
}

PASS = ac.Pass()
ORDER_UP = ac.OrderUp(alone=False)
ORDER_UP_ALONE = ac.OrderUp(alone=True)
NEXT_HAND = ac.NextHand()

STUCK = "Stick the dealer: the dealer must name a suit"


def to_act(s: State) -> tuple[int, ...]:
    phase = s.phase
    if phase in (Phase.ORDER, Phase.NAME, Phase.DISCARD, Phase.TRICKS):
        return () if s.turn is None else (s.turn,)
    if phase is Phase.INTERLUDE:
        return s.interlude
    return ()


def barred_suit(s: State) -> int | None:
    """The turned-down suit, which can't be named in the second round."""
    if s.turn_up_at != "down" or s.turn_up is None:
        return None
    return suit_of(s.turn_up)


def turned_down_reason(suit: int) -> str:
    return (
        f"The turn-up's suit ({SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}) was turned down: "
        "it can't be trump this hand"
    )


def legal_actions(s: State, seat: int) -> list[Option[ac.Action]]:
    """Every option of ``seat``'s pending decision; illegal ones carry the reason."""
    if seat not in to_act(s):
        return []
    phase = s.phase
    if phase is Phase.TRICKS:
        trump = s.trump
        assert trump is not None
        return offered(ac.PlayCard, play_reasons(s.hands[seat], s.trick, trump))
    if phase is Phase.ORDER:
        return [Option(ORDER_UP), Option(ORDER_UP_ALONE), Option(PASS)]
    if phase is Phase.NAME:
        barred = barred_suit(s)
        options: list[Option[ac.Action]] = []
        for suit in SUITS:
            why = turned_down_reason(suit) if suit == barred else ""
            options.append(Option(ac.NameTrump(suit, False), not why, why))
            options.append(Option(ac.NameTrump(suit, True), not why, why))
        stuck = seat == s.dealer
        options.append(Option(PASS, not stuck, STUCK if stuck else ""))
        return options
    if phase is Phase.DISCARD:
        return [Option(ac.Discard(card)) for card in s.hands[seat]]
    if phase is Phase.INTERLUDE:
        return [Option(NEXT_HAND)]
    return []


def default_choice(
    phase: Phase,
    seat_is_dealer: bool,
    hand: Sequence[int],
    trump: int | None,
    options: Sequence[Option[ac.Action]],
    barred: int | None,
) -> ac.Action:
    """What the table decides for a seat (rules §7), from what that seat itself can see: pass,
    a stuck dealer names the suit of ``stuck_suit``, never alone; the safest legal card."""
    if phase is Phase.ORDER:
        return PASS
    if phase is Phase.NAME:
        if not seat_is_dealer:
            return PASS
        assert barred is not None
        return ac.NameTrump(stuck_suit(hand, barred), False)
    if phase is Phase.DISCARD:
        return ac.Discard(safest(hand, trump))
    if phase is Phase.TRICKS:
        legal = [o.action.card for o in options if o.legal and isinstance(o.action, ac.PlayCard)]
        return ac.PlayCard(safest(legal, trump))
    if phase is Phase.INTERLUDE:
        return NEXT_HAND
    raise ValueError(f"nothing to decide at {phase}")


def default_action(s: State, seat: int) -> ac.Action:
    """What the table decides for a seat whose deadline passed (rules §7)."""
    return default_choice(
        s.phase,
        seat == s.dealer,
        s.hands[seat],
        s.trump,
        legal_actions(s, seat),
        barred_suit(s),
    )
