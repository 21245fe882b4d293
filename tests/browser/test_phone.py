"""The site on a phone, upright (360×740, 390×844) and on its side (844×390): no page is wider
than the screen, and at a six-seat table every decision's controls, and the hand above them, are
on screen and not covered while the turn timer runs; chat opens as a sheet. Screenshots of each
phase at each size go to ``artifacts/screenshots/``."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    Seats,
    axe_violations,
    browsing,
    decide,
    decision,
    patient_choice,
    python_table,
    shoot,
    sign_up,
    start_game,
)
from tests.services.cluster import Cluster

SIZES = {"360x740": SMALL_PHONE, "390x844": PHONE, "844x390": {"width": 844, "height": 390}}
WANTED = {"ante", "ready", "trump", "knock", "draw", "play"}
PLAYING = "390x844"  # the size the game is played at between the checks
LONG = 20_000  # ms: generous, for a slow machine

# Everything visible that sticks out of the screen sideways, and whether the page scrolls sideways.
OVERFLOW = """
() => {
  const width = window.innerWidth;
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth}px wide`);
  const describe = (el) => {
    const cls = typeof el.className === 'string' ? el.className.trim().replace(/\\s+/g, '.') : '';
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls ? '.' + cls : ''} "${text}"`;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.visually-hidden, [hidden], svg')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'contents') continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    // What an ancestor that clips or scrolls cuts off is not on show.
    let left = box.left;
    let right = box.right;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const clip = getComputedStyle(up).overflowX;
      if (clip !== 'visible') {
        const outer = up.getBoundingClientRect();
        left = Math.max(left, outer.left);
        right = Math.min(right, outer.right);
      }
    }
    if (right - left < 1) continue;
    if (left < -0.5 || right > width + 0.5) {
      found.push(`${describe(el)} spans ${Math.round(left)}..${Math.round(right)}`);
    }
  }
  return found.slice(0, 12);
}
"""

# The current decision's controls (its buttons, and the hand's cards): each must be inside the
# screen and be what a tap at its middle reaches. The hand sits above the decision bar (beside it
# on a phone on its side), never under it.
ON_SCREEN = """
() => {
  const width = window.innerWidth;
  const height = window.innerHeight;
  const bar = document.querySelector('.my-area [data-decision]');
  if (!bar) return { kind: null, problems: [] };
  const kind = bar.dataset.decision;
  const problems = [];
  const name = (el) => (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30);
  const reachable = (el, x, y, what) => {
    if (x < 0 || x > width || y < 0 || y > height) {
      problems.push(`${what} "${name(el)}" is off screen at ${Math.round(x)},${Math.round(y)}`);
      return;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const other = hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing';
      problems.push(`${what} "${name(el)}" is covered by ${other}`);
    }
  };
  const buttons = [...bar.querySelectorAll('button')];
  const outside = (box) =>
    box.left < -0.5 || box.right > width + 0.5 || box.top < -0.5 || box.bottom > height + 0.5;
  const at = (box) => [box.left, box.top, box.right, box.bottom].map(Math.round).join(',');
  for (const button of buttons) {
    const box = button.getBoundingClientRect();
    if (outside(box)) problems.push(`button "${name(button)}" is not wholly on screen: ${at(box)}`);
    reachable(button, box.left + box.width / 2, box.top + box.height / 2, 'button');
  }
  const cards = [...document.querySelectorAll('.my-area .hand .hand-card')];
  const upright = height > width;
  const barBox = bar.getBoundingClientRect();
  for (const [k, card] of cards.entries()) {
    const box = card.getBoundingClientRect();
    const next = cards[k + 1] ? cards[k + 1].getBoundingClientRect() : null;
    const right = next ? Math.min(box.right, next.left) : box.right;
    if (right - box.left < 12) problems.push(`card ${k + 1} shows only ${right - box.left}px`);
    if (outside(box)) problems.push(`card ${k + 1} is not wholly on screen: ${at(box)}`);
    // Upright, the hand sits above the decision bar; on its side, beside it: never under it.
    const under = box.bottom > barBox.top + 1;
    if (upright ? under : under && box.right > barBox.left + 1) {
      problems.push(`card ${k + 1} runs into the decision bar`);
    }
    reachable(card, (box.left + right) / 2, box.top + box.height / 2, 'card');
  }
  return { kind, buttons: buttons.map(name), problems };
}
"""


def cautious_choice(view: dict[str, Any]) -> dict[str, Any]:
    """Knock only as the dealer: most hands end with nobody set, so a hand the browser deals
    is a normal one, whose dealer sets the ante (after a set, the carry makes a free ride)."""
    options = [o["action"] for o in view["options"] if o["legal"]]
    dealer = view["dealer"] == view["seat"]
    for wanted in ({"kind": "knock", "knock": dealer}, {"kind": "knock", "knock": True}):
        if wanted in options:
            return wanted
    return patient_choice(view)


class CautiousSeats(Seats):
    """The Python players, knocking only when they deal."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        return cautious_choice(view)


