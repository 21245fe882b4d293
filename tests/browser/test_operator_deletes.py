"""The operator page deletes an account: asked, confirmed (or cancelled), then done, with the
answer said in a live region; the deleted account's token opens nothing more."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, expect

from tests.browser.support import browsing
from tests.services.client import registered
from tests.services.cluster import Cluster


async def test_the_operator_page_deletes_an_account_once_confirmed(
    browser: Browser, cluster: Cluster
) -> None:
    guest = await registered(cluster.base, "Quillon")
    async with browsing(browser) as (_, page, errors):
        await page.goto(cluster.base + "/admin")
        await page.fill("#token", cluster.settings.admin_token)
        await page.fill("#delete-id", guest.id)
        await page.get_by_role("button", name="Delete…").click()
        confirm = page.locator("#delete-confirm")
        await expect(confirm).to_be_visible()
        await expect(confirm).to_contain_text(guest.id)
        await page.get_by_role("button", name="Cancel").click()  # nothing done
        await expect(confirm).to_be_hidden()
        assert (await guest.http("GET", "/api/me")).status_code == 200

        await page.get_by_role("button", name="Delete…").click()
        await page.get_by_role("button", name="Yes, delete the account").click()
        await expect(page.get_by_role("status")).to_contain_text(f"Deleted {guest.id}")
        assert (await guest.http("GET", "/api/me")).status_code == 401
        # Once more: the page says nothing changed.
        await page.fill("#delete-id", guest.id)
        await page.get_by_role("button", name="Delete…").click()
        await page.get_by_role("button", name="Yes, delete the account").click()
        await expect(page.get_by_role("status")).to_contain_text("deleted already")
        errors.check()
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        assert (await http.delete(f"/admin/accounts/{guest.id}")).status_code == 401
