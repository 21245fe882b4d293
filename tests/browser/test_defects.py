"""Web client defects found in review, each kept as the test that reproduced it: escaped text on
the verify page, a failing balance request for a new player, overlapping connection notices and
the misaligned own row of a hand's result."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, ConsoleMessage, Page, Response, expect

from tests.browser.support import (
    PageErrors,
    browsing,
    decide,
    decision,
    last_hand,
    new_context,
    play_until,
    python_table,
    seated_page,
    sign_up,
    sit_in,
    token_of,
)
from tests.browser.test_verify import finished_game
from tests.services.cluster import Cluster


async def test_the_verify_page_shows_no_escaped_markup(cluster: Cluster, browser: Browser) -> None:
    table, record, _ = await finished_game(cluster.base)
    async with browsing(browser) as (_, page, errors):
        await page.goto(f"{cluster.base}/#/verify/{table}/1")
        await expect(page.locator(".verdict")).to_contain_text("Verified: every card checks out")
        rows = page.locator(".verify-table tbody tr")
        await expect(rows).to_have_count(len(record["hands"]))

        text = await page.locator("main").inner_text()
        assert "&lt;" not in text and "&gt;" not in text, text
        await expect(page.locator(".paste .hint code")).to_have_text(
            "/api/tables/<table>/games/<n>/record"
        )
        # The hands are a table: a table box, its rows table rows, its cells side by side.
        assert await page.locator(".verify-table").evaluate("t => getComputedStyle(t).display") == (
            "table"
        )
        displays = await rows.evaluate_all("rows => rows.map(r => getComputedStyle(r).display)")
        assert set(displays) == {"table-row"}, displays
        cells = rows.first.locator("th, td")
        await expect(cells).to_have_count(6)
        lefts = [(await cells.nth(k).bounding_box() or {"x": 0.0})["x"] for k in range(6)]
        assert lefts == sorted(lefts) and len(set(lefts)) == 6, lefts
        errors.check()


async def test_a_new_players_first_page_has_no_failed_request(
    cluster: Cluster, browser: Browser
) -> None:
    context = await new_context(browser)
    page = await context.new_page()
    failed: list[str] = []
    console: list[str] = []

    def answered(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    def logged(message: ConsoleMessage) -> None:
        if message.type == "error":
            console.append(message.text)

    page.on("response", answered)
    page.on("console", logged)
    await sign_up(page, cluster.base, "Newcomer")
    chips = page.get_by_role("region", name="Your chips")
    await expect(chips).to_contain_text("welcome chips", timeout=15_000)
    await expect(chips).to_contain_text("No hands played yet")
    await expect(page.get_by_role("region", name="Open tables")).to_be_visible()
    session = await token_of(page)
    reply = await page.request.get(
        f"{cluster.base}/api/me/balance", headers={"authorization": f"Bearer {session['token']}"}
    )
    assert reply.status == 200
    answer = await reply.json()
    assert answer["player_id"] == session["id"] and answer["balance"] is None, answer
    assert answer["starting_grant"] > 0, answer
    await expect(chips).to_contain_text(f"{answer['starting_grant']:,}¢ of welcome chips")
    # A reload, as a returning visitor's page load.
    await page.reload()
    await expect(chips).to_contain_text("welcome chips", timeout=15_000)
    await page.wait_for_load_state("networkidle")
    assert failed == [], failed
    assert console == [], console
    await context.close()


# While window.__refuse is set, the page's sockets go to a path with no socket behind it: the
# gateway as if it were away, refusing every reconnect until the test lets it back.
REFUSE_HOOK = """
(() => {
  const Native = window.WebSocket;
  window.__refuse = false;
  window.WebSocket = class extends Native {
    constructor(url, ...rest) {
      super(window.__refuse ? String(url).replace('/ws?', '/no-socket-here?') : url, ...rest);
    }
  };
})();
"""

# Everything that tells the player about the connection, and the toasts that could cover it.
NOTICES = ".banner, .toast"


async def visible_notices(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await page.locator(NOTICES).evaluate_all(
        """els => els
          .filter(e => e.checkVisibility())
          .map(e => {
            const { left, top, right, bottom } = e.getBoundingClientRect();
            return { text: e.innerText, left, top, right, bottom };
          })"""
    )
    return found


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


async def settle(page: Page) -> None:
    """Let the page finish what a click set off: its promises, then two frames."""
    await page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>"
        " setTimeout(done, 0))))"
    )


async def test_one_connection_notice_at_a_time(cluster: Cluster, browser: Browser) -> None:
    async with python_table(cluster.base, ["Hal", "Ivy"]) as (table, players):
        context = await new_context(browser)
        await context.add_init_script(REFUSE_HOOK)
        page = await context.new_page()
        errors = PageErrors()
        errors.attach(page)
        seats = await sit_in(page, cluster.base, "Pat", table, players)
        await page.locator(".my-area [data-decision]").wait_for(timeout=30_000)

        # The gateway goes away: the socket drops and every reconnect is refused.
        await page.evaluate("window.__refuse = true; window.__sockets.at(-1).close()")
        await expect(page.locator(".banner")).to_contain_text("Connection lost")
        # The player tries to move while it is gone.
        kind = await decision(page)
        assert kind is not None
        assert await decide(page) == kind
        await settle(page)
        shown = await visible_notices(page)
        assert len(shown) == 1, shown
        assert "Connection lost" in shown[0]["text"], shown
        # Two more refused attempts later, still the one banner.
        for _ in range(150):
            if await page.evaluate("window.__sockets.length") >= 3:
                break
            await page.wait_for_timeout(100)
        assert await page.evaluate("window.__sockets.length") >= 3
        shown = await visible_notices(page)
        assert len(shown) == 1 and "Connection lost" in shown[0]["text"], shown

        # The gateway is back: the banner goes, and nothing is left covering anything.
        await page.evaluate("window.__refuse = false")
        await expect(page.locator(".banner")).to_be_hidden(timeout=15_000)
        shown = await visible_notices(page)
        assert not any(overlap(a, b) for a in shown for b in shown if a is not b), shown
        await seats.stop()
        errors.check()
        await context.close()


async def at_least_one_hand(page: Page) -> bool:
    return (await last_hand(page)) >= 1


async def test_my_row_of_a_hand_result_lines_up_with_the_header(
    cluster: Cluster, browser: Browser
) -> None:
    seated = seated_page(cluster.base, browsing(browser), ["Kit", "Lou"], "Mo")
    async with seated as (_, _, page, errors, seats):
        await play_until([page], lambda: at_least_one_hand(page), within=90)
        seats.pause()

        result = page.locator(".result-panel .deltas")
        await expect(result).to_be_visible(timeout=15_000)
        mine = result.locator("tbody tr.me")
        await expect(mine).to_have_count(1)
        assert await mine.evaluate("r => getComputedStyle(r).display") == "table-row"
        # Every row's cells against the header's, measured in one frame: the panel may still
        # be moving in, and all of it moves together.
        boxes = await result.evaluate(
            """table => [...table.querySelectorAll('tr')].map(row => ({
                me: row.classList.contains('me'),
                cells: [...row.querySelectorAll('th, td')].map(cell => {
                    const box = cell.getBoundingClientRect();
                    return [Math.round(box.left), Math.round(box.width)];
                }),
            }))"""
        )
        head, rows = boxes[0]["cells"], boxes[1:]
        assert [row["cells"] for row in rows if row["me"]] == [head]
        assert all(row["cells"] == head for row in rows), (head, rows)
        await seats.stop()
        errors.check()
