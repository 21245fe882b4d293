"""The Euchre table in the browser: the lobby's game picker, quick play with three bots, and one
hand played to its result by mouse and keyboard — the plaque's buttons, only playable cards
bright, the tips on the table's things, the pegboard, the phone sizes and axe."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.browser import support
from tests.browser.support import (
    VIEWPORTS,
    axe_violations,
    browsing,
    check_seed,
    keyboard_card,
    no_overflow,
    shoot,
    sign_up,
    token_of,
    verify_from,
)
from tests.browser.test_quickplay import bots_running
from tests.services.cluster import Cluster

PHONES = ({"width": 360, "height": 740}, {"width": 430, "height": 932})


async def plaque_kind(page: Page) -> str | None:
    """The decision the plaque offers now ("order", "name", "discard", "play", "next_hand")."""
    plaque = page.locator(".plaque[data-decision]")
    if not await plaque.count():
        return None
    with contextlib.suppress(Exception):
        kind = await plaque.first.get_attribute("data-decision", timeout=500)
        return None if kind in (None, "none") else kind
    return None


async def check_brightness(page: Page) -> None:
    """On your turn to play, the playable cards are bright and the others dimmed."""
    await support.check_brightness(page, ".eu-hand", "can't be played")


async def mouse_card(page: Page) -> None:
    card = page.locator(".eu-hand .hand-card.legal").first
    code = await card.get_attribute("data-card")
    await card.click()
    await page.locator(f".eu-hand .hand-card.lifted[data-card='{code}']").wait_for(timeout=3000)
    play = page.locator(".plaque").get_by_role("button", name=re.compile(r"^(Play|Discard) "))
    await expect(play).to_be_enabled()
    await card.click()


async def press(button: Locator, keyboard: bool) -> None:
    """Press ``button`` by the keyboard (focus, then Enter) or with the mouse."""
    if keyboard:
        await button.focus()
        await button.page.keyboard.press("Enter")
    else:
        await button.click()


async def take_decision(page: Page, kind: str, keyboard: bool, seen: dict[str, int]) -> None:
    plaque = page.locator(".plaque")
    if kind == "order":
        verb = plaque.get_by_role("button", name=re.compile(r"^(Order it up|Pick it up)$"))
        await expect(verb).to_have_count(1)
        alone = plaque.get_by_role("button", name="Go alone")
        await expect(alone).to_have_attribute("aria-pressed", "false")
        await alone.click()
        await expect(alone).to_have_attribute("aria-pressed", "true")
        await alone.click()
        await expect(alone).to_have_attribute("aria-pressed", "false")
        await press(plaque.get_by_role("button", name="Pass", exact=True), keyboard)
    elif kind == "name":
        suits = plaque.locator(".suit-choice")
        await expect(suits).to_have_count(3)  # the turned-down suit is not offered
        await press(suits.first, keyboard)
    elif kind == "discard":
        await expect(page.locator(".eu-hand .hand-card")).to_have_count(6)
        await keyboard_card(page, ".eu-hand")
    elif kind == "play":
        await check_brightness(page)
        if keyboard:
            await keyboard_card(page, ".eu-hand")
        else:
            await mouse_card(page)
    elif kind == "next_hand":
        await plaque.get_by_role("button", name="Next hand", exact=True).click()
    seen[kind] = seen.get(kind, 0) + 1


async def check_tips(page: Page) -> None:
    """Hovering (title) or long-pressing (data-tip) names what a thing is."""
    tips: dict[str, str] = await page.evaluate(
        """() => {
          const tip = (sel) => {
            const e = document.querySelector(sel);
            return e ? e.getAttribute('title') || '' : null;
          };
          return {
            card: tip('.eu-hand .hand-card'),
            kitty: tip('.eu-kitty-stack'),
            turnUp: tip('.eu-turn-up [title], .eu-turn-up[title]'),
            trump: tip('.trump-token'),
            taken: tip('.eu-taken'),
          };
        }"""
    )
    assert tips["card"], tips
    if tips["kitty"] is not None:
        assert "kitty" in tips["kitty"], tips
    if tips["turnUp"] is not None:
        assert "turn-up" in tips["turnUp"], tips
    if tips["trump"] is not None:
        assert tips["trump"].startswith("Trump:"), tips
    if tips["taken"] is not None:
        assert "took" in tips["taken"], tips


async def new_euchre_game(page: Page, base: str, target: int, **settings: Any) -> str:
    """The page's player opens a Euchre table to ``target`` points against three easy bots,
    started at once with ``settings``, and watches it: the table's id."""
    token = (await token_of(page))["token"]
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.post(
            "/api/tables",
            headers={"authorization": f"Bearer {token}"},
            json={
                "game": "euchre",
                "seats": 4,
                "target": target,
                **settings,
                "bots": {"1": "easy", "2": "easy", "3": "easy"},
                "start": True,
            },
        )
    if reply.status_code in (404, 422):
        pytest.skip(f"the gateway opens no Euchre tables: {reply.text}")
    assert reply.status_code == 200, reply.text
    assert reply.json()["game"] == "euchre"
    table: str = reply.json()["id"]
    await page.goto(f"{base}/#/table/{table}")
    await page.locator(".euchre-page").wait_for()
    return table