async def deal_next(page: Page) -> bool:
    """Whether this browser's seat deals the next hand (the button moves one seat on)."""
    return bool(
        await page.evaluate(
            """() => {
              const seats = [...document.querySelectorAll('.seat[data-seat]')];
              const dealer = seats.find((s) => s.querySelector('.dealer-button'));
              const me = document.querySelector('.seat.me');
              if (!dealer || !me) return false;
              return (Number(dealer.dataset.seat) + 1) % seats.length === Number(me.dataset.seat);
            }"""
        )
    )


async def no_overflow(page: Page, where: str) -> None:
    await page.wait_for_timeout(200)  # a layout after a resize or an update
    found = await page.evaluate(OVERFLOW)
    assert not found, f"{where}: wider than the screen: {found}"


async def check_decision(page: Page, where: str) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(ON_SCREEN)
    assert not result["problems"], f"{where} ({result['kind']}): {result['problems']}"
    return result


async def pages_fit(page: Page, base: str, size: str) -> None:
    """The lobby, the rules and the verify page fit the screen."""
    await no_overflow(page, f"lobby at {size}")
    await shoot(page, f"phone-{size}-lobby")
    await page.goto(f"{base}/#/rules/exact")
    await expect(page.locator("main h2").first).to_be_visible()
    await no_overflow(page, f"rules at {size}")
    await shoot(page, f"phone-{size}-rules")
    await page.goto(f"{base}/#/verify")
    await page.locator("#record-input").wait_for()
    await no_overflow(page, f"verify at {size}")
    await shoot(page, f"phone-{size}-verify")


async def draw_with_a_mark(page: Page, where: str, shot: str | None) -> None:
    """Mark a card to discard, check Clear and the confirm button are on screen, then draw."""
    bar = page.locator(".my-area [data-decision='draw']")
    legal = page.locator(".my-area .hand-card.legal")
    if not await legal.count():
        await decide(page)
        return
    try:
        await legal.first.click(timeout=3000)
        await bar.get_by_role("button", name="Clear").wait_for(timeout=3000)
    except Exception:
        return  # the timer moved the hand on
    result = await check_decision(page, where)
    assert "Clear" in result["buttons"], result
    if shot:
        await shoot(page, shot)
    try:
        await bar.get_by_role("button", name=re.compile(r"^Discard 1 & draw 1$")).click(
            timeout=3000
        )
    except Exception:
        return


async def chat_sheet(page: Page, other: Any, table: str, size: str) -> None:
    """A message arrives: the Chat button counts it; the sheet opens with focus in it, and
    closes with Escape or its close button, focus going back to the button."""
    answer = await other.request({"type": "chat", "table": table, "text": "Nice hand!"})
    assert answer["type"] == "ack", answer
    opener = page.locator(".chat-opener")
    await expect(opener).to_be_visible()
    await expect(opener).to_contain_text("1", timeout=LONG)
    await opener.click()
    sheet = page.get_by_role("dialog", name="Chat")
    await expect(sheet).to_be_visible()
    await expect(sheet.locator(".chat-log")).to_contain_text("Nice hand!")
    await expect(page.locator("#chat-input")).to_be_focused()
    await expect(opener).not_to_contain_text("1")
    await no_overflow(page, f"chat sheet at {size}")
    await shoot(page, f"phone-{size}-chat")
    violations = await axe_violations(page)
    assert not violations, f"chat sheet at {size}: {violations}"
    await page.fill("#chat-input", "Thanks")
    await page.press("#chat-input", "Enter")
    await expect(sheet.locator(".chat-log")).to_contain_text("Thanks")
    await page.keyboard.press("Escape")
    await expect(sheet).to_be_hidden()
    await expect(opener).to_be_focused()
    await opener.click()
    await expect(sheet).to_be_visible()
    await sheet.get_by_role("button", name="Close the chat").click()
    await expect(sheet).to_be_hidden()
    await expect(opener).to_be_focused()


async def chat_on_desktop(page: Page) -> None:
    """At desktop size, chat stays a tab of the side panel and there is no Chat button."""
    await page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    await expect(page.locator(".chat-opener")).to_be_hidden()
    await page.get_by_role("tab", name=re.compile("Chat")).click()
    await expect(page.locator(".side-panel .chat-log")).to_contain_text("Thanks")
    await expect(page.get_by_role("dialog", name="Chat")).to_have_count(0)


