"""Card art and table motion: every card face is drawn (the suit pips in their printed places, a
big ace, a portrait on each court card) and stays readable small; the deal, the play, the trick
going to its winner and the chips move, each in 400 ms at most, at every game's table (Swick,
Euchre, Contract Whist: the score moves too), and nothing moves for someone who asks for
reduced motion."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.browser.support import (
    DESKTOP,
    PHONE,
    PageErrors,
    axe_violations,
    browsing,
    decide,
    decision,
    quick_play,
    seated_page,
    shoot,
    sign_up,
)
from tests.browser.test_euchre_table import plaque_kind, take_decision
from tests.browser.test_quickplay import bots_running
from tests.browser.test_whist_table import take_decision as take_whist_decision
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
    async with browsing(browser) as (_, page, errors):
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


def recording(
    browser: Browser, reduce: bool = False
) -> contextlib.AbstractAsyncContextManager[tuple[BrowserContext, Page, PageErrors]]:
    """A desktop page that records every animation it starts, asking for reduced motion or
    for none."""
    return browsing(
        browser, reduced_motion="reduce" if reduce else "no-preference", scripts=[RECORDER]
    )


async def motion(page: Page) -> list[dict[str, Any]]:
    recorded: list[dict[str, Any]] = await page.evaluate("window.__motion")
    return recorded


async def test_the_deal_the_play_the_trick_and_the_chips_move_quickly(
    cluster: Cluster, browser: Browser
) -> None:
    seated = seated_page(cluster.base, recording(browser), ["Ava", "Bo"], "Cy")
    async with seated as (_, _, page, errors, seats):
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


async def test_nothing_moves_with_reduced_motion(cluster: Cluster, browser: Browser) -> None:
    seated = seated_page(cluster.base, recording(browser, reduce=True), ["Dee", "Eli"], "Fox")
    async with seated as (_, _, page, errors, seats):
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


async def quick_play_at(page: Page, base: str, name: str, game: str) -> None:
    """Sign up, pick `game` in the lobby and open a quick-play table with bots."""
    await sign_up(page, base, name)
    await quick_play(page, game)
    await page.locator(".eu-hand .hand-card").first.wait_for(timeout=20_000)


async def play_on(page: Page, game: str, seen: dict[str, int]) -> None:
    """Take the decision the plaque offers now, by the mouse, if there is one."""
    kind = await plaque_kind(page)
    with contextlib.suppress(AssertionError, PlaywrightTimeout):
        if kind == "next_hand":
            await page.locator(".plaque button.primary").first.click()
        elif game == "Euchre" and kind is not None:
            await take_decision(page, kind, False, seen)
        else:
            await take_whist_decision(page, kind, False, seen)


# What moves on the Euchre and Contract Whist tables: the deal ("card", the hand's cards), each
# card's flight from its player ("shown-card"), the trick gathered to its winner (the trick's
# items) and the score.
TABLE_MOTION = {
    "Euchre": {"card", "shown-card", "eu-played", "peg-score"},
    "Contract Whist": {"shown-card", "wh-played"},
}


@pytest.mark.parametrize("game", sorted(TABLE_MOTION))
async def test_euchre_and_whist_tables_move_as_swick_does(
    cluster: Cluster, browser: Browser, game: str
) -> None:
    with bots_running(cluster):
        async with recording(browser) as (_, page, errors):
            await quick_play_at(page, cluster.base, "Moe", game)
            wanted = TABLE_MOTION[game]
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 180
            while True:
                recorded = await motion(page)
                kinds = {entry["what"].split()[0] for entry in recorded if entry["what"]}
                if wanted <= kinds:
                    break
                assert loop.time() < deadline, (kinds, seen)
                await play_on(page, game, seen)
                await asyncio.sleep(0.1)
            assert all(0 < entry["duration"] <= 400 for entry in recorded), recorded
            # The trick rests where it was played before it goes: its gathering waits a while.
            gathered = [
                entry
                for entry in recorded
                if entry["what"].split()[0] in {"eu-played", "wh-played"}
            ]
            assert any(entry["delay"] >= 300 for entry in gathered), gathered
            # A card that flew landed in the trick: nothing is left running once it is done.
            await page.wait_for_timeout(1000)
            flights = await page.evaluate(
                "document.getAnimations()"
                ".filter(a => a.effect.target.matches('.shown-card')).length"
            )
            assert flights == 0
            errors.check()


@pytest.mark.parametrize("game", sorted(TABLE_MOTION))
async def test_euchre_and_whist_tables_keep_still_with_reduced_motion(
    cluster: Cluster, browser: Browser, game: str
) -> None:
    with bots_running(cluster):
        async with recording(browser, reduce=True) as (_, page, errors):
            await quick_play_at(page, cluster.base, "Ned", game)
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 120
            while seen.get("play", 0) < 3:
                assert loop.time() < deadline, seen
                await play_on(page, game, seen)
                running = await page.evaluate(RUNNING)
                assert all(item["duration"] == 0 for item in running), running
                await asyncio.sleep(0.1)
            assert await motion(page) == []
            errors.check()
