"""A browser whose token the server refuses (expired, or signed with a secret the platform does
not hold) asks for the name again, offering the old one, instead of reconnecting forever."""

from __future__ import annotations

import json
import time

from playwright.async_api import Browser, Page, Route, expect

from services.gateway.identity import LIFETIME, RENEW_AFTER, Identity, Tokens
from shared.settings import DEV_SECRET
from tests.browser.support import browsing, sign_up, token_of
from tests.services.cluster import Cluster


async def replace_token(page: Page, token: str) -> None:
    session = await token_of(page)
    await page.evaluate(
        "s => localStorage.setItem('swick.session', s)", json.dumps({**session, "token": token})
    )


async def sockets_with(page: Page, token: str) -> int:
    count: int = await page.evaluate(
        "t => window.__sockets.filter(s => new URL(s.url).searchParams.get('token') === t).length",
        token,
    )
    return count


async def signs_in_again(page: Page, cluster: Cluster, refused: str) -> None:
    """The name page is back with the old name and why; Enter signs in, and the socket opens."""
    await expect(page.locator("#name-input")).to_have_value("Ava")
    await expect(page.get_by_text("Your sign-in is no longer valid")).to_be_visible()
    assert await sockets_with(page, refused) <= 1, "no retries with a refused token"
    await page.press("#name-input", "Enter")
    await page.wait_for_selector("#name-input", state="detached")
    fresh = (await token_of(page))["token"]
    assert fresh != refused
    assert Tokens(cluster.settings.secret).verify(fresh) is not None
    await expect(page.locator(".me .dot.on")).to_be_visible()


async def test_an_expired_token_signs_in_again(cluster: Cluster, browser: Browser) -> None:
    async with browsing(browser) as (_, page, errors):
        session = await sign_up(page, cluster.base, "Ava")
        month_ago = time.time() - LIFETIME - 60
        expired = Tokens(cluster.settings.secret, clock=lambda: month_ago).sign(
            Identity(session["id"], session["name"])
        )
        await replace_token(page, expired)
        await page.reload()
        await signs_in_again(page, cluster, expired)
        errors.check()


async def test_a_socket_closed_with_4401_signs_in_again(cluster: Cluster, browser: Browser) -> None:
    """The socket alone says so: every ``/api/me`` request fails here, so no HTTP 401 helps."""

    async def unavailable(route: Route) -> None:
        await route.fulfill(status=503, json={"detail": "down for the test"})

    async with browsing(browser) as (_, page, errors):
        session = await sign_up(page, cluster.base, "Ava")
        forged = Tokens(DEV_SECRET).sign(Identity(session["id"], session["name"]))
        await page.route("**/api/me**", unavailable)
        await replace_token(page, forged)
        await page.reload()
        await signs_in_again(page, cluster, forged)
        assert await sockets_with(page, forged) == 1
        errors.check()


async def test_an_old_token_is_renewed_in_place(cluster: Cluster, browser: Browser) -> None:
    """A player back after two days keeps being the same player, with a fresh token."""
    async with browsing(browser) as (_, page, errors):
        session = await sign_up(page, cluster.base, "Ava")
        two_days_ago = time.time() - 2 * RENEW_AFTER
        old = Tokens(cluster.settings.secret, clock=lambda: two_days_ago).sign(
            Identity(session["id"], session["name"])
        )
        await replace_token(page, old)
        await page.reload()
        await page.wait_for_function(
            "old => JSON.parse(localStorage.getItem('swick.session')).token !== old", arg=old
        )
        renewed = await token_of(page)
        assert renewed["id"] == session["id"]
        claims = Tokens(cluster.settings.secret).claims(renewed["token"])
        assert claims is not None and claims.issued_at > two_days_ago + RENEW_AFTER
        await expect(page.locator(".me .dot.on")).to_be_visible()
        assert await page.locator("#name-input").count() == 0
        errors.check()
