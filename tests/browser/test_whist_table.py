"""The Contract Whist table in the browser: the lobby's game picker and quick play with bots, and
a short game created from the lobby's form (two seats, two rounds, a stake) played to its end
by mouse and keyboard — every bid shown, the hook's forbidden bid disabled with its reason when
you bid last, the trump choice, only playable cards bright, the score sheet dialog, a phone at
360 px, axe, and the verify page re-dealing the finished game."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest
from playwright.async_api import Browser, Locator, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.browser.support import (
    axe_violations,
    browsing,
    check_brightness,
    check_seed,
    keyboard_card,
    no_overflow,
    quick_play,
    shoot,
    sign_up,
    verify_from,
)
from tests.browser.test_euchre_table import plaque_kind
from tests.browser.test_quickplay import bots_running
from tests.services.cluster import Cluster

PHONE = {"width": 360, "height": 740}
WIDE_PHONE = {"width": 430, "height": 932}


async def bid(page: Page, keyboard: bool, seen: dict[str, int]) -> None:
    """Bid the highest bid allowed (to choose trump when possible); when a bid is barred, it is
    the hook's: disabled, with its reason on the button and in the bidding panel."""
    plaque = page.locator(".plaque[data-decision='bid']")
    buttons = plaque.locator("button.bid-choice")
    count = await buttons.count()
    cards = count - 1
    await expect(page.locator(".wh-cards")).to_have_text(f"{cards} cards each")
    barred = plaque.locator("button.bid-choice.forbidden")
    if await barred.count():
        await expect(barred).to_have_count(1)
        await expect(barred).to_be_disabled()
        reason = await barred.get_attribute("title") or ""
        assert f"The bids would total {cards}, the cards in each hand: someone must miss" in reason
        forbidden = int(await barred.inner_text())
        hook = page.locator(".wh-hook")
        await expect(hook).to_contain_text(f"You may not bid {forbidden}")
        await expect(hook).to_contain_text("someone must miss")
        await expect(plaque.locator("#wh-forbidden-why")).to_contain_text(f"Not {forbidden}")
        # Every bid so far is listed, and their total against the cards.
        total = sum(
            int(t) for t in await page.locator(".wh-bids li:not(.pending) strong").all_inner_texts()
        )
        assert total + forbidden == cards
        await expect(page.locator(".wh-total")).to_contain_text(f"{total} bid for {cards} tricks")
        await shoot(page, "whist-desktop-forbidden-bid")
        seen["forbidden"] = seen.get("forbidden", 0) + 1
    legal = [
        int(t) for t in await plaque.locator("button.bid-choice:not([disabled])").all_inner_texts()
    ]
    choice = max(b for b in legal if b <= 9) if keyboard else max(legal)
    if keyboard:
        await page.locator("body").press(str(choice))
    else:
        await plaque.locator(f"button[data-bid='{choice}']").click()
    seen["bid"] = seen.get("bid", 0) + 1


async def choose_trump(page: Page, keyboard: bool, seen: dict[str, int]) -> None:
    plaque = page.locator(".plaque[data-decision='trump']")
    await expect(plaque.locator("button")).to_have_count(5)
    await expect(plaque.get_by_role("button", name="No trumps")).to_be_enabled()
    for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
        await expect(plaque.get_by_role("button", name=suit)).to_be_enabled()
    if keyboard:
        await plaque.get_by_role("button", name="No trumps").focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".wh-trump")).to_contain_text("No trumps")
    else:
        await plaque.get_by_role("button", name="Spades").click()
        await expect(page.locator(".wh-trump")).to_contain_text("Spades")
    seen["trump"] = seen.get("trump", 0) + 1


async def play_card(page: Page, keyboard: bool, seen: dict[str, int]) -> None:
    if not seen.get("play"):
        await check_brightness(page, ".wh-hand", "can't be played: You must follow")
    if keyboard:
        await keyboard_card(page, ".wh-hand")
    else:
        # The cards overlap at phone sizes: tap a card's visible left edge, as a finger would.
        card = page.locator(".wh-hand .hand-card.legal").first
        code = await card.get_attribute("data-card")
        await card.click(position={"x": 8, "y": 24})
        await page.locator(f".wh-hand .hand-card.lifted[data-card='{code}']").wait_for(timeout=3000)
        play = page.locator(".plaque").get_by_role("button", name=re.compile(r"^Play "))
        await expect(play).to_be_enabled()
        await card.click(position={"x": 8, "y": 24})
    seen["play"] = seen.get("play", 0) + 1


async def take_decision(page: Page, kind: str | None, keyboard: bool, seen: dict[str, int]) -> None:
    """Take the plaque's decision of ``kind`` (a bid, trump or a card; nothing else)."""
    if kind == "bid":
        await bid(page, keyboard, seen)
    elif kind == "trump":
        await choose_trump(page, keyboard, seen)
    elif kind == "play":
        await play_card(page, keyboard, seen)


