"""Card art and table motion: every card face is drawn (the suit pips in their printed places, a
big ace, a portrait on each court card) and stays readable small; the deal, the play, the trick
going to its winner and the chips move, each in 400 ms at most, and nothing moves for someone
who asks for reduced motion."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, BrowserContext, Page

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SOCKET_HOOK,
    PageErrors,
    Seats,
    axe_violations,
    decide,
    decision,
    new_context,
    python_table,
    shoot,
    sign_up,
    start_game,
)
from tests.services.cluster import Cluster

# Every animation the page starts through the Web Animations API, as it starts.
RECORDER = """
(() => {
  window.__motion = [];
  const native = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const animation = native.call(this, frames, options);
    const timing = animation.effect.getTiming();
    window.__motion.push({
      what: String(this.getAttribute('class') || ''),
      duration: Number(timing.duration),
      delay: Number(timing.delay),
    });
    return animation;
  };
})();
"""

RUNNING = """() => document.getAnimations().map(a => {
    const t = a.effect.getTiming();
    const target = a.effect.target;
    return { name: a.animationName || a.transitionProperty || target.getAttribute('class'),
             duration: Number(t.duration) };
})"""

GALLERY = """async () => {
    const { html, render } = await import('/vendor/htm-preact-3.1.1.module.js');
    const { ShownCard } = await import('/js/ui.js');
    const { CODES } = await import('/js/cards.js');
    const box = document.createElement('section');
    box.id = 'gallery';
    box.setAttribute('aria-label', 'All the cards');
    box.style.cssText = 'position:fixed;inset:0;z-index:100;overflow:auto;padding:12px;'
        + 'background:#0b3d2a;display:flex;flex-wrap:wrap;gap:8px;align-content:flex-start';
    document.body.appendChild(box);
    render(html`${CODES.map(code => html`<${ShownCard} code=${code} size="lg" />`)}
        ${CODES.map(code => html`<${ShownCard} code=${code} size="sm" />`)}
        ${CODES.map(code => html`<${ShownCard} code=${code} size="xs" />`)}`, box);
    await new Promise(r => requestAnimationFrame(r));
    return [...box.querySelectorAll('.shown-card')].slice(0, 32).map(shown => {
        const card = shown.querySelector('.card');
        const corner = card.querySelector('.corner.tl');
        return {
            code: card.getAttribute('data-code'),
            label: shown.getAttribute('aria-label'),
            role: shown.getAttribute('role'),
            pips: card.querySelectorAll('.card-art.pips .pip').length,
            court: card.querySelectorAll('svg.court-art').length,
            ace: card.querySelectorAll('svg.ace').length,
            corner: corner.querySelector('.rank').textContent,
            cornerSuit: corner.querySelectorAll('svg.suit').length,
        };
    });
}"""


async def test_card_faces_are_drawn_with_pips_aces_and_court_portraits(
    cluster: Cluster, browser: Browser
) -> None:
    context = await new_context(browser)
    page = await context.new_page()
    errors = PageErrors()
    errors.attach(page)
    await sign_up(page, cluster.base, "Art")
    cards: list[dict[str, Any]] = await page.evaluate(GALLERY)
    assert len(cards) == 32
    by_code = {card["code"]: card for card in cards}
    for suit in "CDHS":
        for rank, pips in (("7", 7), ("8", 8), ("9", 9), ("10", 10)):
            assert by_code[rank + suit]["pips"] == pips, by_code[rank + suit]
        assert by_code["A" + suit]["ace"] == 1 and by_code["A" + suit]["pips"] == 1
        for court in "JQK":
            assert by_code[court + suit]["court"] == 1, by_code[court + suit]
            assert by_code[court + suit]["pips"] == 0
    for card in cards:
        # The index in the corner, and the card's name for screen readers.
        assert card["corner"] == card["code"][:-1] and card["cornerSuit"] == 1
        assert card["role"] == "img" and " of " in card["label"]
    assert by_code["QH"]["label"] == "queen of hearts"
    # Small cards keep their corner index in view, a good size to read.
    size = await page.locator("#gallery .card.sm .corner.tl .rank").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 10
    await shoot(page, "card-faces-desktop")
    assert not await axe_violations(page)
    errors.check()
    await context.close()


async def recording_context(browser: Browser, reduce: bool = False) -> BrowserContext:
    context = await browser.new_context(
        viewport=DESKTOP,  # type: ignore[arg-type]
        reduced_motion="reduce" if reduce else "no-preference",
    )
    await context.add_init_script(SOCKET_HOOK)
    await context.add_init_script(RECORDER)
    context.set_default_timeout(15_000)
    return context


async def motion(page: Page) -> list[dict[str, Any]]:
    recorded: list[dict[str, Any]] = await page.evaluate("window.__motion")
    return recorded


async def test_the_deal_the_play_the_trick_and_the_chips_move_quickly(
    cluster: Cluster, browser: Browser
) -> None:
    async with python_table(cluster.base, ["Ava", "Bo"]) as (table, players):
        context = await recording_context(browser)
        page = await context.new_page()
        errors = PageErrors()
        errors.attach(page)
        await sign_up(page, cluster.base, "Cy", f"/#/table/{table}/join")
        await page.locator(".seat.me").wait_for()
        seats = Seats(players, table)
        seats.start()
        await start_game(players[0], table)

        # Play until this player has played cards and a trick has gone to its winner; right
        # after each card, it flies to the trick, and every animation started is 400 ms at most.
        played = 0
        shot = False
        for _ in range(900):
            kinds = {entry["what"].split()[0] for entry in await motion(page) if entry["what"]}
            if played >= 2 and {"trick-card", "flying-chip"} <= kinds:
                break
            if not shot and await decision(page) == "play":
                await page.wait_for_timeout(800)
                await shoot(page, "hand-desktop")
                await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
                await page.wait_for_timeout(600)
                await shoot(page, "hand-phone")
                assert not await axe_violations(page)
                await page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
                shot = True
            code = None
            if await decision(page) == "play":
                code = await page.locator(".hand-card.legal").first.get_attribute("data-card")
                # Nobody plays after this card until it is checked: a next lead coming at once
                # would take the finished trick off the felt before it could be seen.
                seats.pause()
            started = len(await motion(page))
            kind = await decide(page)
            if kind == "play" and code:
                played += 1
                await page.locator(f".play-area .card[data-code='{code}']").wait_for()
                moved = (await motion(page))[started:]
                assert any(m["what"].startswith("shown-card") for m in moved), moved
                assert all(m["duration"] <= 400 for m in moved), moved
            seats.resume()
            await page.wait_for_timeout(60)
        recorded = await motion(page)
        kinds = {entry["what"].split()[0] for entry in recorded if entry["what"]}
        # The deal (the hand's cards), the play (a card to the trick), the trick to its winner,
        # chips to and from the pot.
        assert {"card", "shown-card", "trick-card", "flying-chip"} <= kinds, kinds
        assert all(0 < entry["duration"] <= 400 for entry in recorded), recorded
        # Decoration never held the game up: each card was played at once, by the mouse.
        assert played >= 2
        errors.check()
        await seats.stop()
        await context.close()


async def test_nothing_moves_with_reduced_motion(cluster: Cluster, browser: Browser) -> None:
    async with python_table(cluster.base, ["Dee", "Eli"]) as (table, players):
        context = await recording_context(browser, reduce=True)
        page = await context.new_page()
        errors = PageErrors()
        errors.attach(page)
        await sign_up(page, cluster.base, "Fox", f"/#/table/{table}/join")
        await page.locator(".seat.me").wait_for()
        seats = Seats(players, table)
        seats.start()
        await start_game(players[0], table)
        played = 0
        for _ in range(900):
            if played >= 3:
                break
            kind = await decide(page)
            running = await page.evaluate(RUNNING)
            assert all(item["duration"] == 0 for item in running), running
            if kind == "play":
                played += 1
            await page.wait_for_timeout(60)
        assert played >= 3
        assert await motion(page) == []
        assert await page.locator(".flying-chip").count() == 0
        errors.check()
        await seats.stop()
        await context.close()