async def at_every_size(page: Page, check: Any) -> None:
    """Run ``check(size)`` with the page at each phone size in turn (the layout follows the
    viewport at once: the table page listens to the media query)."""
    for size, viewport in SIZES.items():
        await page.set_viewport_size(viewport)  # type: ignore[arg-type]
        await expect(page.locator("main")).to_be_visible()
        await check(size)
    await page.set_viewport_size(SIZES[PLAYING])  # type: ignore[arg-type]


async def test_table_on_a_phone(cluster: Cluster, browser: Browser) -> None:
    """One game, every phone size at each of its phases: the page is resized in place."""
    names = ["Ava", "Bo", "Cy", "Di", "Ed"]
    async with (
        python_table(cluster.base, names) as (table, players),
        browsing(browser, SIZES[PLAYING]) as (_, page, errors),
    ):
        await sign_up(page, cluster.base, "Phil")
        await expect(page.locator(".lobby-table")).to_contain_text("Ava", timeout=LONG)

        async def fits(size: str) -> None:
            await pages_fit(page, cluster.base, size)
            await page.goto(f"{cluster.base}/#/")

        await at_every_size(page, fits)

        # Watching first, with the sixth seat empty (its "Sit here" button on the plate).
        await page.goto(f"{cluster.base}/#/table/{table}")
        await expect(page.locator(".seat.empty")).to_have_count(1, timeout=LONG)

        async def watching(size: str) -> None:
            await no_overflow(page, f"watching the table at {size}")
            await shoot(page, f"phone-{size}-watching")

        await at_every_size(page, watching)

        # Six seats, this browser in the last one: they all fit before and during the game.
        await page.locator(".my-area").get_by_role("button", name="Take a seat").click()
        await page.locator(".seat.me").wait_for()
        await expect(page.locator(".seat:not(.empty)")).to_have_count(6, timeout=LONG)

        async def seated(size: str) -> None:
            await no_overflow(page, f"the table at {size}")
            await shoot(page, f"phone-{size}-seated")

        await at_every_size(page, seated)

        seats = CautiousSeats(players, table)
        seats.start()
        await start_game(players[0], table)
        seen: set[str] = set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 600  # a bound for a stuck table, not a speed test
        try:
            while not WANTED.issubset(seen):
                if loop.time() > deadline:
                    head = await page.locator(".table-head").inner_text()
                    raise AssertionError(f"only {sorted(seen)} were reached: {head}")
                kind = await decision(page)
                if kind is None:
                    await asyncio.sleep(0.1)
                    continue
                if kind not in seen:
                    # The table waits for this player: check this decision at every size.
                    moved = False

                    async def checked(size: str, kind: str = kind) -> None:
                        nonlocal moved
                        where = f"{kind} at {size}"
                        result = await check_decision(page, where)
                        if result["kind"] != kind:
                            moved = True  # the view moved on: look at it again next time
                            return
                        if kind == "ante":
                            assert len(result["buttons"]) == 5, result
                        if kind == "trump":
                            assert {"Keep trump", "Leave it"} <= set(result["buttons"]), result
                        await no_overflow(page, where)
                        await shoot(page, f"phone-{size}-{kind}")
                        if kind == "play":
                            violations = await axe_violations(page)
                            assert not violations, f"the table at {size}: {violations}"

                    await at_every_size(page, checked)
                    if moved:
                        continue
                    seen.add(kind)
                where = f"{kind} at {PLAYING}"
                if kind == "draw":
                    await draw_with_a_mark(page, where, f"phone-{PLAYING}-draw")
                elif kind == "knock" and "ante" not in seen and await deal_next(page):
                    # Everyone passes: the dealer takes the pot, nobody is set, and the next
                    # hand, this browser's, is a normal one.
                    with contextlib.suppress(Exception):
                        await (
                            page.locator(".my-area [data-decision]")
                            .get_by_role("button", name="Pass", exact=True)
                            .click(timeout=3000)
                        )
                elif await decide(page) is None:
                    # A decision the helpers do not know: its first button.
                    with contextlib.suppress(Exception):
                        bar = page.locator(".my-area [data-decision] button:not([disabled])")
                        await bar.first.click(timeout=3000)
                await asyncio.sleep(0.15)
            seats.pause()

            async def chat(size: str) -> None:
                await chat_sheet(page, players[0], table, size)

            await at_every_size(page, chat)
            await chat_on_desktop(page)
        finally:
            await seats.stop()
        errors.check()