async def open_score_sheet(page: Page) -> None:
    """The score sheet opens as a dialog, lists every scored round, and Escape closes it with
    the focus back on its button."""
    opener = page.locator(".wh-sheet-open")
    await opener.click()
    dialog = page.get_by_role("dialog", name="Score sheet")
    await expect(dialog).to_be_visible()
    rows = dialog.locator("tbody tr")
    assert await rows.count() >= 1
    await expect(rows.first).to_contain_text("10")
    await expect(dialog.locator("thead .sub th")).to_have_count(1 + 2 * 3)
    await shoot(page, "whist-desktop-score-sheet")
    violations = await axe_violations(page)
    assert not violations, violations
    await page.keyboard.press("Escape")
    await expect(dialog).to_have_count(0)
    await expect(opener).to_be_focused()


async def final_standings(over: Locator, rounds: int) -> None:
    """Game over ranks every player first to last, each with their total and the bids they
    made, equal totals in the same place; the totals are the ones on the seat plates."""
    rows = over.locator(".wh-standings tbody tr")
    await expect(rows).to_have_count(2)
    await expect(over.get_by_role("table", name="Final standings")).to_be_visible()
    plates = over.page.locator(".wh-seat")
    scores = {
        await plate.get_attribute("data-seat"): int(
            await plate.locator(".wh-score").get_attribute("data-score") or ""
        )
        for plate in await plates.all()
    }
    totals: list[int] = []
    places: list[int] = []
    for row in await rows.all():
        total = int(await row.locator(".wh-final").inner_text())
        assert total == scores[await row.get_attribute("data-seat")], (total, scores)
        await expect(row.locator(".wh-made")).to_have_text(
            re.compile(rf"^[0-{rounds}] of {rounds} bids made$")
        )
        await expect(row.locator("th")).not_to_be_empty()
        totals.append(total)
        places.append(int(await row.get_attribute("data-place") or ""))
    assert totals == sorted(totals, reverse=True), totals
    assert places[0] == 1 and places[1] == (1 if totals[0] == totals[1] else 2), places
    first = rows.first.locator(".wh-place")
    await expect(first).to_have_text("Joint 1st" if places[1] == 1 else "1st")


async def test_whist_quick_play_deals_at_once(cluster: Cluster, browser: Browser) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Quin")
            picker = page.locator(".game-picker")
            await picker.get_by_text("Contract Whist", exact=True).click()
            await expect(
                picker.get_by_role("radio", name=re.compile("Contract Whist"))
            ).to_be_checked()
            quick = page.get_by_role("button", name=re.compile("Quick play"))
            await expect(quick).to_contain_text("Contract Whist")
            await expect(page.locator("#how-title")).to_have_text("How a Contract Whist round goes")
            await quick_play(page, "Contract Whist")
            await page.locator(".whist-page").wait_for()
            seats = page.locator(".wh-seat")
            await expect(seats.first).to_be_visible()
            n = await seats.count()
            assert 2 <= n <= 5
            await expect(page.locator(".wh-seat:not(.me) .bot-badge")).to_have_count(n - 1)
            await expect(page.locator(".wh-round")).to_have_text(re.compile(r"^Round 1 of \d+$"))
            await expect(page.locator(".wh-hand .hand-card")).to_have_count(10, timeout=20_000)
            await expect(page.locator(".fair-pill")).to_contain_text("Fair deal")
            await shoot(page, "whist-desktop-quick-play")
            # Play on to a trick with cards of three seats or more, each in front of its player.
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while await page.locator(".wh-trick.live .wh-played").count() < min(3, n):
                assert loop.time() < deadline, f"no trick under way: {seen}"
                kind = await plaque_kind(page)
                with contextlib.suppress(AssertionError, PlaywrightTimeout):
                    await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.1)
            spots = await page.locator(".wh-trick.live .wh-played").evaluate_all(
                "cards => cards.map(c => [...c.classList].find(k => k.startsWith('spot-')))"
            )
            assert len(set(spots)) == len(spots), spots
            await shoot(page, "whist-desktop-quick-play-trick")
            await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
            await asyncio.sleep(0.3)
            await no_overflow(page)
            first = await page.locator(".wh-hand .hand-card").first.bounding_box()
            assert first is not None and first["x"] >= 0, first
            await shoot(page, "whist-phone-360-quick-play")
            errors.check()


