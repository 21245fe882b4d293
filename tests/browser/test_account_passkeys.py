"""Passkeys in the browser, with Chromium's virtual authenticator (the CDP WebAuthn domain): a
passkey added on the account page of one browser, then carried to a fresh browser's
authenticator, signs that one in to the same account, with the same chips and the same seat;
once removed on the account page, it signs nobody in. The passkeys' relying party is
localhost: the site is opened on http://localhost. A browser without WebAuthn is offered the
codes only."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import Browser, BrowserContext, CDPSession, Page, expect

from tests.browser.support import (
    DESKTOP,
    PHONE,
    axe_violations,
    balance_of,
    browsing,
    browsing_each,
    seated_balance,
    sign_up,
    token_of,
)
from tests.browser.test_account_codes import cluster
from tests.services.cluster import Cluster

__all__ = ["cluster"]  # the codes' module's platform of its own, whose throttle allows every try

REFUSED = "That did not sign you in: check it and try again"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


def local(base: str) -> str:
    """The site on localhost: a secure context for WebAuthn, and the passkeys' relying party."""
    return base.replace("127.0.0.1", "localhost")


async def authenticator(context: BrowserContext, page: Page) -> tuple[CDPSession, str]:
    """A virtual platform authenticator for ``page``: the CDP session and its id."""
    cdp = await context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable")
    made: dict[str, Any] = await cdp.send(
        "WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR}
    )
    return cdp, str(made["authenticatorId"])


async def carry(credential: dict[str, Any], context: BrowserContext, page: Page) -> None:
    """``credential`` (as WebAuthn.getCredentials gave it) in a fresh authenticator of ``page``."""
    cdp, made = await authenticator(context, page)
    await cdp.send("WebAuthn.addCredential", {"authenticatorId": made, "credential": credential})


async def test_a_passkey_signs_a_fresh_browser_in_to_the_same_account_and_seat(
    cluster: Cluster, browser: Browser
) -> None:
    base = local(cluster.base)
    async with browsing_each(browser, DESKTOP, PHONE, PHONE) as ([here, there, late], errors):
        cdp, made = await authenticator(here.context, here)
        session = await sign_up(here, base, "Pia")
        table, chips = await seated_balance(cluster.base, session["token"])
        await here.goto(base + "/#/account")
        await here.locator(".handle").wait_for()
        await expect(here.locator(".keep-it")).to_be_visible()
        await here.fill("#passkey-label", "Work laptop")
        await here.get_by_role("button", name="Add a passkey").click()
        key = here.locator(".passkey-list li")
        await expect(key).to_have_count(1)
        await expect(key).to_contain_text("Work laptop")
        await expect(key).to_contain_text("last used never")
        await expect(here.locator("#passkeys .account-said")).to_contain_text("Passkey added")
        await expect(here.locator(".keep-it")).to_have_count(0)
        assert await axe_violations(here) == []
        credentials = (await cdp.send("WebAuthn.getCredentials", {"authenticatorId": made}))[
            "credentials"
        ]
        [credential] = credentials
        assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

        # A fresh browser holding that passkey signs in with it, as the same account, at its
        # seat, with its chips.
        await there.goto(base + "/")
        await carry(credential, there.context, there)
        await there.get_by_role("button", name="I already have an account").click()
        await there.get_by_role("button", name="Sign in with a passkey").click()
        await expect(there).to_have_url(re.compile(f"#/table/{table}$"))
        await there.locator(".seat.me").wait_for()
        joined = await token_of(there)
        assert joined["id"] == session["id"] and joined["name"] == "Pia"
        assert await balance_of(cluster.base, joined["token"]) == chips
        await there.goto(base + "/#/account")
        await expect(there.locator(".passkey-list li")).not_to_contain_text("last used never")
        await expect(there.locator(".device-list li.current")).to_contain_text("with a passkey")

        # Removed on the account page (asked first), it signs nobody in.
        await here.reload()
        await here.get_by_role("button", name="Remove passkey Work laptop").click()
        dialog = here.get_by_role("alertdialog")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await dialog.get_by_role("button", name="Remove", exact=True).click()
        await expect(here.get_by_text("No passkeys yet.")).to_be_visible()
        await late.goto(base + "/")
        await carry(credential, late.context, late)
        await late.get_by_role("button", name="I already have an account").click()
        await late.get_by_role("button", name="Sign in with a passkey").click()
        await expect(late.locator("[data-way='passkey'] [role='alert']")).to_have_text(REFUSED)
        assert await late.evaluate("localStorage.getItem('swick.session')") is None
        errors.check()


async def test_no_passkey_button_where_the_browser_has_none(
    cluster: Cluster, browser: Browser
) -> None:
    """A browser without WebAuthn: the welcome page offers the codes only, and the account
    page says what to do instead."""
    without = "delete window.PublicKeyCredential"
    async with browsing(browser, PHONE, scripts=[without]) as (_, page, errors):
        await sign_up(page, local(cluster.base), "Noel")
        await page.goto(local(cluster.base) + "/#/account")
        passkeys = page.locator("#passkeys")
        await expect(passkeys).to_contain_text("This browser cannot make passkeys")
        await expect(page.get_by_role("button", name="Add a passkey")).to_have_count(0)
        await page.evaluate("localStorage.clear()")
        await page.goto(local(cluster.base) + "/#/")
        await page.reload()
        await page.get_by_role("button", name="I already have an account").click()
        await expect(page.locator("#link-code")).to_be_visible()
        await expect(page.get_by_role("button", name="Sign in with a passkey")).to_have_count(0)
        errors.check()
