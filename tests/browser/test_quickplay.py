"""Quick play from the lobby: you and two bots, dealt at once, through a hand to its settlement."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.async_api import Browser, expect

from tests.browser.support import (
    ROOT,
    browsing,
    decide,
    last_hand,
    money,
    play_until,
    sign_up,
)
from tests.services.cluster import Cluster


def bots_command() -> bool:
    """Whether ``swick serve bots`` exists (the bots service that plays bot seats)."""
    run = subprocess.run(
        [sys.executable, "-m", "services.cli", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return "bots" in run.stdout


@contextlib.contextmanager
def bots_running(cluster: Cluster) -> Iterator[None]:
    """Bot seats act by themselves only with the bots service: start one if none runs."""
    if cluster.running("bots"):
        yield
        return
    if not bots_command():
        pytest.skip("`swick serve bots` does not exist yet: bot seats would act only on timeouts")
    process = cluster.spawn("bots", "bots")
    try:
        yield
    finally:
        process.terminate()
        process.wait(10)


async def test_quick_play_through_a_hand(cluster: Cluster, browser: Browser) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Quinn")
            await page.get_by_role("button", name="Quick play").click()
            await page.wait_for_url("**/#/table/*")
            me = page.locator(".seat.me")
            await me.wait_for()
            assert "Quinn" in await me.inner_text()
            await expect(page.locator(".seat:not(.me) .bot-badge")).to_have_count(2)
            # The two bots read apart: each has a name of its own, its level on its badge.
            names = await page.locator(".seat:not(.me):not(.empty) .seat-name").all_inner_texts()
            assert len(set(names)) == 2, names
            cut = await page.locator(".seat .seat-name").evaluate_all(
                "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.title)"
            )
            assert not cut, f"names cut short: {cut}"
            # Alone with bots: no invite link, the host's tools folded away.
            await expect(page.locator("#invite-link")).to_have_count(0)
            assert not await page.locator("details.host-menu").evaluate("menu => menu.open")
            await expect(page.locator(".side-panel .facts")).to_contain_text("30 s a decision")
            start = money(await me.locator(".seat-stack").inner_text())
            # The game is dealt at once: the fingerprint of its seed shows from the start.
            await page.locator(".fair-pill").wait_for()

            async def hand_one_settled() -> bool:
                return await last_hand(page) >= 1

            await play_until([page], hand_one_settled, within=90)
            change = money(await page.locator(".last-hand .my-change strong").inner_text())
            headline = await page.locator(".last-hand p").first.inner_text()
            assert headline.strip()
            # Settlement: the stack moved by exactly the hand's change, unless a new hand's ante
            # has already been taken.
            stack = money(await me.locator(".seat-stack").inner_text())
            ante = await me.locator(".tag.ante").all_inner_texts()
            paid = money(ante[0].removeprefix("Ante ")) if ante else 0
            assert stack == start + change - paid, (start, change, paid, stack)
            log = await page.locator(".hand-log").inner_text()
            assert "Hand 1 dealt" in log and "Hand 1:" in log
            # Back in the lobby: the seat is remembered, and the ledger's balance, recent hands and
            # leaderboard come through the gateway.
            await page.get_by_role("link", name="Lobby", exact=True).click()
            await expect(page.get_by_role("link", name="Return to your table")).to_be_visible()
            await expect(page.locator(".balance strong")).to_have_text(re.compile(r"^[\d,]+¢$"))
            await expect(page.locator(".transfers li").first).to_be_visible(timeout=20_000)
            await expect(page.locator(".leaders li").first).to_be_visible(timeout=20_000)
            await page.get_by_role("link", name="Return to your table").click()
            await me.wait_for()
            await decide(page)
            errors.check()
