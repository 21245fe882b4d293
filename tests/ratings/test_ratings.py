"""Ratings (``shared/ratings.py``) against openskill's own reference values, and their
properties over any game's places."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from shared.ratings import MODEL, PROVISIONAL, START, Rating, rated, rated_as
from shared.tables_read import PlayerResult

# openskill.py's tests/models/data/plackettluce.json (the package's reference data for its
# Plackett–Luce model): its model, and the ratings after a game of one player against two,
# with ranks [2, 1] ("ranks"), and of one, two and three with ranks [1, 2, 1] ("ties").
REFERENCE = PlackettLuce(22.350299400541857, 4.177118726502424)
RANKS = [(22.19401288690994, 4.163571386191661), (22.506585914173776, 4.15760104967308)]
TIES = [
    (23.01442322005181, 4.176165477042022),
    (22.154697318038096, 4.164693649388653),
    (21.88177766353566, 4.159497495039252),
]


def result(player: str, side: int, place: int | None, bot: str | None = None) -> PlayerResult:
    return PlayerResult(player, side, player, bot, side, None, 0, place)


def fresh(model: PlackettLuce) -> Rating:
    return Rating(model.mu, model.sigma)


def test_a_game_is_rated_as_openskill_rates_it() -> None:
    players = [result("a", 0, 2), result("b", 1, 1), result("c", 1, 1)]
    start = {rated_as(p): fresh(REFERENCE) for p in players}
    new = rated(players, start, REFERENCE)
    for player, (mu, sigma) in zip(players, [RANKS[0], RANKS[1], RANKS[1]], strict=True):
        got = new[rated_as(player)]
        assert got.mu == pytest.approx(mu) and got.sigma == pytest.approx(sigma) and got.games == 1


def test_ties_share_a_place_as_openskill_rates_them() -> None:
    players = [result("a", 0, 1), *(result(p, 1, 2) for p in "bc")]
    players += [result(p, 2, 1) for p in "def"]
    start = {rated_as(p): fresh(REFERENCE) for p in players}
    new = rated(players, start, REFERENCE)
    sides = {"a": 0, "b": 1, "c": 1, "d": 2, "e": 2, "f": 2}
    for player, side in sides.items():
        mu, sigma = TIES[side]
        got = new["people", player]
        assert got.mu == pytest.approx(mu) and got.sigma == pytest.approx(sigma) and got.games == 1


def test_a_new_player_starts_provisional_at_1500() -> None:
    assert Rating().shown == START == 1500 and Rating().provisional
    assert not Rating(1500, PROVISIONAL - 1).provisional


def test_a_game_cut_short_or_of_one_side_rates_nobody() -> None:
    assert rated([result("a", 0, None), result("b", 1, None)], {}) == {}
    assert rated([result("a", 0, 1), result("b", 0, 1)], {}) == {}
    assert rated([], {}) == {}


def test_a_leaver_is_last_on_a_side_of_their_own() -> None:
    stayed = [result("a", 0, 1), result("b", 1, 2)]
    leaver = PlayerResult("c", 1, "c", None, 1, None, None, 3, left=True)
    new = rated([*stayed, leaver], {})
    assert new["people", "c"].mu < new["people", "b"].mu < new["people", "a"].mu


def test_several_seats_of_one_bot_take_the_mean_of_their_ratings() -> None:
    players = [result("p", 0, 1), result("x", 1, 2, "easy"), result("y", 2, 3, "easy")]
    new = rated(players, {})
    # The same game with people in the bot's two seats: the bot is the mean of the two.
    apart = rated([result("p", 0, 1), result("q", 1, 2), result("r", 2, 3)], {})
    assert set(new) == {("people", "p"), ("bots", "easy")}
    expected = (apart["people", "q"].mu + apart["people", "r"].mu) / 2
    assert new["bots", "easy"].mu == pytest.approx(expected)
    assert new["bots", "easy"].games == 1


places = st.lists(st.integers(1, 6), min_size=2, max_size=6)


@given(places, st.lists(st.booleans(), min_size=6, max_size=6))
def test_every_player_is_rated_once_on_their_ladder(ranks: list[int], bots: list[bool]) -> None:
    players = [
        result(f"s{seat}", seat, place, f"bot{seat}" if bots[seat] else None)
        for seat, place in enumerate(ranks)
    ]
    new = rated(players, {})
    if len(set(ranks)) == 1 and len(ranks) > 1:
        # Everyone tied: nobody did better than anyone, and nobody's mean moves.
        assert all(r.mu == pytest.approx(MODEL.mu) for r in new.values())
    assert set(new) == {rated_as(p) for p in players}
    assert {ladder for ladder, _ in new} <= {"people", "bots"}
    assert all(r.games == 1 and r.sigma < MODEL.sigma for r in new.values())
    best, worst = min(ranks), max(ranks)
    if ranks.count(best) == 1 and best != worst:
        winner = players[ranks.index(best)]
        assert new[rated_as(winner)].mu > MODEL.mu
    if ranks.count(worst) == 1 and best != worst:
        loser = players[ranks.index(worst)]
        assert new[rated_as(loser)].mu < MODEL.mu