async def test_euchre_quick_play_through_a_hand(cluster: Cluster, browser: Browser) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Eve")

            # The lobby's picker: Swick first; Euchre changes what Quick play opens.
            picker = page.locator(".game-picker")
            await expect(picker.get_by_role("radio", name=re.compile("Swick"))).to_be_checked()
            await picker.get_by_text("Euchre", exact=True).click()
            await expect(picker.get_by_role("radio", name=re.compile("Euchre"))).to_be_checked()
            await expect(page.get_by_role("button", name="Quick play")).to_contain_text("Euchre")
            await page.get_by_role("button", name=re.compile("Create a table")).click()
            await expect(page.locator("#create-title")).to_have_text("Create a Euchre table")
            await page.get_by_role("button", name="Cancel").click()
            await page.get_by_role("button", name="Quick play").click()
            await page.wait_for_url("**/#/table/*")
            await page.locator(".euchre-page").wait_for()

            # Four seats: you at the bottom, three bots, each marked as a bot.
            await expect(page.locator(".eu-seat")).to_have_count(4)
            await expect(page.locator(".eu-seat.at-bottom.me")).to_contain_text("Eve")
            await expect(page.locator(".eu-seat:not(.me) .bot-badge")).to_have_count(3)
            await expect(page.locator(".eu-seat.at-top .eu-team")).to_have_text("Partner")
            await expect(page.locator(".peg-rail .peg-name")).to_have_text(["Us", "Them"])
            await expect(page.locator(".peg-rail.us .peg-hole")).to_have_count(10)
            await expect(page.locator(".fair-pill")).to_contain_text("Fair deal")
            await page.locator(".eu-hand .hand-card").first.wait_for()
            assert await page.locator(".eu-hand .hand-card").count() in (5, 6)  # 6: the dealer's
            await shoot(page, "euchre-desktop-deal")

            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 150
            keyboard = False
            checked_axe = False
            while not await page.locator(".eu-result").count():
                assert loop.time() < deadline, f"hand 1 did not finish: {seen}"
                kind = await plaque_kind(page)
                if kind is None or kind == "next_hand":
                    await asyncio.sleep(0.15)
                    continue
                if kind == "play" and not checked_axe:
                    await check_brightness(page)
                    await check_tips(page)
                    await shoot(page, "euchre-desktop-play")
                    violations = await axe_violations(page)
                    assert not violations, violations
                    checked_axe = True
                with contextlib.suppress(AssertionError, PlaywrightTimeout):
                    await take_decision(page, kind, keyboard, seen)
                    keyboard = not keyboard
                await asyncio.sleep(0.1)
            # (A bot before this seat may make trump, so a bid of its own is not certain in one
            # hand: the full-game test takes every bidding path.)
            assert seen.get("play", 0) >= 3, seen

            # The hand's result between hands, with the score on the pegboard.
            result = page.locator(".eu-result")
            await expect(result).to_contain_text("Hand 1")
            await expect(result).to_contain_text("trump")
            scores = [int(s) for s in await page.locator(".peg-score").all_inner_texts()]
            assert sum(scores) >= 1, scores
            pegged = await page.locator(".peg-hole.pegged").count()
            assert pegged == sum(min(10, s) for s in scores)
            await shoot(page, "euchre-desktop-result")
            violations = await axe_violations(page)
            assert not violations, violations
            log = await page.locator(".eu-log").inner_text()
            assert "trick" in log and "Score:" in log, log

            # A phone: no sideways scroll, the decision on screen.
            for size in PHONES:
                await page.set_viewport_size(size)  # type: ignore[arg-type]
                await asyncio.sleep(0.3)
                await no_overflow(page)
            await page.set_viewport_size(PHONES[0])  # type: ignore[arg-type]
            deadline = loop.time() + 60
            while True:
                assert loop.time() < deadline, "no decision came in hand 2"
                kind = await plaque_kind(page)
                if kind in ("order", "name", "discard", "play"):
                    break
                if kind == "next_hand":
                    with contextlib.suppress(Exception):
                        await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.2)
            box = await page.locator(".plaque").bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONES[0]["height"], box
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONES[0]["width"], box
            await no_overflow(page)
            await shoot(page, "euchre-phone-360-decision")
            violations = await axe_violations(page)
            assert not violations, violations
            # Play on at 360 px to a card of hand 2: the hand and the plaque both on screen.
            deadline = loop.time() + 90
            while (kind := await plaque_kind(page)) != "play":
                assert loop.time() < deadline, f"no card to play in hand 2: {seen}"
                if kind in ("order", "name", "discard"):
                    with contextlib.suppress(AssertionError, PlaywrightTimeout):
                        await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.15)
            await check_brightness(page)
            card = page.locator(".eu-hand .hand-card.legal").first
            await card.click()
            await expect(page.locator(".eu-hand .hand-card.lifted")).to_have_count(1)
            for thing in (".plaque", ".eu-hand .hand-card.lifted"):
                box = await page.locator(thing).bounding_box()
                assert box is not None
                assert box["y"] >= 0 and box["y"] + box["height"] <= PHONES[0]["height"], (
                    thing,
                    box,
                )
            await no_overflow(page)
            await shoot(page, "euchre-phone-360-play")
            await page.set_viewport_size(PHONES[1])  # type: ignore[arg-type]
            await asyncio.sleep(0.3)
            await no_overflow(page)
            await shoot(page, "euchre-phone-430")
            errors.check()


