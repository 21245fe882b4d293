"""No dead end after a game: its panel offers Play again (a new game at the same table, for
everyone seated, bots included) and Back to the lobby (the seat is left), and a finished table
disables nothing in the lobby. The game itself is played to its end by the player's own Python
client first (quick and sure); the page then signs in as that player."""

from __future__ import annotations

import re

from playwright.async_api import Browser, expect

from tests.browser.support import axe_violations, browsing, signed_in_as
from tests.browser.test_quickplay import bots_running
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.play import bots_playing


async def test_play_again_deals_a_new_game_to_everyone_seated(
    cluster: Cluster, browser: Browser, finished: tuple[Player, str]
) -> None:
    player, table = finished
    async with browsing(browser) as (_, page, errors):
        await signed_in_as(page, cluster.base, player, f"/#/table/{table}")
        over = page.locator(".wh-over")
        await expect(over).to_be_visible()
        again = over.get_by_role("button", name="Play again")
        await expect(again).to_be_enabled()
        await expect(over.get_by_role("button", name="Back to the lobby")).to_be_visible()
        violations = await axe_violations(page)
        assert not violations, violations

        pill = page.locator(".fair-pill")
        first = await pill.get_attribute("title") or ""
        await again.click()
        await expect(over).to_be_hidden()
        await expect(page.locator(".wh-round")).to_have_text("Round 1 of 1", timeout=20_000)
        # The same three bots, under a new seed.
        await expect(page.locator(".wh-seat .bot-badge")).to_have_count(3)
        await expect(pill).not_to_have_attribute("title", first)
        assert re.search(r"[0-9a-f]{64}", await pill.get_attribute("title") or "")
        errors.check()


async def test_back_to_the_lobby_leaves_the_seat_and_blocks_nothing(
    cluster: Cluster, browser: Browser, finished: tuple[Player, str]
) -> None:
    player, table = finished
    async with browsing(browser) as (_, page, errors):
        # Straight to the lobby: the finished table is mentioned, and blocks nothing.
        await signed_in_as(page, cluster.base, player, "/#/")
        notice = page.locator(".notice")
        await expect(notice).to_contain_text("Your last game is over")
        quick = page.get_by_role("button", name=re.compile("^Quick play"))
        await expect(quick).to_be_enabled()
        await expect(page.locator(".lobby-table tbody tr", has_text=table)).to_have_count(0)

        await notice.get_by_role("link", name="Return to your table").click()
        over = page.locator(".wh-over")
        await over.get_by_role("button", name="Back to the lobby").click()
        await page.wait_for_url(re.compile(r"#/$"))
        await expect(quick).to_be_enabled()
        await expect(notice).to_have_count(0)
        me = await player.http("GET", "/api/me")
        assert me.json()["seated"] is None, me.json()

        await quick.click()
        await page.wait_for_url("**/#/table/*")
        assert table not in page.url
        errors.check()


# Every text the page's live region has held, kept as it changes.
ANNOUNCED = """
window.__announced = [];
new MutationObserver(() => {
  const live = document.getElementById('announcer');
  if (live && live.textContent) window.__announced.push(live.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


async def test_a_time_out_is_announced_and_warned_of(cluster: Cluster, browser: Browser) -> None:
    """A Euchre player who lets the timer run out hears five seconds before that it is running
    out, then is told, in the toast, the log and the live region, what was done for them."""
    with bots_running(cluster):
        player = Player(cluster.base, "Tove")
        await player.sign_up()
        # A timer long enough that the warning, due 15 s after the decision reaches the page,
        # comes first however busy the machine is.
        body = {
            "game": "euchre",
            "timer_seconds": 20,
            "bots": {"1": "medium", "2": "medium", "3": "medium"},
        }
        table = (await player.http("POST", "/api/tables", json=body)).json()["id"]
        async with browsing(browser, scripts=[ANNOUNCED]) as (_, page, errors):
            # The page deals, so it is there from the first decision on.
            await signed_in_as(page, cluster.base, player, f"/#/table/{table}")
            await page.get_by_role("button", name="Start the game").click()
            toast = page.locator(".toast.info")
            await expect(toast).to_contain_text("Time ran out: you", timeout=120_000)
            await expect(toast).to_contain_text("(the default)")
            await expect(page.locator(".eu-log")).to_contain_text("Time ran out: you")
            errors.check()
            announced: list[str] = await page.evaluate("window.__announced")
            # Five seconds before, or at once if the table cut the deadline short (it gives a
            # player it counts as away, say after a reconnection, a few seconds only).
            warned = [k for k, text in enumerate(announced) if "left to decide" in text]
            ran_out = [k for k, text in enumerate(announced) if "Time ran out: you" in text]
            assert warned and ran_out and warned[0] < ran_out[0], announced


async def test_sound_waits_for_the_first_touch(cluster: Cluster, browser: Browser) -> None:
    """A page that plays sounds before the person has touched it would have each refused, with
    a console warning each: until the first touch it plays none."""
    with bots_running(cluster):
        bots = {"1": "easy", "2": "easy", "3": "easy"}
        # The host, sitting out, watches the bots play on (the page is their socket now).
        async with (
            bots_playing(cluster.base, bots, 30) as (host, table),
            browsing(browser) as (_, page, errors),
        ):
            refused: list[str] = []
            page.on(
                "console",
                lambda message: (
                    refused.append(message.text) if "AudioContext" in message.text else None
                ),
            )
            await signed_in_as(page, cluster.base, host, f"/#/table/{table}")
            log = page.locator(".hand-log li")
            await expect(log.filter(has_text="played")).not_to_have_count(0, timeout=60_000)
            newest = await log.first.inner_text()
            # The bots play on, and each card would sound.
            await expect(log.first).not_to_have_text(newest, timeout=60_000)
            assert not refused, refused
            errors.check()
