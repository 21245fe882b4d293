"""Ratings: each finished game moves its players' skill estimates, by their places in it.

The model is openskill's Plackett–Luce (Weng and Lin's Bayesian approximation): a rating is a
mean ``mu`` and an uncertainty ``sigma``, and a game of any number of sides, ranked by place
with ties, updates everyone at once. Its scale here is lichess's: a new player is 1500 with a
deviation of 500, and a rating is provisional (shown with a "?") while its deviation is 110
or more. Euchre is rated as two teams (the partners share their side's place); Contract Whist
and Swick rate every seat on its own, Contract Whist by the final totals and Swick by the
chips each seat won or lost over the game (``shared.games.results``). A player who left before
the end is a side of their own in last place.

People and bots are rated by the same model, so a person is credited for beating a strong bot
and not for beating a weak one, but on two ladders: ``people`` (an account, by id) and ``bots``
(a built-in level or a registered bot, by name). A board lists one ladder. Several seats of
one bot in a game (two ``easy`` bots, say) are rated as the players they were, and the bot
takes the mean of their new ratings.

Pure: the stores read the ratings a game needs, call ``rated`` and write what it returns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from openskill.models import PlackettLuce, PlackettLuceRating

from shared.tables_read import PlayerResult

Ladder: TypeAlias = Literal["people", "bots"]
Rated: TypeAlias = tuple[Ladder, str]  # a ladder and who on it: an account id, a bot's name

START = 1500.0
DEVIATION = 500.0
PROVISIONAL = 110.0  # a deviation this large or larger: the rating is not yet settled
MODEL = PlackettLuce(mu=START, sigma=DEVIATION, beta=DEVIATION / 2, tau=DEVIATION / 100)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START
    sigma: float = DEVIATION
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL

    @property
    def shown(self) -> int:
        return round(self.mu)


def rated_as(result: PlayerResult) -> Rated:
    return ("bots", result.bot) if result.bot else ("people", result.player_id)


def rated(
    results: Sequence[PlayerResult],
    current: Mapping[Rated, Rating],
    model: PlackettLuce = MODEL,
) -> dict[Rated, Rating]:
    """The new ratings of a game's players from their ``current`` ones (a new player's is
    ``Rating()``), one game more each; nothing when the game has no result (it was cut short)
    or fewer than two sides."""
    if not results or any(result.place is None for result in results):
        return {}
    sides: dict[tuple[int, str], list[PlayerResult]] = defaultdict(list)
    for result in results:
        # A leaver is a side of their own: their seat's side went on without them.
        sides[(result.side, result.player_id if result.left else "")].append(result)
    if len(sides) < 2:
        return {}
    teams = [
        [
            model.rating(mu=(was := current.get(rated_as(r), Rating())).mu, sigma=was.sigma)
            for r in side
        ]
        for side in sides.values()
    ]
    ranks: list[float] = [float(side[0].place or 0) for side in sides.values()]
    updated = model.rate(teams, ranks=ranks)
    new: dict[Rated, list[PlackettLuceRating]] = defaultdict(list)
    for side, team in zip(sides.values(), updated, strict=True):
        for result, rating in zip(side, team, strict=True):
            new[rated_as(result)].append(rating)
    return {
        who: Rating(
            sum(r.mu for r in ratings) / len(ratings),
            sum(r.sigma for r in ratings) / len(ratings),
            current.get(who, Rating()).games + 1,
        )
        for who, ratings in new.items()
    }