async def test_a_euchre_game_ends_with_its_seed_and_verifies(
    cluster: Cluster, browser: Browser
) -> None:
    """A game to one point: the seed shows at its end, and the verify page re-deals every hand,
    turn-up and kitty from it."""
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Fay")
            await new_euchre_game(page, cluster.base, 1)
            fingerprint = await page.locator(".fair-pill").get_attribute("title") or ""
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 150
            while not await page.locator(".game-over").count():
                assert loop.time() < deadline, f"the game did not end: {seen}"
                kind = await plaque_kind(page)
                if kind in ("order", "name", "discard", "play"):
                    with contextlib.suppress(AssertionError, PlaywrightTimeout):
                        await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.15)
            over = page.locator(".game-over")
            await expect(over).to_contain_text(re.compile(r"(We|They) win the game, \d+ to \d+"))
            await check_seed(over, fingerprint)
            await shoot(page, "euchre-desktop-game-over")
            violations = await axe_violations(page)
            assert not violations, violations
            await verify_from(page, over)
            rows = page.locator(".verify-table.euchre tbody tr")
            await expect(rows).to_have_count(await rows.count())
            assert await rows.count() >= 1
            await expect(rows.first.locator(".dealt-seat")).to_have_count(4)
            await expect(rows.first).to_contain_text("Matches")
            await shoot(page, "euchre-verify")
            errors.check()


# The cards of the trick the trump mark covers: any card whose centre or corners show the mark.
CARDS_UNDER_MARK = """
() => {
  const mark = document.querySelector('.eu-centre .eu-trump-mark');
  return [...document.querySelectorAll('.eu-trick .eu-played')].filter((played) => {
    const { left, top, right, bottom } = played.getBoundingClientRect();
    const points = [[(left + right) / 2, (top + bottom) / 2], [left + 4, top + 4],
      [right - 4, top + 4], [left + 4, bottom - 4], [right - 4, bottom - 4]];
    return points.some(([x, y]) => mark.contains(document.elementFromPoint(x, y)));
  }).map((played) => played.dataset.card);
}
"""


