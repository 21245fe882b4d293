"""The account page (#/account): reached from the player's name in the header, it shows the
handle, renames (keeping the account, on a fresh token), lists the devices signed in and signs
any other out (that device's socket is closed with 4401 there and then, and it says it is
signed out), and signs this device out; at phone and desktop sizes, by keyboard alone, with no
accessibility violation. Two players of one name at a table are told apart by their tags."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    LAPTOP,
    PHONE,
    SMALL_PHONE,
    axe_violations,
    browsing,
    browsing_each,
    no_overflow,
    open_account,
    python_table,
    sign_up,
    status_of,
    token_of,
)
from tests.services.cluster import Cluster

WIDE = {"width": 1920, "height": 1080}
SIZES = {"phone-360": SMALL_PHONE, "phone-390": PHONE, "desktop-1366": LAPTOP, "desktop-1920": WIDE}
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/126.0 Mobile Safari/537.36"
)
SIGNED_OUT = "Your sign-in is no longer valid"


async def account_of(base: str, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.get("/api/account", headers={"authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
        body: dict[str, Any] = reply.json()
        return body


async def signed_in_elsewhere(page: Page, base: str, session: dict[str, str]) -> tuple[str, str]:
    """``page``, in a browser of its own, signed in to the session's account by a device link
    from a phone (a link code the session makes, entered with a phone's User-Agent), and on
    the lobby as that player: the new device's id and token."""
    async with httpx.AsyncClient(base_url=base) as http:
        link = await http.post(
            "/api/account/link", headers={"authorization": f"Bearer {session['token']}"}
        )
        assert link.status_code == 200, link.text
        reply = await http.post(
            "/api/sign-in/link",
            json={"code": link.json()["code"]},
            headers={"user-agent": PHONE_AGENT},
        )
        assert reply.status_code == 200, reply.text
    joined: dict[str, str] = reply.json()
    assert joined["id"] == session["id"]
    [device] = [d for d in (await account_of(base, joined["token"]))["devices"] if d["current"]]
    await page.goto(base + "/")
    await page.wait_for_selector("#name-input")
    await page.evaluate(
        "t => localStorage.setItem('swick.session', JSON.stringify(t))",
        {"id": joined["id"], "name": joined["name"], "token": joined["token"]},
    )
    await page.reload()
    await expect(page.get_by_role("heading", name=f"Hello, {joined['name']}")).to_be_visible()
    return device["id"], joined["token"]


@pytest.mark.parametrize("viewport", list(SIZES.values()), ids=list(SIZES))
async def test_the_account_page_shows_the_handle_and_passes_axe(
    cluster: Cluster, browser: Browser, viewport: dict[str, int]
) -> None:
    async with browsing(browser, viewport) as (_, page, errors):
        session = await sign_up(page, cluster.base, "Ava")
        await open_account(page)
        account = await account_of(cluster.base, session["token"])
        assert re.fullmatch(r"Ava#\d{4}", account["handle"])
        await expect(page.locator(".handle")).to_have_text(account["handle"])
        # A guest is told, once and here, how to keep the account.
        await expect(page.locator(".keep-it")).to_contain_text("Only this browser can sign in")
        [device] = account["devices"]
        row = page.locator(f"[data-device='{device['id']}']")
        await expect(row).to_contain_text("This device")
        await expect(row).to_contain_text(device["kind"])
        await no_overflow(page)
        assert await axe_violations(page) == []
        # Asking before signing out: the question is accessible too.
        await page.get_by_role("button", name="Sign out on this device…").click()
        dialog = page.get_by_role("alertdialog", name="Sign out on this device?")
        await expect(dialog).to_contain_text("no passkey and no recovery codes")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        assert await axe_violations(page) == []
        await no_overflow(page)
        errors.check()


async def test_the_account_page_by_keyboard_alone(cluster: Cluster, browser: Browser) -> None:
    async with browsing(browser, PHONE) as (_, page, errors):
        before = await sign_up(page, cluster.base, "Ava")
        # Tab (round the page) to the header's name; Enter opens the account page.
        for _ in range(60):
            await page.keyboard.press("Tab")
            if await page.evaluate("document.activeElement.matches('header.top a.me')"):
                break
        else:
            raise AssertionError("the header's name is not reached by Tab")
        await page.keyboard.press("Enter")
        await page.locator(".handle").wait_for()
        # The name field, by Tab alone: rename with Enter.
        for _ in range(40):
            await page.keyboard.press("Tab")
            if await page.evaluate("document.activeElement.id === 'account-name'"):
                break
        else:
            raise AssertionError("the name field is not reached by Tab")
        await page.keyboard.press("Control+A")
        await page.keyboard.type("Bea")
        await page.keyboard.press("Enter")
        await expect(page.locator("#name .account-said")).to_contain_text("Your name is now Bea")
        await expect(page.locator("header.top .me-name")).to_have_text("Bea")
        after = await token_of(page)
        assert after["id"] == before["id"] and after["name"] == "Bea"
        assert after["token"] != before["token"]
        await expect(page.locator(".handle")).to_have_text(re.compile(r"^Bea#\d{4}$"))
        # Sign out on this device: asked first, Cancel focused, Escape gives it.
        button = page.get_by_role("button", name="Sign out on this device…")
        await button.focus()
        await page.keyboard.press("Enter")
        cancel = page.get_by_role("alertdialog").get_by_role("button", name="Cancel")
        await expect(cancel).to_be_focused()
        await page.keyboard.press("Escape")
        await expect(page.get_by_role("alertdialog")).to_have_count(0)
        await expect(button).to_be_focused()  # back where the question was asked
        assert await status_of(cluster.base, after["token"]) == 200
        # Recovery codes by keyboard: Enter makes them, the focus goes to them; "I have saved
        # them" hides them, and the focus goes to the button that makes new ones.
        await page.get_by_role("button", name="Make recovery codes").focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".recovery-list")).to_be_focused()
        await page.keyboard.press("Tab")
        await expect(page.get_by_role("button", name="Copy all")).to_be_focused()
        await page.keyboard.press("Tab")
        await expect(page.get_by_role("link", name="Download as a text file")).to_be_focused()
        await page.keyboard.press("Tab")
        await page.keyboard.press("Enter")
        renew = page.get_by_role("button", name="Make new recovery codes…")
        await expect(renew).to_be_focused()
        # Asked first; Escape keeps the codes, and the focus comes back.
        await page.keyboard.press("Enter")
        await expect(page.get_by_role("alertdialog")).to_contain_text("stop working at once")
        await expect(cancel).to_be_focused()
        await page.keyboard.press("Escape")
        await expect(renew).to_be_focused()
        await expect(page.locator(".codes-left")).to_have_text("10 codes left")
        errors.check()


