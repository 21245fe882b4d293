"""A player who looks away: the log says the table decided when time ran out, the away banner
says what happens now, and "I'm back" ends it."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import VIEWPORTS, browsing, seated_page
from tests.services.cluster import Cluster

# Each header link and table head item whose middle lies under the away banner.
COVERED_BY_BANNER = """() => {
  const banner = document.querySelector('.away-banner');
  return [...document.querySelectorAll('header.top a, header.top button, .table-head > *')]
    .filter((e) => e.getClientRects().length)
    .filter((e) => {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit && banner.contains(hit);
    })
    .map((e) => e.textContent.trim());
}"""


async def test_time_running_out_is_logged_and_an_away_player_can_come_back(
    cluster: Cluster, browser: Browser, size: str
) -> None:
    seated = seated_page(
        cluster.base, browsing(browser, VIEWPORTS[size]), ["Oda", "Pim"], "Quin", timer_seconds=10
    )
    async with seated as (table, players, page, errors, seats):
        seat = int(await page.locator(".seat.me").get_attribute("data-seat") or "-1")

        # This player never acts: the table decides for them when the time runs out, and says
        # so. Two in a row make them away.
        log = page.locator(".hand-log")
        await expect(log).to_contain_text("Time ran out: you", timeout=60_000)
        assert "(the default)" in await log.inner_text()
        banner = page.locator(".away-banner")
        await expect(banner).to_be_visible(timeout=60_000)
        await expect(banner).to_contain_text("You are away")
        # It takes a row of its own: the site's links and the table's head stay uncovered.
        covered = await page.evaluate(COVERED_BY_BANNER)
        assert not covered, f"the away banner covers {covered}"
        assert players[0].views[table]["seats"][seat]["away"]
        # The two others cannot deal without a third: the set-up round re-opens every few
        # seconds while this player is away, and the log says each thing once.
        seq = players[0].views[table]["seq"]
        await players[0].until(table, lambda view: view["seq"] >= seq + 6, 30)
        entries = await log.locator("li").all_inner_texts()
        assert len(entries) == len(set(entries)), entries

        # "I'm back": the banner goes, and the others see the seat present again.
        await banner.get_by_role("button", name="I'm back").click()
        await expect(banner).to_be_hidden()
        await players[0].until(table, lambda view: not view["seats"][seat]["away"], 10)
        await seats.stop()
        errors.check()