async def test_trump_shows_at_the_centre_of_the_table(
    cluster: Cluster, browser: Browser, size: str
) -> None:
    """Once trump is made, the middle of the felt says which suit, by name for screen readers,
    and which team made it, under the trick: the cards played stay on top, in full view.

    The game runs to ten points: a hand in which we lead every trick (or sit out while our
    partner goes alone) leaves no trick to follow, so the test plays on into the next hand."""
    with bots_running(cluster):
        async with browsing(browser, VIEWPORTS[size]) as (_, page, errors):
            await sign_up(page, cluster.base, "Tess")
            await new_euchre_game(page, cluster.base, target=10)
            mark = page.locator(".eu-centre .eu-trump-mark")
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            hung = loop.time() + 600  # a guard against a stuck table, far above a game's length
            while True:
                assert not await page.locator(".game-over").count(), f"no trick to follow: {seen}"
                assert loop.time() < hung, f"the game stopped moving: {seen}"
                kind = await plaque_kind(page)
                if kind == "play" and await page.locator(".eu-trick.live .eu-played").count():
                    break
                if kind in ("order", "name", "discard", "play", "next_hand"):
                    with contextlib.suppress(AssertionError, PlaywrightTimeout):
                        await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.1)
            # Our turn: the trick waits for us while we look.
            token = page.locator(".trump-token")
            suit = re.search(r"Trump: (\w+)", await token.get_attribute("aria-label") or "")
            assert suit, await token.get_attribute("aria-label")
            name = suit.group(1)
            await expect(mark).to_be_visible()
            await expect(mark).to_have_accessible_name(
                re.compile(rf"^Trump: {name}, made by (us|them)(, alone)?$")
            )
            await expect(mark.locator(".eu-trump-name")).to_have_text(name.capitalize())
            await expect(mark.locator(".eu-trump-by")).to_have_text(
                re.compile(r"^made by (us|them)")
            )
            box = await mark.bounding_box()
            assert box is not None and box["height"] >= 40, box
            assert await page.locator(".eu-trick .eu-played").count()
            covered = await page.evaluate(CARDS_UNDER_MARK)
            assert not covered, f"the trump mark covers {covered}"
            violations = await axe_violations(page)
            assert not violations, violations
            await shoot(page, f"euchre-{size}-trump-centre")
            errors.check()


async def test_the_euchre_guide_on_a_phone(cluster: Cluster, browser: Browser) -> None:
    async with browsing(browser, PHONES[0]) as (_, page, errors):
        await page.goto(f"{cluster.base}/#/rules/euchre")
        await expect(page.get_by_role("heading", level=1)).to_have_text("How to play Euchre")
        await expect(page.locator(".rules-table tbody tr")).to_have_count(5)
        await expect(page.locator("#eu-online + ul li")).to_have_count(8)
        await no_overflow(page)
        violations = await axe_violations(page)
        assert not violations, violations
        await shoot(page, "euchre-guide-phone")
        errors.check()


async def test_a_euchre_table_from_the_lobby_form(cluster: Cluster, browser: Browser) -> None:
    """Create a table: two bots and a seat left open; the lobby lists it as Euchre; the host
    fills the open seat with a bot and starts the game."""
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Gus")
            await page.locator(".game-picker").get_by_text("Euchre", exact=True).click()
            await page.get_by_role("button", name=re.compile("Create a table")).click()
            await page.select_option("#eu-bot-3", "")
            await page.get_by_role("button", name="Open the table").click()
            await page.wait_for_url("**/#/table/*")
            await page.locator(".euchre-page").wait_for()
            empty = page.locator(".eu-seat.empty")
            await expect(empty).to_have_count(1)
            await expect(empty).to_contain_text("Empty seat")
            await expect(page.locator("#invite-link")).to_have_value(re.compile("#/join/"))
            violations = await axe_violations(page)
            assert not violations, violations
            await shoot(page, "euchre-desktop-lobby-phase")

            # The lobby lists the table with its game.
            await page.get_by_role("link", name="Lobby", exact=True).click()
            row = page.locator(".lobby-table tbody tr", has_text="Gus")
            await expect(row.locator(".game-tag")).to_have_text("Euchre", timeout=20_000)
            await page.get_by_role("link", name="Return to your table").click()
            await page.locator(".euchre-page").wait_for()

            start = page.locator(".plaque").get_by_role("button", name="Start the game")
            await expect(start).to_be_disabled()
            await empty.get_by_role("button", name="Add bot").click()
            await expect(page.locator(".eu-seat.empty")).to_have_count(0)
            await page.locator(".plaque").get_by_role("button", name="Start the game").click()
            await expect(page.locator(".eu-hand .hand-card")).to_have_count(5, timeout=20_000)
            await expect(page.locator(".fair-pill")).to_be_visible()
            # A reload opens the Euchre table straight away, the hand and the log back.
            await page.reload()
            await page.locator(".eu-hand .hand-card").first.wait_for(timeout=20_000)
            assert await page.locator(".eu-hand .hand-card").count() in (5, 6)  # 6: the dealer's
            await expect(page.locator(".eu-log")).to_contain_text("deals; the turn-up is")
            await expect(page.locator(".seat")).to_have_count(0)  # never the Swick table
            errors.check()
