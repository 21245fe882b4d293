"""Helpers for the browser tests: pages, the player's decisions through the UI, Python players
that play the other seats, screenshots and the accessibility check."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import secrets
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Locator, Page, expect

from tests.services.client import Player
from tests.services.play import act, open_table

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
AXE = next((Path(__file__).parent / "vendor").glob("axe-core-4.*.min.js"))
DESKTOP = {"width": 1280, "height": 800}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

# Keeps a handle on every WebSocket the page opens, so a test can cut one like a network would.
SOCKET_HOOK = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
  };
})();
"""


class PageErrors:
    """JavaScript errors a page raised, and anything its Content Security Policy refused; a
    test fails if there were any."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def attach(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def check(self) -> None:
        assert not self.errors, f"JavaScript errors: {self.errors}"


async def new_context(
    browser: Browser,
    viewport: dict[str, int] | None = None,
    *,
    reduced_motion: Literal["reduce", "no-preference"] | None = None,
    scripts: Sequence[str] = (),
) -> BrowserContext:
    """A browser context whose pages keep a handle on their sockets and run ``scripts`` first,
    emulating ``reduced_motion`` when it is given."""
    context = await browser.new_context(
        viewport=viewport or DESKTOP,  # type: ignore[arg-type]
        reduced_motion=reduced_motion,
    )
    await context.add_init_script(SOCKET_HOOK)
    for script in scripts:
        await context.add_init_script(script)
    context.set_default_timeout(15_000)
    return context


@contextlib.asynccontextmanager
async def browsing(
    browser: Browser,
    viewport: dict[str, int] | None = None,
    *,
    errors: PageErrors | None = None,
    **options: Any,
) -> AsyncIterator[tuple[BrowserContext, Page, PageErrors]]:
    """A fresh browser context (``new_context``'s options) and a first page in it whose errors
    are kept (in ``errors``, when given: shared with other pages), closed after."""
    context = await new_context(browser, viewport, **options)
    page = await context.new_page()
    errors = PageErrors() if errors is None else errors
    errors.attach(page)
    try:
        yield context, page, errors
    finally:
        await context.close()


@contextlib.asynccontextmanager
async def browsing_each(
    browser: Browser, *viewports: dict[str, int]
) -> AsyncIterator[tuple[list[Page], PageErrors]]:
    """``browsing`` at each of ``viewports``, a browser of its own each: their pages (in that
    order), and the errors of them all, kept together."""
    errors = PageErrors()
    async with contextlib.AsyncExitStack() as stack:
        pages = [
            (await stack.enter_async_context(browsing(browser, viewport, errors=errors)))[1]
            for viewport in viewports
        ]
        yield pages, errors


async def sign_up(page: Page, base: str, name: str, path: str = "/") -> dict[str, str]:
    """Open the site and pick a name (typing it, then Enter): the session the page keeps."""
    await page.goto(base + path)
    await page.fill("#name-input", name)
    await page.press("#name-input", "Enter")
    await page.wait_for_selector("#name-input", state="detached")
    return await token_of(page)


async def signed_in_as(page: Page, base: str, player: Player, path: str) -> None:
    """Open ``path`` signed in as ``player`` (a Python player's session kept by the page)."""
    await page.goto(base + "/")
    session = {"id": player.id, "name": player.name, "token": player.token}
    await page.evaluate("s => localStorage.setItem('swick.session', s)", json.dumps(session))
    await page.goto(base + path)
    await page.reload()  # a new hash alone would not load the page again


async def token_of(page: Page) -> dict[str, str]:
    session: dict[str, str] = json.loads(
        await page.evaluate("localStorage.getItem('swick.session')")
    )
    return session


async def status_of(base: str, token: str) -> int:
    """What the gateway answers ``GET /api/me`` with ``token``: 200, or 401 once signed out."""
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.get("/api/me", headers={"authorization": f"Bearer {token}"})
        return reply.status_code


async def seated_balance(base: str, token: str) -> tuple[str, int]:
    """Open a private table (its host sits in it, which opens the wallet with the starting
    grant): the table and the balance the ledger then answers."""
    headers = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers) as http:
        reply = await http.post(
            "/api/tables", json={"seats": 3, "timer_seconds": 30, "private": True}
        )
        assert reply.status_code == 200, reply.text
        table: str = reply.json()["id"]
        for _ in range(200):  # the table worker seats the host, then the ledger opens the wallet
            balance = (await http.get("/api/me/balance")).json()["balance"]
            if balance is not None:
                assert isinstance(balance, int)
                return table, balance
            await asyncio.sleep(0.05)
    raise AssertionError("the host's wallet never opened")


async def balance_of(base: str, token: str) -> Any:
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.get("/api/me/balance", headers={"authorization": f"Bearer {token}"})
        return reply.json()["balance"]


async def open_account(page: Page) -> None:
    """From the lobby, the header's name opens the account page."""
    await page.locator("header.top a.me").click()
    await expect(page).to_have_url(re.compile("#/account$"))
    await expect(page.get_by_role("heading", name="Your account", exact=True)).to_be_visible()
    await page.locator(".handle").wait_for()


async def decision(page: Page) -> str | None:
    """The kind of the decision the page offers its player now, if any."""
    found = page.locator(".my-area [data-decision]")
    if not await found.count():
        return None
    with contextlib.suppress(Exception):
        return await found.first.get_attribute("data-decision", timeout=500)
    return None


async def decide(
    page: Page, *, discard_one: bool = False, leave: Collection[str] = ()
) -> str | None:
    """Take the page's pending decision with the mouse, as a careful player would; one of the
    kinds in ``leave`` is only reported, not taken."""
    kind = await decision(page)
    if kind is None or kind in leave:
        return kind
    bar = page.locator(".my-area [data-decision]")
    try:
        if kind == "ante":
            await bar.locator("button", has_text="Ante").first.click()
        elif kind == "ready":
            await bar.get_by_role("button", name="Ready", exact=True).click()
        elif kind == "next_hand":
            await bar.get_by_role("button", name="Next hand", exact=True).click()
        elif kind == "trump":
            await bar.get_by_role("button", name="Leave it").click()
        elif kind == "knock":
            await bar.get_by_role("button", name="Knock", exact=True).click()
        elif kind == "face_trump":
            await bar.get_by_role("button", name="Play", exact=True).click()
        elif kind == "draw":
            legal = page.locator(".hand-card.legal")
            if discard_one and await legal.count():
                await legal.first.click()
                await bar.get_by_role("button", name=re.compile(r"^Discard 1 & draw 1$")).click()
            else:
                await bar.get_by_role("button", name="Keep all").click()
        elif kind in ("play", "discard"):
            card = page.locator(".hand-card.legal").first
            code = await card.get_attribute("data-card")
            await card.click()  # lift it...
            await page.locator(f".hand-card.lifted[data-card='{code}']").wait_for()
            await card.click()  # ...and play it
    except Exception:
        return None  # the view moved on under the click (a timeout decided, another update)
    return kind


async def last_hand(page: Page) -> int:
    """The number of the last hand whose result the page shows (0 if none)."""
    title = page.locator("#last-title")
    if not await title.count():
        return 0
    text = await title.inner_text()
    match = re.search(r"\((\d+)\)", text)
    return int(match.group(1)) if match else 0


async def play_until(
    pages: Sequence[Page],
    done: Callable[[], Any],
    within: float = 60.0,
    **options: Any,
) -> None:
    """Every page takes its decisions with the mouse until ``await done()`` is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not await done():
        assert loop.time() < deadline, "the hand did not finish in time"
        acted = False
        for page in pages:
            acted = bool(await decide(page, **options)) or acted
        await asyncio.sleep(0.15 if acted else 0.1)


async def no_overflow(page: Page) -> None:
    """No sideways scroll once the cards have settled (a deal slides them in for 400 ms at
    most); when there is, the elements that stick out say which."""
    for _ in range(10):
        width = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if width <= 0:
            return
        await asyncio.sleep(0.2)
    wide = await page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
          .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' +
            Math.round(e.getBoundingClientRect().right))"""
    )
    raise AssertionError(f"the page is {width}px wider than the screen: {wide}")


