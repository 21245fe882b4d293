"""Folding Contract Whist's events into a table's state (``shared.games.table.evolve`` folds
the lifecycle's)."""

from __future__ import annotations

from shared.games.contract_whist import events as ev
from shared.games.contract_whist.cards import Card
from shared.games.contract_whist.state import Bid, Phase, State
from shared.games.table import evolve as table
from shared.games.table.evolve import give_turn


def _clear_round(s: State) -> None:
    s.cards = 0
    s.bidder = None
    s.hands = ((),) * s.n
    s.undealt = ()
    s.bids = ()
    s.chooser = None
    s.trump = None
    s.no_trumps = False
    s.trick = ()
    s.played = ()
    s.takers = ()


def _game_started(s: State, e: ev.GameStarted) -> None:
    table.game_started(s, e.seed, e.fingerprint)
    s.first_bidder = e.first_bidder
    table.stakes_paid(s, e.stakes)
    s.round_no = 0
    s.scores = (0,) * s.n
    s.sheet = ()
    s.winners = ()
    s.payouts = ()
    s.forfeited = ()
    s.end_reason = None
    s.result = None


def _round_dealt(s: State, e: ev.RoundDealt) -> None:
    _clear_round(s)
    s.round_no = e.round_no
    s.cards = e.cards
    s.bidder = e.first_bidder
    s.hands = e.hands
    s.undealt = e.undealt
    s.phase = Phase.BID
    give_turn(s, e.first_bidder)


def _bid_made(s: State, e: ev.BidMade) -> None:
    s.bids = (*s.bids, Bid(e.seat, e.bid))
    if len(s.bids) < s.n:
        give_turn(s, (e.seat + 1) % s.n)
        return
    top = max(b.bid for b in s.bids)
    s.chooser = next(b.seat for b in s.bids if b.bid == top)  # the earliest of the highest
    s.phase = Phase.TRUMP
    give_turn(s, s.chooser)


def _trump_chosen(s: State, e: ev.TrumpChosen) -> None:
    s.trump = e.suit
    s.no_trumps = e.suit is None
    s.phase = Phase.TRICKS
    give_turn(s, s.bidder)


def _card_played(s: State, e: ev.CardPlayed[Card]) -> None:
    table.card_played(s, e.seat, e.card, range(s.n))  # every seat plays every round


def _trick_taken(s: State, e: ev.TrickTaken) -> None:
    s.played = (*s.played, s.trick)
    s.takers = (*s.takers, e.winner)
    s.trick = ()
    give_turn(s, e.winner if len(s.takers) < s.cards else None)


def _round_scored(s: State, e: ev.RoundScored) -> None:
    s.scores = e.result.totals
    s.sheet = (*s.sheet, e.result)
    s.result = e.result
    _clear_round(s)
    give_turn(s, None)


def _game_ended(s: State, e: ev.GameEnded) -> None:
    table.game_ended(s)
    _clear_round(s)
    s.phase = Phase.ENDED
    s.scores = e.scores
    s.winners = e.winners
    s.payouts = e.payouts
    s.forfeited = e.forfeited
    table.pot_paid_out(s, e.payouts)
    s.end_reason = e.reason
    give_turn(s, None)


apply = table.applier(
    Phase,
    _clear_round,
    {
        ev.GameStarted: _game_started,
        ev.RoundDealt: _round_dealt,
        ev.BidMade: _bid_made,
        ev.TrumpChosen: _trump_chosen,
        ev.CardPlayed: _card_played,
        ev.TrickTaken: _trick_taken,
        ev.RoundScored: _round_scored,
        ev.TableClosing: table.closing,
        ev.GameEnded: _game_ended,
    },
)

evolve = table.evolver(apply)
