"""Folding Euchre's events into a table's state (``shared.games.table.evolve`` folds the
lifecycle's)."""

from __future__ import annotations

from shared.games.euchre import events as ev
from shared.games.euchre.cards import Card, suit_of
from shared.games.euchre.state import (
    SEATS,
    TRICKS_PER_HAND,
    Call,
    Phase,
    State,
    partner_of,
    replaced,
)
from shared.games.table import evolve as table
from shared.games.table.evolve import give_turn


def _clear_hand(s: State) -> None:
    s.hands = ((),) * SEATS
    s.turn_up = None
    s.turn_up_at = ""
    s.kitty = ()
    s.discard = None
    s.calls = ()
    s.trump = None
    s.maker = None
    s.alone = False
    s.resting = None
    s.trick = ()
    s.played = ()
    s.winners = ()


def _no_hand(s: State) -> None:
    """Waiting for players, or closed: no hand, so no dealer."""
    _clear_hand(s)
    s.dealer = None


def _round(s: State) -> int:
    return 2 if s.phase is Phase.NAME else 1


def _game_started(s: State, e: ev.GameStarted) -> None:
    table.game_started(s, e.seed, e.fingerprint)
    s.first_dealer = e.first_dealer
    s.button = None
    s.hand_no = 0
    s.scores = (0, 0)
    s.winner = None
    s.end_reason = None
    s.result = None
    table.stakes_paid(s, e.stakes)
    s.payouts = ()
    s.forfeited = ()


def _hand_dealt(s: State, e: ev.HandDealt) -> None:
    _clear_hand(s)
    s.hand_no = e.hand_no
    s.dealer = e.dealer
    s.button = e.dealer
    s.hands = e.hands
    s.turn_up = e.turn_up
    s.turn_up_at = "up"
    s.kitty = e.kitty
    s.phase = Phase.ORDER
    give_turn(s, (e.dealer + 1) % SEATS)


def _passed(s: State, e: ev.Passed) -> None:
    s.calls = (*s.calls, Call(e.seat, _round(s), "pass"))
    give_turn(s, None if e.seat == s.dealer else (e.seat + 1) % SEATS)


def _turned_down(s: State, e: ev.TurnedDown) -> None:
    assert s.dealer is not None
    s.turn_up_at = "down"
    s.phase = Phase.NAME
    give_turn(s, (s.dealer + 1) % SEATS)


def _trump_made(s: State, e: ev.TrumpMade) -> None:
    first_round = s.phase is Phase.ORDER
    s.calls = (
        *s.calls,
        Call(e.seat, _round(s), "order_up" if first_round else "name", e.suit, e.alone),
    )
    s.trump = e.suit
    s.maker = e.seat
    s.alone = e.alone
    s.resting = partner_of(e.seat) if e.alone else None
    if first_round and s.resting == s.dealer:
        s.turn_up_at = "kitty"  # the dealer sits out: nobody picks the turn-up up
    give_turn(s, None)


def _turn_up_taken(s: State, e: ev.TurnUpTaken) -> None:
    dealer, card = s.dealer, s.turn_up
    assert dealer is not None and card is not None and s.trump == suit_of(card)
    s.hands = replaced(s.hands, dealer, (*s.hands[dealer], card))
    s.turn_up_at = "taken"
    s.phase = Phase.DISCARD
    give_turn(s, dealer)


def _dealer_discarded(s: State, e: ev.DealerDiscarded[Card]) -> None:
    dealer = s.dealer
    assert dealer is not None
    s.hands = replaced(s.hands, dealer, tuple(c for c in s.hands[dealer] if c != e.card))
    s.discard = e.card
    give_turn(s, None)


def _tricks_started(s: State, e: ev.TricksStarted) -> None:
    s.phase = Phase.TRICKS
    give_turn(s, e.leader)


def _card_played(s: State, e: ev.CardPlayed[Card]) -> None:
    table.card_played(s, e.seat, e.card, s.active())


def _trick_taken(s: State, e: ev.TrickTaken) -> None:
    s.played = (*s.played, s.trick)
    s.winners = (*s.winners, e.winner)
    s.trick = ()
    give_turn(s, e.winner if len(s.winners) < TRICKS_PER_HAND else None)


def _hand_scored(s: State, e: ev.HandScored) -> None:
    s.scores = e.result.scores
    s.result = e.result
    # The finished tricks (and the trump that decided them) stay on view until the next deal:
    # the hand's last trick, played by the very command that scored it, can still be reviewed.
    played, winners, trump = s.played, s.winners, s.trump
    _clear_hand(s)
    s.played, s.winners, s.trump = played, winners, trump
    give_turn(s, None)


def _game_ended(s: State, e: ev.GameEnded) -> None:
    table.game_ended(s)
    finished = (s.played, s.winners, s.trump)
    _clear_hand(s)
    if e.reason == "target":  # the deciding hand's tricks stay on view, as after any hand
        s.played, s.winners, s.trump = finished
    s.phase = Phase.ENDED
    s.scores = e.scores
    s.winner = e.winner
    s.end_reason = e.reason
    s.dealer = None
    table.pot_paid_out(s, e.payouts)
    s.payouts = e.payouts
    s.forfeited = e.forfeited
    give_turn(s, None)


apply = table.applier(
    Phase,
    _no_hand,
    {
        ev.GameStarted: _game_started,
        ev.HandDealt: _hand_dealt,
        ev.Passed: _passed,
        ev.TurnedDown: _turned_down,
        ev.TrumpMade: _trump_made,
        ev.TurnUpTaken: _turn_up_taken,
        ev.DealerDiscarded: _dealer_discarded,
        ev.TricksStarted: _tricks_started,
        ev.CardPlayed: _card_played,
        ev.TrickTaken: _trick_taken,
        ev.HandScored: _hand_scored,
        ev.TableClosing: table.closing,
        ev.GameEnded: _game_ended,
    },
)

evolve = table.evolver(apply)