async def quick_play(page: Page, game: str) -> None:
    """Pick ``game`` (by the name the lobby's game picker shows), press Quick play and go to
    the table it opens; the test is skipped if the gateway refuses quick play at that game."""
    await page.locator(".game-picker").get_by_text(game, exact=True).click()
    async with page.expect_response("**/api/quickplay") as answer:
        await page.get_by_role("button", name=re.compile("Quick play")).click()
    reply = await answer.value
    if reply.status in (404, 422):
        pytest.skip(f"the gateway refuses quick play at {game}: {await reply.text()}")
    await page.wait_for_url("**/#/table/*")


async def check_brightness(page: Page, hand: str, reason: str) -> None:
    """On your turn to play, the playable cards of ``hand`` (the deciding hand's selector) are
    bright and the others dimmed, their tip saying ``reason``."""
    cards: list[list[str]] = await page.locator(f"{hand}.deciding .hand-card").evaluate_all(
        """cards => cards.map(c => [c.className, getComputedStyle(c.querySelector('.card')).filter,
            c.getAttribute('aria-disabled') || '', c.title])"""
    )
    assert cards
    for classes, shown, disabled, title in cards:
        if "illegal" in classes:
            assert "brightness" in shown, (classes, shown)
            assert disabled == "true"
            assert reason in title, title
        else:
            assert " legal" in f" {classes}", classes
            assert "brightness" not in shown, (classes, shown)


