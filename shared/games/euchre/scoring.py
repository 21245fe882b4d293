"""The points of a hand (rules §7.1): only the makers' tricks and whether they went alone count."""

from __future__ import annotations

from shared.games.euchre.state import HandResult, Outcome, State, team_of

POINTS: dict[Outcome, int] = {
    "made": 1,  # the makers take 3 or 4 tricks
    "march": 2,  # the makers take all 5
    "alone_made": 1,  # a lone maker takes 3 or 4
    "alone_march": 4,  # a lone maker takes all 5
    "euchred": 2,  # the makers take fewer than 3: the points go to the defenders
}


def outcome(maker_tricks: int, alone: bool) -> Outcome:
    if maker_tricks < 3:
        return "euchred"
    if maker_tricks == 5:
        return "alone_march" if alone else "march"
    return "alone_made" if alone else "made"


def score(s: State) -> HandResult:
    """The result of the hand just played out (five tricks taken)."""
    assert s.maker is not None and s.trump is not None and s.dealer is not None
    tricks = s.team_tricks()
    makers = team_of(s.maker)
    kind = outcome(tricks[makers], s.alone)
    scoring_team = 1 - makers if kind == "euchred" else makers
    points = [0, 0]
    points[scoring_team] = POINTS[kind]
    scores = (s.scores[0] + points[0], s.scores[1] + points[1])
    return HandResult(
        hand_no=s.hand_no,
        dealer=s.dealer,
        maker=s.maker,
        trump=s.trump,
        alone=s.alone,
        tricks=tricks,
        outcome=kind,
        points=(points[0], points[1]),
        scores=scores,
    )
