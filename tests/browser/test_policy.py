"""The pages work under their Content Security Policy, and the policy is enforced: the browser
refuses script that is not a file of this origin."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import browsing
from tests.services.cluster import Cluster


async def test_the_operator_page_works_under_the_policy(browser: Browser, cluster: Cluster) -> None:
    async with browsing(browser) as (_, page, errors):
        await page.goto(cluster.base + "/admin")
        await page.fill("#token", cluster.settings.admin_token)
        await page.click("#go")
        await expect(page.locator("#out h2").first).to_contain_text("Ledger invariants")
        errors.check()


async def test_inline_script_is_refused(browser: Browser, cluster: Cluster) -> None:
    async with browsing(browser) as (_, page, errors):
        await page.goto(cluster.base + "/")
        ran = await page.evaluate(
            """() => new Promise((resolve) => {
                 document.addEventListener('securitypolicyviolation', () => resolve(false));
                 window.__inline = false;
                 const script = document.createElement('script');
                 script.textContent = 'window.__inline = true';
                 document.head.append(script);
                 setTimeout(() => resolve(window.__inline), 2000);
               })"""
        )
        assert ran is False
        assert any("Content Security Policy" in error for error in errors.errors)
