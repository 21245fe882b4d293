"""Signing out everywhere from the lobby's "Your sign-in": every other browser holding the
player's token is signed out (its socket closed with 4401, its token refused), while this one
stays the same player, with the same chips, on a fresh token its socket reconnects with.

A player has one socket at a time (the newer wins), so either browser holds it when this one
signs out everywhere: the other (its socket is closed with 4401 there and then), or this one
(the revocation closes this page's own socket with 4401 too; the test holds the answer with the
fresh token back until the page has seen that close, the worst order, and the page must not
sign out for it)."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Browser, Page, Request, Route, expect

from tests.browser.support import (
    DESKTOP,
    PHONE,
    axe_violations,
    browsing,
    browsing_each,
    seated_balance,
    sign_up,
    status_of,
    token_of,
)
from tests.services.cluster import Cluster


async def open_sockets_with(page: Page, token: str) -> int:
    count: int = await page.evaluate(
        "t => window.__sockets.filter(s => s.readyState === WebSocket.OPEN"
        " && new URL(s.url).searchParams.get('token') === t).length",
        token,
    )
    return count


# Whether the page ever showed the name page, or dropped its session, from now on: signing
# out everywhere closes this page's own socket with 4401 too, which must not sign it out.
WATCH_SIGN_OUT = """() => {
  window.__signedOut = false;
  const check = () => {
    if (document.getElementById('name-input') || !localStorage.getItem('swick.session')) {
      window.__signedOut = true;
    }
  };
  new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
  const drop = Storage.prototype.removeItem;
  Storage.prototype.removeItem = function (key) {
    if (key === 'swick.session') window.__signedOut = true;
    return drop.call(this, key);
  };
}"""


# Every close code of the page's sockets from now on.
RECORD_CLOSES = """() => {
  window.__closes = [];
  for (const socket of window.__sockets) {
    socket.addEventListener('close', (e) => window.__closes.push(e.code));
  }
}"""
# Resolves once the effects of what the page last rendered have run (preact runs them after the
# next frame).
AFTER_EFFECTS = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"


@pytest.mark.parametrize("connected", ["other", "this"], ids=["other-connected", "this-connected"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_sign_out_everywhere_keeps_this_browser_and_signs_out_the_other(
    cluster: Cluster, browser: Browser, viewport: dict[str, int], connected: str
) -> None:
    async with browsing_each(browser, viewport, viewport) as ([here, there], errors):
        session = await sign_up(here, cluster.base, "Ava")
        old = session["token"]
        _, balance = await seated_balance(cluster.base, old)
        await here.reload()
        chips = here.locator(".balance strong")
        await expect(chips).to_have_text(f"{balance:,}¢")
        await expect(here.locator(".me .dot.on")).to_be_visible()

        # The other browser holds a copy of the same token: the same player, connected (this
        # one's socket is replaced by its own).
        await there.goto(cluster.base + "/")
        await there.wait_for_selector("#name-input")
        await there.evaluate("s => localStorage.setItem('swick.session', s)", json.dumps(session))
        await there.reload()
        await expect(there.get_by_role("heading", name="Hello, Ava")).to_be_visible()
        await expect(there.locator(".me .dot.on")).to_be_visible()
        if connected == "this":  # take the socket back
            await here.reload()
            await expect(here.locator(".me .dot.on")).to_be_visible()
            await expect(there.locator(".me .dot.off")).to_be_visible()
        holder = there if connected == "other" else here
        assert await open_sockets_with(holder, old) == 1

        async def answer_after_own_close(route: Route) -> None:
            response = await route.fetch()
            if connected == "this":
                await here.wait_for_function("() => window.__closes.includes(4401)")
                await expect(here.locator(".me .dot.off")).to_be_visible()
                await here.evaluate(AFTER_EFFECTS)
            await route.fulfill(response=response)

        await here.route("**/api/me/revoke", answer_after_own_close)
        signups: list[Request] = []
        here.on(
            "request",
            lambda r: signups.append(r) if r.method == "POST" and "/api/players" in r.url else None,
        )

        # Asked first, saying plainly what it does; Cancel is focused, Escape cancels.
        opener = here.get_by_role("button", name="Sign out everywhere…")
        await opener.click()
        dialog = here.get_by_role("alertdialog", name="Sign out everywhere?")
        await expect(dialog).to_contain_text(
            "Every other device or browser signed in as Ava is signed out"
        )
        await expect(dialog).to_contain_text("This browser stays signed in as you")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await dialog.scroll_into_view_if_needed()
        assert await axe_violations(here) == []
        await here.keyboard.press("Escape")
        await expect(dialog).to_be_hidden()
        await expect(opener).to_be_focused()
        assert await status_of(cluster.base, old) == 200, "cancelled: nothing was revoked"

        # By keyboard: open it, step back from Cancel to the confirming button, confirm.
        await here.keyboard.press("Enter")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await here.evaluate(WATCH_SIGN_OUT)
        await here.evaluate(RECORD_CLOSES)
        await there.evaluate(RECORD_CLOSES)
        await here.keyboard.press("Shift+Tab")
        await expect(dialog.get_by_role("button", name="Sign out everywhere")).to_be_focused()
        await here.keyboard.press("Enter")
        await expect(here.locator(".sign-out-result[role=status]")).to_have_text(
            "Signed out everywhere else: every other device or browser must sign in again."
            " This browser stays signed in as Ava."
        )
        await expect(dialog).to_be_hidden()
        await expect(opener).to_be_focused()

        # This browser: the same player on a fresh token, its socket back with it.
        await here.wait_for_function(
            "old => JSON.parse(localStorage.getItem('swick.session')).token !== old", arg=old
        )
        fresh = await token_of(here)
        assert (fresh["id"], fresh["name"]) == (session["id"], "Ava")
        await here.wait_for_function(
            "t => window.__sockets.some(s => s.readyState === WebSocket.OPEN"
            " && new URL(s.url).searchParams.get('token') === t)",
            arg=fresh["token"],
        )
        assert await open_sockets_with(here, old) == 0
        await expect(here.locator(".me .dot.on")).to_be_visible()
        await expect(here.get_by_role("heading", name="Hello, Ava")).to_be_visible()
        await expect(chips).to_have_text(f"{balance:,}¢")
        assert await here.locator("#name-input").count() == 0
        assert signups == [], "this browser did not sign up again"
        assert not await here.evaluate("window.__signedOut"), "this browser never signed out"
        assert await status_of(cluster.base, fresh["token"]) == 200
        assert await status_of(cluster.base, old) == 401

        # The other browser: its socket closed with 4401 there and then (or, with none open,
        # its token refused when it comes back); it drops the token and asks for a name again,
        # and signing in makes a new player.
        if connected == "this":
            assert 4401 in await here.evaluate("window.__closes")
            await there.reload()
        await expect(there.locator("#name-input")).to_have_value("Ava")
        if connected == "other":
            assert 4401 in await there.evaluate("window.__closes")
        await expect(there.get_by_text("you signed out everywhere")).to_be_visible()
        assert await open_sockets_with(there, old) == 0
        assert await there.evaluate("localStorage.getItem('swick.session')") is None
        await there.press("#name-input", "Enter")
        await there.wait_for_selector("#name-input", state="detached")
        anew = await token_of(there)
        assert anew["id"] != session["id"]
        errors.check()


async def test_another_tab_of_this_browser_takes_the_fresh_token(
    cluster: Cluster, browser: Browser
) -> None:
    """Two tabs share the stored session: the one that did not sign out everywhere has its
    socket closed with 4401 too, and goes on with the fresh token instead of asking for a name
    (whichever comes first: its refusal, or the other tab storing the fresh token)."""
    async with browsing(browser) as (context, here, errors):
        await sign_up(here, cluster.base, "Ava")
        old = (await token_of(here))["token"]
        other_tab = await context.new_page()
        errors.attach(other_tab)
        await other_tab.goto(cluster.base + "/")
        await expect(other_tab.locator(".me .dot.on")).to_be_visible()  # it holds the socket

        await here.get_by_role("button", name="Sign out everywhere…").click()
        await here.get_by_role("button", name="Sign out everywhere", exact=True).click()
        await expect(here.locator(".sign-out-result")).to_contain_text("stays signed in as Ava")
        fresh = await token_of(here)
        assert fresh["token"] != old

        # It connects with the fresh token (which tab then holds the socket is a race of theirs).
        await other_tab.wait_for_function(
            "t => window.__sockets.some(s => new URL(s.url).searchParams.get('token') === t)",
            arg=fresh["token"],
        )
        await expect(other_tab.get_by_role("heading", name="Hello, Ava")).to_be_visible()
        assert await other_tab.locator("#name-input").count() == 0
        assert await token_of(other_tab) == fresh
        errors.check()