async def test_a_short_whist_game_to_its_end(cluster: Cluster, browser: Browser) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Wren")
            await page.locator(".game-picker").get_by_text("Contract Whist", exact=True).click()
            await page.get_by_role("button", name=re.compile("Create a table")).click()
            await expect(page.locator("#create-title")).to_have_text(
                "Create a Contract Whist table"
            )
            # Two seats, two rounds: each seat bids last once (the first bidder moves round each
            # round), and with two seats the last bidder always has a forbidden bid.
            await page.select_option("#wh-seats", "2")
            await expect(page.locator("select[id^='wh-bot-']")).to_have_count(1)
            await page.select_option("#wh-bot-1", "easy")
            await page.select_option("#wh-rounds", "2")
            await page.select_option("#wh-stake", "5")
            violations = await axe_violations(page)
            assert not violations, violations
            async with page.expect_response("**/api/tables") as answer:
                await page.get_by_role("button", name="Open the table").click()
            reply = await answer.value
            if reply.status in (404, 422):
                pytest.skip(f"the gateway opens no Contract Whist tables: {await reply.text()}")
            await page.wait_for_url("**/#/table/*")
            table = page.url.split("#/table/")[1].split("/")[0]
            await page.locator(".whist-page").wait_for()
            await expect(page.locator(".wh-seat")).to_have_count(2)
            await expect(page.locator(".wh-seat.me")).to_contain_text("Wren")
            await expect(page.locator(".wh-seat:not(.me) .bot-badge")).to_have_count(1)
            await expect(page.locator(".wh-round")).to_have_text("Round 1 of 2", timeout=20_000)
            await expect(page.locator(".wh-pot")).to_contain_text("Pot")
            fingerprint = await page.locator(".fair-pill").get_attribute("title") or ""
            assert re.search(r"[0-9a-f]{64}", fingerprint), fingerprint

            seen: dict[str, int] = {}
            keyboard = False
            sheet_checked = phone_checked = axe_checked = False
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 240
            while not await page.locator(".wh-over").count():
                assert loop.time() < deadline, f"the game did not end: {seen}"
                kind = await plaque_kind(page)
                if kind == "next_hand" and not sheet_checked:
                    await open_score_sheet(page)
                    sheet_checked = True
                if kind is None or kind == "next_hand":
                    if kind == "next_hand":
                        with contextlib.suppress(AssertionError, PlaywrightTimeout):
                            await (
                                page.locator(".plaque")
                                .get_by_role("button", name="Next round")
                                .click()
                            )
                    await asyncio.sleep(0.15)
                    continue
                if kind == "play" and not axe_checked:
                    await expect(page.locator(".wh-mine")).to_contain_text("You bid")
                    await shoot(page, "whist-desktop-play")
                    violations = await axe_violations(page)
                    assert not violations, violations
                    axe_checked = True
                if sheet_checked and not phone_checked and kind in ("bid", "play"):
                    await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
                    await asyncio.sleep(0.3)
                    await no_overflow(page)
                    box = await page.locator(".plaque").bounding_box()
                    assert box is not None
                    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
                    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
                    await shoot(page, f"whist-phone-360-{kind}")
                    violations = await axe_violations(page)
                    assert not violations, violations
                    await page.set_viewport_size(WIDE_PHONE)  # type: ignore[arg-type]
                    await no_overflow(page)
                    box = await page.locator(".plaque").bounding_box()
                    assert box is not None
                    assert box["y"] >= 0 and box["y"] + box["height"] <= WIDE_PHONE["height"], box
                    await shoot(page, f"whist-phone-430-{kind}")
                    await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
                    phone_checked = True
                with contextlib.suppress(AssertionError, PlaywrightTimeout):
                    await take_decision(page, kind, keyboard, seen)
                    keyboard = not keyboard
                await asyncio.sleep(0.1)
            assert seen.get("bid", 0) == 2, seen
            assert seen.get("forbidden", 0) >= 1, seen
            assert seen.get("play", 0) >= 15, seen
            assert sheet_checked and phone_checked, seen

            # The end: the winners, the payouts from the pot, the seed under the fingerprint.
            over = page.locator(".wh-over")
            await expect(over).to_contain_text(
                re.compile(r"(wins? with|tie for the win with) -?\d+ points")
            )
            await check_seed(over, fingerprint)
            await final_standings(over, rounds=2)
            await no_overflow(page)
            await shoot(page, "whist-phone-360-game-over")
            await page.set_viewport_size({"width": 1280, "height": 800})
            await expect(over).to_contain_text("from the pot")
            log = await page.locator(".eu-log").inner_text()
            assert "bid" in log and "trick" in log and "Totals:" in log, log
            await shoot(page, "whist-desktop-game-over")
            violations = await axe_violations(page)
            assert not violations, violations
            await open_score_sheet(page)
            await expect(page.locator(".wh-sheet-open")).to_be_visible()

            await verify_from(page, over, table)
            await expect(page.locator(".verdict")).to_contain_text("All 2 rounds")
            rows = page.locator(".verify-table.whist tbody tr")
            await expect(rows).to_have_count(2)
            await expect(rows.first.locator(".dealt-seat")).to_have_count(2)
            await expect(rows.first).to_contain_text("Matches")
            await shoot(page, "whist-verify")
            errors.check()
