"""The free roll: a staked game cut short by the side that is behind must cost that side.

Before, ending a staked game early (the host's ``end_game`` between hands, or the last person
leaving) gave every stake back, so a side that ended every game its opponents led risked
nothing and kept every game it won: over 8 Euchre games at 300¢ a seat, 6 aborted, 2 won, 0
lost. Now the side that ends or leaves forfeits its stakes to the others (docs/rules/euchre.md
§12.5, docs/rules/contract-whist.md §8.4). These tests play that strategy through the pure
engines (``shared/games/registry.py``), at random but from a fixed seed, over many games: the
side must not come out ahead, and every forfeit must have moved its stakes to the others.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable
from typing import Any

from shared.games.interface import Command, Transfer
from shared.games.lifecycle import AddBot, EndGame, Leave, Player, StartGame, TakeSeat
from shared.games.registry import AnyGame, game

STAKE = 300
STACK = 1_000_000
GAMES = 40
SEATS = 4

# Which seats a strategy plays for, and whether it should stop the game now, given the scores.
Behind = Callable[[Any], bool]


class StakedTable:
    """One staked table driven command by command through the game's module, with every chip
    movement kept."""

    def __init__(self, name: str, settings: dict[str, Any], bots: tuple[int, ...]) -> None:
        self.g: AnyGame = game(name)
        self.state = self.g.new_table(self.g.make_config(settings))
        self.ids = itertools.count()
        self.moves: list[Transfer] = []
        for seat in range(SEATS):
            if seat not in bots:
                self.act(None, TakeSeat(seat, Player(f"p{seat}", f"Player {seat}"), STACK))
        for seat in bots:  # seated by the host, seat 0
            self.act(0, AddBot(seat, Player(f"b{seat}", f"Bot {seat}", "medium"), STACK))

    def act(self, actor: int | None, action: Any) -> list[Any]:
        command = Command(
            actor=actor, action=action, action_id=f"a{next(self.ids)}", seq=self.g.seq(self.state)
        )
        before = self.state
        self.state, events = self.g.step(before, command)
        self.moves += self.g.transfers(before, events)
        return events

    def phase(self) -> str:
        return self.g.phase(self.state)

    def play_at_random(self, rng: random.Random) -> None:
        """One decision of the seat whose turn it is: any of its legal options."""
        seat = self.g.to_act(self.state)[0]
        legal = [o.action for o in self.g.legal_actions(self.state, seat) if o.legal]
        self.act(seat, rng.choice(legal))


def net(moves: list[Transfer], wallets: set[str]) -> int:
    """What ``wallets`` gained (lost, when negative) over ``moves``."""
    return sum(m.amount for m in moves if m.credit in wallets) - sum(
        m.amount for m in moves if m.debit in wallets
    )


def free_roll(
    t: StakedTable, rng: random.Random, behind: Behind, quit_by: int, quit_with: Any
) -> list[Transfer]:
    """Play one game at random from the start; whenever a hand is over and ``behind`` says the
    other side leads, seat ``quit_by`` ends the game with ``quit_with``. The game's moves."""
    first = len(t.moves)
    t.act(0, StartGame(hashlib.sha256(rng.randbytes(8)).hexdigest()))
    while t.phase() not in ("ended", "closed"):
        if t.phase() == "interlude" and behind(t.state.scores):
            t.act(quit_by, quit_with)
        else:
            t.play_at_random(rng)
    return t.moves[first:]


def check_strategy(
    name: str,
    settings: dict[str, Any],
    bots: tuple[int, ...],
    side: tuple[int, ...],
    behind: Behind,
    quit_with: Any,
    seed: int,
) -> None:
    """``GAMES`` games of the free roll by ``side`` (whose first seat ends them); a table that
    closes (a leaver) is set up again for the next game."""
    rng = random.Random(seed)
    wallets = {f"p{seat}" if seat not in bots else f"b{seat}" for seat in side}
    wallets = {f"wallet:{w}" for w in wallets}
    others = {f"wallet:{'b' if s in bots else 'p'}{s}" for s in range(SEATS) if s not in side}
    t = StakedTable(name, settings, bots)
    forfeits = 0
    total = 0
    for _ in range(GAMES):
        if t.phase() == "closed":
            t = StakedTable(name, settings, bots)
        moves = free_roll(t, rng, behind, side[0], quit_with)
        total += net(moves, wallets)
        if t.state.forfeited:
            forfeits += 1
            # The forfeit moved each stake of the side to the others, the pot paid out whole.
            assert set(t.state.forfeited) == set(side)
            assert net(moves, wallets) == -STAKE * len(side)
            assert net(moves, others) == STAKE * len(side)
            payouts = [m for m in moves if m.debit == "pot"]
            assert payouts and all(m.credit in others for m in payouts)
            assert sum(m.amount for m in payouts) == STAKE * SEATS
        else:
            assert t.state.end_reason in ("target", "rounds")
        assert t.state.pot == 0
    assert forfeits >= GAMES // 4, f"the side ended only {forfeits} of {GAMES} games"
    assert total <= 0, f"the side came out {total}¢ ahead over {GAMES} games"


EUCHRE = {"stake": STAKE, "interlude_ms": 5_000, "private": True, "timer_ms": None}
WHIST = {"seats": SEATS, "stake": STAKE, "interlude_ms": 5_000, "private": True, "timer_ms": None}


def team_one_leads(scores: Any) -> bool:
    return bool(scores[1] > scores[0])


def someone_leads_seat_zero(scores: Any) -> bool:
    return bool(max(scores[1:]) > scores[0])


def test_the_host_ending_every_euchre_game_it_trails_does_not_come_out_ahead() -> None:
    # Four people; the host (seat 0) and its partner (seat 2) end every game team 1 leads.
    check_strategy("euchre", EUCHRE, (), (0, 2), team_one_leads, EndGame(), seed=1)


def test_leaving_every_euchre_game_the_bots_lead_does_not_come_out_ahead() -> None:
    # One person with three bots leaves every game the other partnership leads: the table
    # closes and the person's side (with its bot partner) forfeits.
    check_strategy("euchre", EUCHRE, (1, 2, 3), (0, 2), team_one_leads, Leave(), seed=2)


def test_the_host_ending_every_whist_game_it_trails_does_not_come_out_ahead() -> None:
    check_strategy("contract-whist", WHIST, (), (0,), someone_leads_seat_zero, EndGame(), seed=3)


def test_leaving_every_whist_game_a_bot_leads_does_not_come_out_ahead() -> None:
    check_strategy(
        "contract-whist", WHIST, (1, 2, 3), (0,), someone_leads_seat_zero, Leave(), seed=4
    )