async def test_a_device_signed_out_from_the_account_page_is_closed_and_says_so(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing_each(browser, LAPTOP, PHONE) as ([desk, phone], errors):
        session = await sign_up(desk, cluster.base, "Ava")
        phone_id, phone_token = await signed_in_elsewhere(phone, cluster.base, session)
        await expect(phone.locator(".me .dot.on")).to_be_visible()
        await phone.evaluate(
            "() => { window.__closes = []; for (const s of window.__sockets)"
            " s.addEventListener('close', (e) => window.__closes.push(e.code)); }"
        )

        await open_account(desk)
        row = desk.locator(f"[data-device='{phone_id}']")
        await expect(row).to_contain_text("Chrome on Android")
        await expect(row).to_contain_text("with a link code")
        await row.get_by_role("button", name=re.compile("^Sign out Chrome on Android")).click()
        dialog = row.get_by_role("alertdialog")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await dialog.get_by_role("button", name="Sign out", exact=True).click()
        await expect(desk.locator("#devices .account-said")).to_contain_text("is signed out")
        await expect(row).to_contain_text("Signed out")
        await expect(row.get_by_role("button")).to_have_count(0)

        # The phone: its socket closed with 4401 at once, and it says it is signed out,
        # offering the ways back in.
        await phone.wait_for_function("() => window.__closes.includes(4401)")
        await expect(phone.get_by_text(SIGNED_OUT)).to_be_visible()
        again = phone.get_by_role("button", name="I already have an account")
        await expect(again).to_have_attribute("aria-expanded", "true")
        await expect(phone.locator("#link-code")).to_be_visible()
        assert await status_of(cluster.base, phone_token) == 401
        # The desktop stays signed in (its socket gave way to the phone's: one at a time).
        assert await status_of(cluster.base, session["token"]) == 200
        await expect(desk.locator("#name-input")).to_have_count(0)
        errors.check()


async def test_signing_out_everywhere_else_from_the_account_page(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing_each(browser, PHONE, WIDE) as ([here, there], errors):
        session = await sign_up(here, cluster.base, "Ava")
        other, other_token = await signed_in_elsewhere(there, cluster.base, session)
        await open_account(here)
        await here.get_by_role("button", name="Sign out everywhere else…").click()
        dialog = here.get_by_role("alertdialog", name="Sign out every other device?")
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await dialog.get_by_role("button", name="Sign out everywhere else").click()
        await expect(here.locator("#devices .account-said")).to_contain_text(
            "Every other device is signed out"
        )
        await expect(here.locator("#devices-title")).to_be_focused()
        await expect(here.locator(f"[data-device='{other}']")).to_contain_text("Signed out")
        await expect(here.get_by_role("button", name="Sign out everywhere else…")).to_have_count(0)
        fresh = await token_of(here)
        assert fresh["id"] == session["id"] and fresh["token"] != session["token"]
        assert await status_of(cluster.base, fresh["token"]) == 200
        assert await status_of(cluster.base, other_token) == 401
        await expect(there.get_by_text(SIGNED_OUT)).to_be_visible()
        errors.check()


async def test_signing_out_on_this_device_forgets_its_token(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing(browser, SMALL_PHONE) as (_, page, errors):
        session = await sign_up(page, cluster.base, "Ava")
        await open_account(page)
        await page.get_by_role("button", name="Sign out on this device…").click()
        dialog = page.get_by_role("alertdialog")
        await dialog.get_by_role("button", name="Sign out", exact=True).click()
        await expect(page.get_by_text("You signed out on this device")).to_be_visible()
        await expect(page).to_have_url(re.compile("#/$"))
        assert await page.evaluate("localStorage.getItem('swick.session')") is None
        assert await page.locator("#name-input").input_value() == ""
        assert await status_of(cluster.base, session["token"]) == 401
        errors.check()


# Each game's table page: the seat the page's player sits in, and where the seats' names are.
TABLES = {
    "swick": (".seat.me", ".seat .seat-name"),
    "euchre": (".eu-seat.me", ".eu-seat .eu-name-text"),
    "contract-whist": (".wh-seat.me", ".wh-seat .eu-name-text"),
}


@pytest.mark.parametrize("game", list(TABLES))
async def test_two_players_of_one_name_at_a_table_show_their_tags(
    cluster: Cluster, browser: Browser, game: str
) -> None:
    """Written once for every game (the table's feed names the seats): the two Ritas each
    with their tag, Bob and Cy as they are; and the lobby's row of the table too."""
    mine_at, names_at = TABLES[game]
    async with (
        python_table(cluster.base, ["Rita", "Bob", "Cy"], game=game) as (table, players),
        browsing(browser) as (_, page, errors),
    ):
        await sign_up(page, cluster.base, "rita", f"/#/table/{table}/join")
        await page.locator(mine_at).wait_for()
        mine = await token_of(page)
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            ids = f"{players[0].id},{players[1].id},{mine['id']}"
            handles = (await http.get(f"/api/handles?ids={ids}")).json()
        theirs = handles[players[0].id]["handle"].split("#")[1]
        ours = handles[mine["id"]]["handle"].split("#")[1]
        assert handles[players[0].id]["key"] == handles[mine["id"]]["key"]
        names = page.locator(names_at)
        await expect(names.filter(has_text=f"Rita #{theirs}")).to_have_count(1)
        await expect(names.filter(has_text=f"rita #{ours}")).to_have_count(1)
        # Bob shares his name with nobody: no tag.
        await expect(names.filter(has_text="Bob")).to_have_count(1)
        await expect(names.filter(has_text=re.compile(r"Bob\s*#"))).to_have_count(0)
        # The lobby's row of the table says the same.
        await page.goto(cluster.base + "/#/")
        row = page.locator(".lobby-table tr", has_text=f"Rita #{theirs}")
        await expect(row.locator(".table-players")).to_contain_text(f"rita #{ours}")
        errors.check()
