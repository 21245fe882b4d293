"""The verify page re-deals a finished game in the browser and confirms it; a tampered record is
rejected with the first mismatch, the same one the Python verifier reports."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from playwright.async_api import Browser, Page, expect

from shared.games.swick.record import load_record, verify
from tests.browser.support import (
    browsing,
)
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.play import act, open_table, play


async def finished_game(base: str) -> tuple[str, dict[str, Any], list[str]]:
    """Three Python players play a game of at least two hands and end it: its table, record
    and the players' names by seat."""
    players = [Player(base, name) for name in ("Vic", "Wes", "Xia")]
    for player in players:
        await player.sign_up()
        await player.connect()
    try:
        table = await open_table(players)
        assert (await act(players[0], table, {"kind": "start_game"}))["type"] == "ack"
        await play(
            players,
            table,
            random.Random(3),
            lambda v: v["hand_no"] >= 2 and v["carry"] == 0 and v["phase"] in ("ante", "ready"),
        )
        assert (await act(players[0], table, {"kind": "end_game"}))["type"] == "ack"
        reply = await players[0].http("GET", f"/api/tables/{table}/games/1/record")
        assert reply.status_code == 200, reply.text
        record: dict[str, Any] = reply.json()
        names = [s["player"]["name"] for s in players[0].views[table]["seats"]]
        return table, record, names
    finally:
        for player in players:
            await player.close()


async def check_names(page: Page, record: dict[str, Any], names: list[str]) -> None:
    """Each hand's dealer and its dealt seats go by their players' names, not seat numbers."""
    rows = page.locator(".verify-table tbody tr")
    for k, hand in enumerate(record["hands"]):
        await expect(rows.nth(k).locator("td").first).to_have_text(names[hand["dealer"]])
    dealt = rows.first.locator(".dealt-seat > .muted")
    await expect(dealt).to_have_count(len(record["hands"][0]["dealt"]))
    assert set(await dealt.all_inner_texts()) <= set(names)
    await expect(page.locator(".verify-table")).not_to_contain_text("Seat")


async def test_verify_page(cluster: Cluster, browser: Browser) -> None:
    table, record, names = await finished_game(cluster.base)
    assert verify(load_record(record)).ok
    async with browsing(browser) as (context, page, errors):
        # The finished game, fetched and re-dealt in the browser.
        await page.goto(f"{cluster.base}/#/verify/{table}/1")
        verdict = page.locator(".verdict")
        await expect(verdict).to_contain_text("Verified: every card checks out")
        await expect(page.locator(".verify-table tbody tr")).to_have_count(len(record["hands"]))
        await expect(page.locator(".verify-table .pass-mark")).to_have_count(len(record["hands"]))
        assert record["seed"] in await verdict.inner_text()
        await check_names(page, record, names)

        # A tampered copy, pasted: two dealt cards swapped between seats in the last hand.
        tampered = copy.deepcopy(record)
        dealt = tampered["hands"][-1]["dealt"]
        dealt[0][0], dealt[1][0] = dealt[1][0], dealt[0][0]
        expected = verify(load_record(tampered))
        assert not expected.ok
        await page.fill("#record-input", json.dumps(tampered))
        await page.get_by_role("button", name="Verify", exact=True).click()
        await expect(verdict).to_contain_text("Not verified")
        await expect(page.locator(".verdict .mismatch")).to_have_text(expected.mismatch)
        await expect(page.locator(".verify-table .fail-mark")).to_have_count(1)
        # The same game's record, tampered: its seats still go by their players' names.
        await check_names(page, tampered, names)

        # Not JSON at all.
        await page.fill("#record-input", "{not json")
        await page.get_by_role("button", name="Verify", exact=True).click()
        await expect(page.locator("main .error")).to_contain_text("That is not JSON")

        errors.check()

        # The record read on its own, pasted in a page that has seen no table, names its
        # players too.
        assert [p["name"] for p in record["players"]] == names
        fresh = await context.new_page()
        errors.attach(fresh)
        await fresh.goto(f"{cluster.base}/#/verify")
        await fresh.fill("#record-input", json.dumps(record))
        await fresh.get_by_role("button", name="Verify", exact=True).click()
        await expect(fresh.locator(".verdict")).to_contain_text("Verified: every card checks out")
        await check_names(fresh, record, names)
        errors.check()