async def keyboard_card(page: Page, hand: str) -> None:
    """Arrow along ``hand`` (the hand's selector) to a bright card, then Enter lifts it and Enter
    plays it."""
    await page.locator(f"{hand} .hand-card[tabindex='0']").focus()
    for _ in range(await page.locator(f"{hand} .hand-card").count()):
        classes = await page.evaluate("document.activeElement.className")
        if " legal" in f" {classes}":
            break
        await page.keyboard.press("ArrowRight")
    code = await page.evaluate("document.activeElement.dataset.card")
    await page.keyboard.press("Enter")
    await page.locator(f"{hand} .hand-card.lifted[data-card='{code}']").wait_for(timeout=3000)
    await page.keyboard.press("Enter")


async def check_seed(over: Locator, fingerprint: str) -> None:
    """The game-over panel shows the game's seed, whose hash is the fingerprint shown before."""
    seed = await over.locator("code.seed").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", seed), seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() in fingerprint


async def verify_from(page: Page, over: Locator, table: str | None = None) -> None:
    """The game-over panel's link opens the verify page (game 1 of ``table``, when given),
    which finds every card as dealt."""
    await over.get_by_role("link", name="Verify this game").click()
    if table is not None:
        await expect(page).to_have_url(re.compile(f"#/verify/{table}/1"))
    await expect(page.locator(".verdict")).to_contain_text(
        "Verified: every card checks out", timeout=20_000
    )


def money(text: str) -> int:
    """ "−1,234¢" or "+5¢" as cents."""
    clean = text.replace("−", "-").replace(",", "").replace("¢", "").replace("±", "").strip()
    return int(clean)


async def shoot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


# The WCAG 2.2 success criteria, levels A and AA, as axe-core tags them.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


async def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every WCAG 2.2 A/AA violation axe-core finds on the page at rest, whatever its impact.

    A card flying in or a trick being gathered fades on its way, so its name is faint for a
    moment: the check asks the page for reduced motion and cancels any animation under way
    (as the page does when the next view comes), so that axe sees what stays on the screen,
    not a frame of the motion."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the test driver, not as a script tag: the page's Content Security
        # Policy refuses inline script, as it should.
        await page.evaluate(AXE.read_text() + "\n;true")
    reduced = await page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    await page.emulate_media(reduced_motion="reduce")
    try:
        result: dict[str, Any] = await page.evaluate(
            "tags => { document.getAnimations().forEach(a => a.cancel());"
            " return axe.run(document, { runOnly: { type: 'tag', values: tags },"
            " resultTypes: ['violations'] }); }",
            WCAG_AA,
        )
    finally:
        await page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
    ]


# Python players for the other seats.


def patient_choice(view: dict[str, Any]) -> dict[str, Any]:
    """A plain, legal choice: ready, knock, keep the cards, the first playable card."""
    options = [o["action"] for o in view["options"] if o["legal"]]
    for kind in ("ready", "ante"):
        picked = [a for a in options if a["kind"] == kind]
        if picked:
            return {**picked[0], "entropy": secrets.token_hex(4)}
    for wanted in (
        {"kind": "knock", "knock": True},
        {"kind": "trump", "keep": False},
        {"kind": "draw", "discards": []},
        {"kind": "face_trump", "play": True},
    ):
        if any(a == wanted for a in options):
            return wanted
    first: dict[str, Any] = options[0]
    return first


