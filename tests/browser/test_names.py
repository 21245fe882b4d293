"""Players go by their names at the Euchre and the Contract Whist tables: the cards of the trick
under way (their tips) and of the last trick (its pop-up), and a spectator's Euchre pegboard,
which reads each partnership as its two players' names, and seat plates, which say whom each
partners; the names fit a phone's width."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.browser.support import VIEWPORTS, axe_violations, browsing, no_overflow, shoot, sign_up
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.play import play, started

NAMES = ["Annabelle", "Bo", "Cyprian", "Di"]
# Each game's table: its settings and the class of a card on the felt's trick. The longest
# timer keeps the table still while the page is read: nobody acts once the Python players stop.
GAMES: dict[str, tuple[dict[str, Any], str]] = {
    "euchre": ({"game": "euchre", "target": 10}, ".eu-played"),
    "contract-whist": ({"game": "contract-whist", "rounds": 1}, ".wh-played"),
}


def mid_trick(view: dict[str, Any]) -> bool:
    """A trick under way, after one finished."""
    return bool(view["phase"] == "tricks" and view["played"] and view["trick"])


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_trick_cards_name_their_players(
    cluster: Cluster, browser: Browser, game: str, size: str
) -> None:
    settings, played = GAMES[game]
    players = [Player(cluster.base, name) for name in NAMES]
    for player in players:
        await player.sign_up()
        await player.connect()
    try:
        table = await started(players, seats=4, timer_seconds=120, **settings)
        await play(players, table, random.Random(5), mid_trick)
        view = players[0].views[table]
        names = [s["player"]["name"] for s in view["seats"]]
        async with browsing(browser, VIEWPORTS[size]) as (_, page, errors):
            await sign_up(page, cluster.base, "Zed", f"/#/table/{table}")
            # The trick under way: each card's tip says who played it.
            cards = page.locator(f"{played} .shown-card")
            await expect(cards).to_have_count(len(view["trick"]))
            for k, (seat, _) in enumerate(view["trick"]):
                tip = re.compile(rf", played by {re.escape(names[seat])}(:|$)")
                await expect(cards.nth(k)).to_have_attribute("title", tip)
            # The last trick, on demand: its cards by their players' names.
            await page.get_by_role("button", name="Last trick").click()
            pop = page.locator(".eu-last-pop")
            last = view["played"][-1]
            await expect(pop.locator("li > span.muted")).to_have_text(
                [names[seat] for seat, _ in last]
            )
            await expect(pop).not_to_contain_text("Seat")
            await page.keyboard.press("Escape")
            await expect(pop).to_have_count(0)
            if game == "euchre":
                await expect(page.locator(".peg-rail .peg-name")).to_have_text(
                    [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
                )
                for seat in range(4):
                    plate = page.locator(f".eu-seat[data-seat='{seat}'] .eu-team")
                    await expect(plate).to_have_text(f"with {names[(seat + 2) % 4]}")
            # The names fit the window: nothing sticks out sideways.
            await no_overflow(page)
            await shoot(page, f"names-{game}-{size}")
            assert not await axe_violations(page)
            errors.check()
    finally:
        for player in players:
            await player.close()
