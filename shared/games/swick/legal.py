"""Who must decide now, what they may decide, and what the table decides for them (rules §3)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from shared.games.interface import Option
from shared.games.options import offered
from shared.games.swick import actions as ac
from shared.games.swick.cards import label
from shared.games.swick.play import lowest, play_reasons
from shared.games.swick.state import DEALER_EXTRA, Phase, State

PHASE_NAMES = {
    Phase.LOBBY: "the lobby",
    Phase.WAITING: "waiting for players",
    Phase.ANTE: "the ante",
    Phase.READY: "the ready-up",
    Phase.TRUMP: "the dealer's trump decision",
    Phase.KNOCK: "the knock-in",
    Phase.DRAW: "the draw",
    Phase.DEALER_KNOCK: "the dealer's knock",
    Phase.DEALER_DRAW: "the dealer's draw",
    Phase.DEALER_DISCARD: "the dealer's discard",
    Phase.FACE_TRUMP: "the dealer's face-trump decision",
    Phase.TRICKS: "the tricks",
    Phase.INTERLUDE: "the last hand's result",
    Phase.ENDED: "the end of the game",
    Phase.CLOSED: "closed",
}

_DEALER_PHASES = frozenset(
    {
        Phase.ANTE,
        Phase.TRUMP,
        Phase.DEALER_KNOCK,
        Phase.DEALER_DRAW,
        Phase.DEALER_DISCARD,
        Phase.FACE_TRUMP,
    }
)

KEEP_TRUMP = ac.DecideTrump(keep=True)
LEAVE_TRUMP = ac.DecideTrump(keep=False)
KNOCK = ac.Knock(knock=True)
PASS = ac.Knock(knock=False)
PLAY_FACE = ac.FaceTrump(play=True)
SET_SINGLE = ac.FaceTrump(play=False)
READY = ac.Ready()
SKIP_HAND = ac.SkipHand()
NEXT_HAND = ac.NextHand()


def to_act(s: State) -> tuple[int, ...]:
    phase = s.phase
    if phase is Phase.TRICKS or phase is Phase.KNOCK or phase is Phase.DRAW:
        return () if s.turn is None else (s.turn,)
    if phase in _DEALER_PHASES:
        return () if s.dealer is None else (s.dealer,)
    if phase is Phase.READY:
        entropy, out = s.entropy, s.sitting_out
        return tuple(c for c in s.candidates if entropy[c] is None and not out[c])
    if phase is Phase.INTERLUDE:
        return s.interlude
    return ()


def legal_actions(s: State, seat: int) -> list[Option[ac.Action]]:
    """Every option of ``seat``'s pending decision; illegal ones carry the reason."""
    if seat not in to_act(s):
        return []
    phase = s.phase
    if phase is Phase.TRICKS:
        trump = s.trump_suit
        assert trump is not None
        first_lead = not s.trick and sum(s.tricks_won) == 0
        return offered(ac.PlayCard, play_reasons(s.hands[seat], s.trick, trump, first_lead))
    if phase is Phase.KNOCK or phase is Phase.DEALER_KNOCK:
        return [Option(KNOCK), Option(PASS)]
    if phase is Phase.DRAW or phase is Phase.DEALER_DRAW:
        return _draw_options(s, seat)
    if phase is Phase.READY:
        return [Option(READY), Option(SKIP_HAND)]
    if phase is Phase.TRUMP:
        return [Option(KEEP_TRUMP), Option(LEAVE_TRUMP)]
    if phase is Phase.ANTE:
        return [Option(ac.ChooseAnte(amount), *_ante(s, seat, amount)) for amount in s.config.antes]
    if phase is Phase.DEALER_DISCARD:
        return [Option(ac.DiscardFourth(card), *_discardable(s, card)) for card in s.hands[seat]]
    if phase is Phase.FACE_TRUMP:
        return [Option(PLAY_FACE), Option(SET_SINGLE)]
    if phase is Phase.INTERLUDE:
        return [Option(NEXT_HAND)]
    return []


def _ante(s: State, dealer: int, amount: int) -> tuple[bool, str]:
    pay, stack = amount + DEALER_EXTRA, s.stacks[dealer]
    if stack < pay:
        return False, f"You would pay {pay}¢ and you have {stack}¢"
    why = too_few_cover(s, amount)
    return not why, why


def too_few_cover(s: State, amount: int) -> str:
    """Why no hand can start at ante ``amount`` ("" when one can): besides the dealer, at least
    two of the players asked to ready up must be present and cover it (rules §2.1, §7)."""
    out, leaving, stacks = s.sitting_out, s.leaving, s.stacks
    covering = 1 + sum(
        1 for c in s.candidates if not out[c] and not leaving[c] and stacks[c] >= amount
    )
    if covering >= 3:
        return ""
    players = "player" if covering == 1 else "players"
    return f"Only {covering} {players} can cover {amount}¢: a hand needs 3"


def startable_antes(s: State) -> list[int]:
    """The antes the dealer may set now: those the dealer covers and a hand can start at."""
    dealer = s.dealer
    assert dealer is not None
    return [amount for amount in s.config.antes if _ante(s, dealer, amount)[0]]


def _discardable(s: State, card: int) -> tuple[bool, str]:
    if s.kept and card == s.trump_card:
        return False, f"The kept trump card {label(card)} can never be discarded"
    return True, ""


def _draw_options(s: State, seat: int) -> list[Option[ac.Action]]:
    hand = s.hands[seat]
    options: list[Option[ac.Action]] = []
    for size in range(4):
        for cards in combinations(hand, size):
            legal, why = True, ""
            if seat == s.dealer:
                for card in cards:
                    legal, why = _discardable(s, card)
                    if not legal:
                        break
            options.append(Option(ac.Draw(cards), legal, why))
    return options


def default_choice(
    phase: Phase, kept: bool, trump: int | None, options: Sequence[Option[ac.Action]]
) -> ac.Action:
    """What the table decides for a seat (rules §3), from what that seat itself can see: pass,
    draw nothing, skip the hand, leave the trump card, play the face trump; knock (a dealer who
    kept the trump card, whom passing would set); the lowest ante, the lowest legal card."""
    legal = [option.action for option in options if option.legal]
    if phase is Phase.TRICKS:
        return ac.PlayCard(lowest([a.card for a in legal if isinstance(a, ac.PlayCard)], trump))
    if phase is Phase.KNOCK:
        return PASS
    if phase is Phase.DEALER_KNOCK:
        return KNOCK if kept else PASS
    if phase is Phase.DRAW or phase is Phase.DEALER_DRAW:
        return ac.Draw(())
    if phase is Phase.READY:
        return SKIP_HAND
    if phase is Phase.TRUMP:
        return LEAVE_TRUMP
    if phase is Phase.ANTE:
        return ac.ChooseAnte(min(a.amount for a in legal if isinstance(a, ac.ChooseAnte)))
    if phase is Phase.DEALER_DISCARD:
        cards = [a.card for a in legal if isinstance(a, ac.DiscardFourth)]
        return ac.DiscardFourth(lowest(cards, trump))
    if phase is Phase.FACE_TRUMP:
        return PLAY_FACE
    if phase is Phase.INTERLUDE:
        return NEXT_HAND
    raise ValueError(f"nothing to decide at {phase}")


def default_action(s: State, seat: int) -> ac.Action:
    """What the table decides for a seat whose deadline passed (rules §3)."""
    return default_choice(s.phase, s.kept, s.trump_suit, legal_actions(s, seat))