def newer_than(seq: int) -> Callable[[dict[str, Any]], bool]:
    return lambda view: bool(view["seq"] > seq)


class Seats:
    """Python players who act on their turns in the background, until paused or stopped."""

    def __init__(self, players: Sequence[Player], table: str) -> None:
        self.players = list(players)
        self.table = table
        self.running = asyncio.Event()
        self.running.set()
        self.stopping = False
        self.task: asyncio.Task[None] | None = None

    async def _loop(self) -> None:
        while not self.stopping:
            await self.running.wait()
            acted = False
            for player in self.players:
                if not self.running.is_set() or not player.my_turn(self.table):
                    continue
                view = player.views[self.table]
                answer = await act(player, self.table, self.choose(view))
                acted = True
                if answer["type"] == "ack":
                    with contextlib.suppress(TimeoutError):
                        await player.until(self.table, newer_than(view["seq"]), 5)
            await asyncio.sleep(0.02 if acted else 0.05)

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """What a player does on its turn; subclasses play differently."""
        return patient_choice(view)

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    def pause(self) -> None:
        self.running.clear()

    def resume(self) -> None:
        self.running.set()

    async def stop(self) -> None:
        if self.task is not None:
            # The flag ends the loop should the cancellation be lost: asyncio.wait_for (in a
            # player's wait) can drop one that comes just as its wait ends.
            self.stopping = True
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        for player in self.players:
            await player.close()


@contextlib.asynccontextmanager
async def python_table(
    base: str, names: Sequence[str], **settings: Any
) -> AsyncIterator[tuple[str, list[Player]]]:
    """A table opened by Python players (the first is the host), with a seat left for a browser."""
    players = [Player(base, name) for name in names]
    for player in players:
        await player.sign_up()
        await player.connect()
    table = await open_table(players, seats=len(players) + 1, **settings)
    try:
        yield table, players
    finally:
        for player in players:
            await player.close()


async def start_game(host: Player, table: str) -> None:
    answer = await act(host, table, {"kind": "start_game"})
    assert answer["type"] == "ack", answer


async def sit_in(
    page: Page, base: str, name: str, table: str, players: Sequence[Player], *, deal: bool = True
) -> Seats:
    """The page's player, named ``name``, takes the seat left at ``python_table``'s table by its
    invite link; the Python players start on their seats and the host deals (unless not
    ``deal``: the test starts the game itself)."""
    await sign_up(page, base, name, f"/#/table/{table}/join")
    await page.locator(".seat.me").wait_for()
    seats = Seats(players, table)
    seats.start()
    if deal:
        await start_game(players[0], table)
    return seats


@contextlib.asynccontextmanager
async def seated_page(
    base: str,
    browsing_page: contextlib.AbstractAsyncContextManager[tuple[BrowserContext, Page, PageErrors]],
    names: Sequence[str],
    name: str,
    *,
    deal: bool = True,
    **settings: Any,
) -> AsyncIterator[tuple[str, list[Player], Page, PageErrors, Seats]]:
    """``python_table``'s table (``settings``) with the page of ``browsing_page`` (``browsing``
    or one like it) sat in its free seat as ``name`` by ``sit_in``: the table, its Python
    players, the page, its errors and the players' seats."""
    async with (
        python_table(base, names, **settings) as (table, players),
        browsing_page as (_, page, errors),
    ):
        seats = await sit_in(page, base, name, table, players, deal=deal)
        yield table, players, page, errors, seats


async def hold_still(page: Page, seats: Seats, table: str) -> int:
    """Pause the Python players and take the page's decisions until the table waits for someone
    else: nothing moves then (an away seat's turn would be decided for it after a short grace).
    The page's seat."""
    seats.pause()
    seat = int(await page.locator(".seat.me").get_attribute("data-seat") or -1)
    for _ in range(20):
        await page.wait_for_timeout(300)
        if seat not in seats.players[0].views[table]["to_act"]:
            break
        await decide(page)
    return seat


async def drop_connection(page: Page) -> None:
    """The page's socket is cut as a network would: the banner says so, and is gone once the
    client is back by itself."""
    await page.evaluate("window.__sockets.at(-1).close()")
    banner = page.locator(".banner")
    await expect(banner).to_contain_text("Connection lost")
    await expect(banner).to_be_hidden(timeout=15_000)
