"""Signing in again with a code, in the browser: a device link from a phone-sized browser to a
desktop one (the code big on the phone's account page, its QR code an image of the link, the
desktop opening the link and confirming, landing on the same account, chips and seat), the
link code's countdown running out on the page's clock, recovery codes made once and used once,
and every wrong, used or expired code refused with the server's one message.

The module has a platform of its own, whose sign-in throttle leaves room for every try here
(the throttle itself is the gateway's tests' to check; the page's word for a 429 is checked
here with the answer the gateway gives)."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import unquote

import asyncpg
import pytest
from playwright.async_api import Browser, Page, Route, expect

from tests.browser.support import (
    DESKTOP,
    LAPTOP,
    PHONE,
    axe_violations,
    balance_of,
    browsing,
    browsing_each,
    no_overflow,
    open_account,
    seated_balance,
    sign_up,
    token_of,
)
from tests.services.cluster import Cluster, own_platform


@pytest.fixture(scope="module")
async def cluster(
    service_urls: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Cluster]:
    """A platform of this module's own, whose gateway takes this module's every try (its
    services inherit the environment they start in)."""
    os.environ["SWICK_SIGN_IN_ATTEMPTS"] = "1000"
    try:
        logs: Path = tmp_path_factory.mktemp("account-codes")
        async with own_platform(service_urls, logs, "account-codes", 1, 0) as running:
            yield running
    finally:
        del os.environ["SWICK_SIGN_IN_ATTEMPTS"]


REFUSED = "That did not sign you in: check it and try again"


async def show_link_code(page: Page) -> str:
    """On the account page, Show a link code: the code it shows."""
    await page.get_by_role("button", name="Show a link code").click()
    code = (await page.locator(".link-code code").inner_text()).strip()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code), code
    return code


async def enter_code(page: Page, base: str, field: str, code: str) -> None:
    """On a fresh browser's welcome page: I already have an account, then ``code`` in the
    field ``field`` (link-code, recovery-code) and Enter."""
    await page.goto(base + "/")
    await page.get_by_role("button", name="I already have an account").click()
    await page.fill(f"#{field}", code)
    await page.press(f"#{field}", "Enter")


async def test_a_device_link_from_a_phone_to_a_desktop(cluster: Cluster, browser: Browser) -> None:
    async with browsing_each(browser, PHONE, LAPTOP) as ([phone, desk], errors):
        session = await sign_up(phone, cluster.base, "Linda")
        table, chips = await seated_balance(cluster.base, session["token"])
        await phone.reload()
        await open_account(phone)
        code = await show_link_code(phone)
        left = phone.locator(".link-left")
        await expect(left).to_contain_text(re.compile(r"Expires in \d+:\d\d"))
        qr = phone.locator("img.link-qr")
        source = await qr.get_attribute("src") or ""
        assert source.startswith("data:image/svg+xml"), source[:40]
        url = f"{cluster.base}/#/link/{code}"
        assert "<svg" in unquote(source)
        assert url in (await qr.get_attribute("alt") or "")
        assert await phone.locator(".link-shown svg").count() == 0, "no markup in the page"
        await no_overflow(phone)
        assert await axe_violations(phone) == []
        # The code has the focus (a screen reader reads it out); Done puts it back on the
        # button, and Enter there shows the code again.
        await expect(phone.locator(".link-code")).to_be_focused()
        await phone.get_by_role("button", name="Done").focus()
        await phone.keyboard.press("Enter")
        show = phone.get_by_role("button", name="Show a link code")
        await expect(show).to_be_focused()
        await phone.keyboard.press("Enter")
        code = (await phone.locator(".link-code code").inner_text()).strip()  # a fresh one
        url = f"{cluster.base}/#/link/{code}"

        # The desktop opens the link (what the QR code says): the code filled in, and nothing
        # happens before it confirms.
        await desk.goto(url)
        await expect(desk.locator(".link-code-shown")).to_contain_text(code)
        confirm = desk.get_by_role("button", name="Sign in on this device")
        await expect(confirm).to_be_focused()
        assert await desk.evaluate("localStorage.getItem('swick.session')") is None
        assert await axe_violations(desk) == []
        await desk.keyboard.press("Enter")
        # It lands at the account's seat, as the account.
        await expect(desk).to_have_url(re.compile(f"#/table/{table}$"))
        await desk.locator(".seat.me").wait_for()
        joined = await token_of(desk)
        assert joined["id"] == session["id"] and joined["name"] == "Linda"
        assert re.fullmatch(r"Linda#\d{4}", joined["handle"])
        assert joined["token"] != session["token"]
        assert await balance_of(cluster.base, joined["token"]) == chips

        # The phone's account page lists the desktop, signed in with the link code.
        await phone.reload()
        await phone.locator(".handle").wait_for()
        await expect(phone.locator(".device-list li")).to_have_count(2)
        await expect(phone.locator(".device-list li:not(.current)")).to_contain_text(
            "with a link code"
        )
        errors.check()


async def test_wrong_used_and_expired_link_codes_are_refused_with_one_message(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing_each(browser, PHONE, DESKTOP, DESKTOP) as ([phone, first, second], errors):
        session = await sign_up(phone, cluster.base, "Remy")
        await open_account(phone)
        code = await show_link_code(phone)

        # Typed (lower case, no dash): good once.
        await enter_code(first, cluster.base, "link-code", code.lower().replace("-", ""))
        await expect(first.get_by_role("heading", name="Hello, Remy")).to_be_visible()
        assert (await token_of(first))["id"] == session["id"]

        async def refused(code: str) -> None:
            await enter_code(second, cluster.base, "link-code", code)
            alert = second.locator("[data-way='link-code'] [role='alert']")
            await expect(alert).to_have_text(REFUSED)
            await expect(second.locator("#link-code")).to_have_attribute("aria-invalid", "true")
            assert await second.evaluate("localStorage.getItem('swick.session')") is None

        await refused(code)  # used
        await refused("AAAA-AAAA")  # wrong
        # Expired: the code's time is up in the gateway's database.
        await phone.get_by_role("button", name="Done").click()
        stale = await show_link_code(phone)
        connection = await asyncpg.connect(cluster.settings.database_url)
        try:
            await connection.execute(
                "UPDATE gateway.link_codes SET expires_at = 0 WHERE account_id = $1",
                session["id"],
            )
        finally:
            await connection.close()
        await refused(stale)
        assert await axe_violations(second) == []
        errors.check()


async def test_the_link_codes_countdown_runs_out_on_the_page(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing(browser, PHONE) as (_, page, errors):
        await page.clock.install()
        await sign_up(page, cluster.base, "Tess")
        await open_account(page)
        await show_link_code(page)
        clock = page.locator(".link-clock")
        await expect(clock).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
        await page.clock.run_for("05:00")
        await expect(clock).to_have_text(re.compile(r"^(5:00|4:5\d)$"))
        await page.clock.run_for("04:30")
        await expect(page.locator("#link .account-said")).to_have_text(
            "The link code has less than a minute left."
        )
        await page.clock.run_for("00:31")
        await expect(page.locator(".link-expired")).to_contain_text("This code expired.")
        await expect(page.locator("#link .account-said")).to_contain_text("expired")
        await page.get_by_role("button", name="Make another").click()
        await expect(page.locator(".link-code code")).to_have_text(re.compile(r"[0-9A-Z-]{9}"))
        await expect(clock).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
        errors.check()


async def test_recovery_codes_are_shown_once_and_each_signs_in_once(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing_each(browser, DESKTOP, PHONE) as ([page, other], errors):
        session = await sign_up(page, cluster.base, "Wren")
        await open_account(page)
        await expect(page.locator(".keep-it")).to_be_visible()
        await page.get_by_role("button", name="Make recovery codes").click()
        listed = page.locator(".recovery-list code")
        await expect(listed).to_have_count(10)
        codes = [c.strip() for c in await listed.all_inner_texts()]
        await expect(page.locator(".recovery-list")).to_be_focused()
        download = page.get_by_role("link", name="Download as a text file")
        href = await download.get_attribute("href") or ""
        text = unquote(href.split(",", 1)[1])
        assert all(code in text.splitlines() for code in codes)
        assert (await download.get_attribute("download") or "").endswith(".txt")
        await expect(page.locator(".codes-left")).to_have_text("10 codes left")
        await expect(page.locator(".keep-it")).to_have_count(0)  # no more nudging
        assert await axe_violations(page) == []
        await page.get_by_role("button", name="I have saved them").click()
        await expect(page.locator(".recovery-list")).to_have_count(0)

        # A fresh browser signs in with one, in lower case: the same account.
        await enter_code(other, cluster.base, "recovery-code", codes[0].lower())
        await expect(other.get_by_role("heading", name="Hello, Wren")).to_be_visible()
        assert (await token_of(other))["id"] == session["id"]
        await page.reload()
        await expect(page.locator(".codes-left")).to_have_text("9 codes left")

        # Used once, it is refused; and a new set (asked first) ends the old one.
        await other.evaluate("localStorage.clear()")
        await enter_code(other, cluster.base, "recovery-code", codes[0])
        alert = other.locator("[data-way='recovery-code'] [role='alert']")
        await expect(alert).to_have_text(REFUSED)
        await page.get_by_role("button", name="Make new recovery codes…").click()
        dialog = page.get_by_role("alertdialog", name="Make new recovery codes?")
        await expect(dialog).to_contain_text("The 9 codes you have now stop working at once.")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await dialog.get_by_role("button", name="Make new codes").click()
        await expect(listed).to_have_count(10)
        await enter_code(other, cluster.base, "recovery-code", codes[1])
        await expect(alert).to_have_text(REFUSED)
        errors.check()


@pytest.mark.parametrize("way", ["link-code", "recovery-code"])
async def test_a_throttled_sign_in_says_how_long_to_wait(
    cluster: Cluster, browser: Browser, way: str
) -> None:
    """The gateway answers 429 with Retry-After (its own tests count the tries): the page
    says how long that is."""

    async def throttled(route: Route) -> None:
        await route.fulfill(
            status=429,
            json={"detail": "Too many tries from your address: wait 15 minutes and try again"},
            headers={"Retry-After": "900"},
        )

    async with browsing(browser, PHONE) as (_, page, errors):
        await page.route("**/api/sign-in/**", throttled)
        await enter_code(page, cluster.base, way, "ABCD-EFGH")
        alert = page.locator(f"[data-way='{way}'] [role='alert']")
        await expect(alert).to_have_text("Too many tries: wait 15 minutes, then try again.")
        # The welcome page with its ways in open fits a phone and passes axe.
        await no_overflow(page)
        assert await axe_violations(page) == []
        errors.check()
