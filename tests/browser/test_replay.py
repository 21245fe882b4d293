"""The replay page: a short Contract Whist game (one round, a person and three bots) played to its
end, then watched step by step with the buttons, the keys, the slider and the round jump; the
hands and trick shown match the replay's frames; a phone at 360 px; axe; no page errors."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.support import axe_violations, browsing, no_overflow, shoot, sign_up
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.test_replay import finish_with_bots

PHONE = {"width": 360, "height": 740}


async def finished_with_bots(base: str, **settings: Any) -> tuple[str, dict[str, Any]]:
    """A game (of ``settings``) a person played to its end with bots: its table and replay."""
    person = Player(base, "Watcher")
    await person.sign_up()
    await person.connect()
    try:
        table = await finish_with_bots(person, **settings)
    finally:
        await person.close()
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.get(f"/api/tables/{table}/games/1/replay")
    assert reply.status_code == 200, reply.text
    return table, reply.json()


async def step_shown(page: Page) -> int:
    text = await page.locator(".replay-count").inner_text()
    return int(text.split()[1]) - 1


async def check_frame(page: Page, frame: dict[str, Any]) -> None:
    """Each seat's hand and the trick on the page are the frame's."""
    for seat, cards in enumerate(frame["hands"]):
        shown = await page.locator(f".replay-seat[data-seat='{seat}'] .replay-card").evaluate_all(
            "cards => cards.map(c => c.dataset.code)"
        )
        assert shown == [code or "" for code in cards], (frame["seq"], seat, shown, cards)
    trick = frame["view"]["trick"] or (
        frame["view"]["played"][-1] if frame["view"]["played"] else []
    )
    shown_trick = await page.locator(".replay-trick-cards li").evaluate_all(
        "items => items.map(i => [Number(i.dataset.seat), i.dataset.code])"
    )
    if frame["view"]["trick"]:
        assert shown_trick == [list(p) for p in trick], (frame["seq"], shown_trick, trick)


async def test_a_finished_game_replays_step_by_step(cluster: Cluster, browser: Browser) -> None:
    table, replay = await finished_with_bots(cluster.base, game="contract-whist", rounds=1)
    frames = replay["frames"]
    count = len(frames)
    async with browsing(browser) as (_, page, errors):
        await page.goto(f"{cluster.base}/#/replay/{table}/1")
        await expect(page.locator("h1")).to_contain_text("Replay: Contract Whist, game 1")
        count_text = page.locator(".replay-count")
        await expect(count_text).to_have_text(f"Step 1 of {count}")
        await expect(page.locator(".replay-step-line")).to_contain_text("The game starts.")
        assert await page.locator(".replay-step-line").get_attribute("aria-live") == "polite"
        await check_frame(page, frames[0])
        # Buttons: forward and back.
        forward = page.get_by_role("button", name="Forward")
        for _ in range(6):
            await forward.click()
        await expect(count_text).to_have_text(f"Step 7 of {count}")
        await check_frame(page, frames[6])
        await page.get_by_role("button", name="Back").click()
        await expect(count_text).to_have_text(f"Step 6 of {count}")
        await check_frame(page, frames[5])
        # Keys: → ←, End, Home.
        await page.locator("h1").click()
        for _ in range(8):
            await page.keyboard.press("ArrowRight")
        await expect(count_text).to_have_text(f"Step 14 of {count}")
        await check_frame(page, frames[13])
        await page.keyboard.press("ArrowLeft")
        await expect(count_text).to_have_text(f"Step 13 of {count}")
        await check_frame(page, frames[12])
        await shoot(page, "replay-desktop-whist")
        violations = await axe_violations(page)
        assert not violations, violations
        await page.keyboard.press("End")
        await expect(count_text).to_have_text(f"Step {count} of {count}")
        await expect(page.locator(".replay-step-line")).to_contain_text("Game over")
        await check_frame(page, frames[-1])
        await expect(page.get_by_role("button", name="Forward")).to_be_disabled()
        await page.keyboard.press("Home")
        await expect(count_text).to_have_text(f"Step 1 of {count}")
        # Space plays, and moves on by itself; Space again pauses.
        await page.keyboard.press("Space")
        await expect(page.get_by_role("button", name="Pause", exact=True)).to_be_visible()
        await expect(count_text).not_to_have_text(f"Step 1 of {count}", timeout=5000)
        await page.keyboard.press("Space")
        await expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
        # The last step by its button; the first by its button.
        await page.get_by_role("button", name="Last", exact=True).click()
        await expect(count_text).to_have_text(f"Step {count} of {count}")
        await page.get_by_role("button", name="First", exact=True).click()
        await expect(count_text).to_have_text(f"Step 1 of {count}")
        # The verify page links here, and here to it.
        await page.get_by_role("link", name="Verify this game").click()
        await expect(page.get_by_role("link", name="Watch the replay")).to_be_visible()
        await page.get_by_role("link", name="Watch the replay").click()
        await expect(count_text).to_have_text(f"Step 1 of {count}")
        # A phone: nothing sticks out sideways, and axe is clean.
        await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        for _ in range(10):
            await page.get_by_role("button", name="Forward").click()
        await expect(count_text).to_have_text(f"Step 11 of {count}")
        await check_frame(page, frames[10])
        await no_overflow(page)
        await shoot(page, "replay-phone-whist")
        violations = await axe_violations(page)
        assert not violations, violations
        # A game that has not ended: a clear refusal.
        await page.goto(f"{cluster.base}/#/replay/{table}/2")
        await expect(page.locator(".replay .error")).to_contain_text("not ended")
        errors.check()


async def test_a_euchre_game_links_to_its_replay_which_jumps_by_hand(
    cluster: Cluster, browser: Browser
) -> None:
    table, replay = await finished_with_bots(cluster.base, game="euchre", target=3)
    frames = replay["frames"]
    starts = [
        i
        for i, f in enumerate(frames)
        if f["view"]["hand_no"]
        and (i == 0 or frames[i - 1]["view"]["hand_no"] != f["view"]["hand_no"])
    ]
    async with browsing(browser, PHONE) as (_, page, errors):
        # The table's end-of-game panel, as a spectator sees it, links to the replay.
        await sign_up(page, cluster.base, "Viewer", f"/#/table/{table}")
        link = page.get_by_role("link", name="Watch the replay")
        await expect(link).to_be_visible()
        await link.click()
        count_text = page.locator(".replay-count")
        await expect(count_text).to_have_text(f"Step 1 of {len(frames)}")
        await expect(page.locator("h1")).to_contain_text("Replay: Euchre, game 1")
        await check_frame(page, frames[0])
        if len(starts) > 1:
            await page.get_by_role("button", name="Next hand").click()
            await expect(count_text).to_have_text(f"Step {starts[1] + 1} of {len(frames)}")
            await check_frame(page, frames[starts[1]])
            await expect(page.locator(".replay-phase")).to_contain_text("Hand 2")
            await page.get_by_role("button", name="Previous hand").click()
            await expect(count_text).to_have_text(f"Step {starts[0] + 1} of {len(frames)}")
        for _ in range(5):
            await page.keyboard.press("ArrowRight")
        await check_frame(page, frames[5])
        await no_overflow(page)
        await shoot(page, "replay-phone-euchre")
        violations = await axe_violations(page)
        assert not violations, violations
        errors.check()
