"""Your games (#/games): every finished game the player sat in, newest first. A one-round game
of Contract Whist against three bots, played to its end by the player's own Python client (the
``finished`` fixture), is listed at phone and desktop sizes — its name, the player's seat marked
"you", each bot with its level, the place and the points — and its Replay and Verify links open
those pages; the header, the lobby and the account page lead there. A fresh player is told there
is no game yet, with a link to the lobby. Paging (Show more, ``before=<next>``), the filter, and
every line of a result (team points, chips, ties, leaving early) are checked on answers of the
API's contract given to the page."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.async_api import Browser, Locator, Page, Route, expect

from tests.browser.support import (
    DESKTOP,
    axe_violations,
    browsing,
    no_overflow,
    shoot,
    sign_up,
    signed_in_as,
)
from tests.browser.test_euchre_table import PHONES
from tests.services.client import Player
from tests.services.cluster import Cluster

SIZES = {"phone-360": PHONES[0], "phone-430": PHONES[1], "desktop": DESKTOP}
PLACE = re.compile(r"^(shared )?[1-4](st|nd|rd|th) of 4$")


def game_of(page: Page, table: str, game_no: int = 1) -> Locator:
    """The list item of game ``game_no`` at ``table``."""
    return page.locator(f".games-list > li[data-table='{table}'][data-game-no='{game_no}']")


async def check_clean(page: Page, shot: str) -> None:
    """Nothing sticks out sideways, and axe finds nothing."""
    await no_overflow(page)
    violations = await axe_violations(page)
    assert not violations, violations
    await shoot(page, shot)


async def test_a_finished_game_is_listed_with_its_seats_result_and_links(
    cluster: Cluster, browser: Browser, finished: tuple[Player, str]
) -> None:
    player, table = finished
    async with browsing(browser, DESKTOP) as (_, page, errors):
        # The header's nav leads there.
        await signed_in_as(page, cluster.base, player, "/#/")
        nav = page.get_by_role("navigation", name="Main")
        await nav.get_by_role("link", name=re.compile("^Games")).click()
        await expect(page).to_have_url(re.compile("#/games$"))
        await expect(page.get_by_role("heading", level=1)).to_have_text("Your games")
        link = nav.get_by_role("link", name=re.compile("^Games"))
        await expect(link).to_have_attribute("aria-current", "page")

        for size, viewport in SIZES.items():
            await page.set_viewport_size(viewport)  # type: ignore[arg-type]
            item = game_of(page, table)
            await expect(item).to_have_count(1)
            heading = item.get_by_role("heading", level=2)
            await expect(heading).to_contain_text("Contract Whist")
            await expect(heading.locator("time")).to_have_attribute("datetime", re.compile(r"\S"))
            assert (await heading.locator("time").inner_text()).strip()

            # The seats: the player's own marked "you", each bot with its level.
            seats = item.locator(".game-seats > li")
            await expect(seats).to_have_count(4)
            mine = seats.filter(has_text=player.name)
            await expect(mine).to_have_count(1)
            await expect(mine.locator(".you-tag")).to_have_text("you")
            for level in ("medium", "hard", "easy"):
                await expect(seats.filter(has_text=f"{level} bot")).to_have_count(1)
            await expect(item.locator(".bot-badge")).to_have_count(3)

            # The result: a place of four, Contract Whist's points, no chips at a game played
            # for nothing, no "Left early".
            place = (await item.locator(".game-place").inner_text()).strip()
            assert PLACE.match(place), place
            await expect(item.locator(".game-points")).to_have_text(re.compile(r"^−?\d+ points?$"))
            await expect(item.locator(".game-chips")).to_have_count(0)
            await expect(item.locator(".left-early")).to_have_count(0)

            await expect(item.get_by_role("link", name="Replay", exact=True)).to_have_attribute(
                "href", f"#/replay/{table}/1"
            )
            await expect(item.get_by_role("link", name="Verify", exact=True)).to_have_attribute(
                "href", f"#/verify/{table}/1"
            )
            await expect(page.get_by_role("button", name="Show more")).to_have_count(0)
            await check_clean(page, f"games-{size}")

        # The filter: no Euchre game yet, then Contract Whist's game again.
        filter_ = page.get_by_label("Game", exact=True)
        await filter_.select_option(label="Euchre")
        await expect(page.locator(".games-empty")).to_contain_text(
            "You have not finished a game of Euchre yet."
        )
        await expect(game_of(page, table)).to_have_count(0)
        await filter_.select_option(label="Contract Whist")
        await expect(game_of(page, table)).to_have_count(1)
        # The player's rating and statistics at the game: one game of one round, rated.
        panel = page.get_by_role("region", name="You at Contract Whist")
        await expect(panel.locator("dt")).to_contain_text(["Rating", "Games", "First place"])
        await expect(panel.locator("dd").first).to_have_text(re.compile(r"^\d+\?, Provisional"))
        lines = dict(
            zip(
                await panel.locator("dt").all_inner_texts(),
                await panel.locator("dd").all_inner_texts(),
                strict=True,
            )
        )
        assert lines["Games"] == "1" and lines["Rounds"] == "1", lines
        await filter_.select_option(label="All games")
        await expect(game_of(page, table)).to_have_count(1)
        ratings = page.get_by_role("region", name="Your ratings")
        await expect(ratings).to_contain_text("Contract Whist rating")
        await expect(ratings).to_contain_text("Euchre ratingNot rated yet")

        # Replay opens the game's replay; Verify re-deals it from its seed.
        await game_of(page, table).get_by_role("link", name="Replay", exact=True).click()
        await expect(page).to_have_url(re.compile(f"#/replay/{table}/1$"))
        await expect(page.locator("h1")).to_contain_text("Replay: Contract Whist, game 1")
        await expect(page.locator(".replay-count")).to_contain_text("Step 1 of")
        await page.go_back()
        await game_of(page, table).get_by_role("link", name="Verify", exact=True).click()
        await expect(page).to_have_url(re.compile(f"#/verify/{table}/1$"))
        await expect(page.locator(".verdict")).to_contain_text(
            "Verified: every card checks out", timeout=20_000
        )

        # The lobby and the account page lead there too.
        await page.goto(f"{cluster.base}/#/")
        await page.locator(".lobby").get_by_role("link", name="Your games").click()
        await expect(page).to_have_url(re.compile("#/games$"))
        await expect(game_of(page, table)).to_have_count(1)
        await page.goto(f"{cluster.base}/#/account")
        await page.locator(".handle").wait_for()
        await page.locator("main.account").get_by_role("link", name="Your games").click()
        await expect(page).to_have_url(re.compile("#/games$"))
        await expect(game_of(page, table)).to_have_count(1)
        errors.check()


async def test_the_lobby_board_ranks_people_by_rating_and_the_bots_apart(
    cluster: Cluster, browser: Browser, finished: tuple[Player, str]
) -> None:
    """The finished game rated its players: the lobby's Contract Whist board lists people's
    ratings (a provisional one with a "?"), and the bots on a ladder of their own."""
    player, _ = finished
    async with browsing(browser, DESKTOP) as (_, page, errors):
        await signed_in_as(page, cluster.base, player, "/#/")
        for size, viewport in SIZES.items():
            await page.set_viewport_size(viewport)  # type: ignore[arg-type]
            await page.locator("input[name='lobby-game'][value='contract-whist']").check()
            board = page.get_by_role("region", name=re.compile("^Leaderboard"))
            await expect(board.get_by_role("heading", name="Ratings")).to_be_visible()
            people = board.locator(".leaders.ratings li")
            await expect(people.first).to_have_text(re.compile(r"\d+\??"))
            await expect(board.locator(".leaders.ratings .bot-badge")).to_have_count(0)
            await expect(board.get_by_role("heading", name="Bot ladder")).to_be_visible()
            bots = board.locator(".leaders.bots li")
            await expect(bots.first.locator(".bot-badge")).to_have_text("bot")
            await check_clean(page, f"board-ratings-{size}")
        errors.check()


async def test_a_long_line_beside_the_lobby_wraps_on_a_phone(
    cluster: Cluster, browser: Browser
) -> None:
    """A line with no place to break in the side panels (a name on a board, a long word) wraps
    there: on a phone it widened the one column, open tables and all, past the screen."""
    async with browsing(browser, DESKTOP) as (_, page, errors):
        await sign_up(page, cluster.base, "Wendeline")
        await page.locator(".side .panel").first.wait_for()
        await page.set_viewport_size(PHONES[0])  # type: ignore[arg-type]
        await page.evaluate(
            """() => { const panels = document.querySelectorAll('.side .panel');
              const line = document.createElement('p');
              line.textContent = 'W'.repeat(120);
              panels[0].appendChild(line);
              const unbreakable = document.createElement('span');
              unbreakable.style.whiteSpace = 'nowrap';
              unbreakable.textContent = 'one line that never wraps '.repeat(12);
              panels[panels.length - 1].appendChild(unbreakable); }"""
        )
        await no_overflow(page)
        errors.check()


async def test_a_fresh_player_is_told_there_is_no_game_yet(
    cluster: Cluster, browser: Browser
) -> None:
    for size, viewport in SIZES.items():
        async with browsing(browser, viewport) as (_, page, errors):
            # Signed out, the page asks for a name first, then shows the player's games.
            await sign_up(page, cluster.base, f"Nell {size}", "/#/games")
            await expect(page).to_have_url(re.compile("#/games$"))
            await expect(page.get_by_role("heading", level=1)).to_have_text("Your games")
            empty = page.locator(".games-empty")
            await expect(empty).to_contain_text("You have not finished a game yet.")
            await expect(page.locator(".games-list")).to_have_count(0)
            await expect(page.get_by_role("button", name="Show more")).to_have_count(0)
            await expect(page.get_by_role("alert")).to_have_count(0)
            await check_clean(page, f"games-empty-{size}")
            await empty.get_by_role("link", name="Play one from the lobby").click()
            await expect(page).to_have_url(re.compile("#/$"))
            await expect(page.get_by_role("button", name=re.compile("^Quick play"))).to_be_visible()
            errors.check()


# Answers of GET /api/games/mine as its contract has them: two pages of every game, and a page
# of Euchre alone; the test's route serves them by the query the page asks with.
def seat(n: int, name: str, place: int | None, **more: Any) -> dict[str, Any]:
    entry = {"seat": n, "name": name, "bot": None, "points": None, "chips": None}
    return {**entry, "place": place, "left": False, "me": False, **more}


def game(
    table: str, game_no: int, kind: str, ended_at: str, places: int, seats: list[dict[str, Any]]
) -> dict[str, Any]:
    [me] = [s for s in seats if s["me"]]
    mine = {k: v for k, v in me.items() if k != "me"}
    return {
        "table_id": table,
        "game_no": game_no,
        "game": kind,
        "ended_at": ended_at,
        "places": places,
        "me": mine,
        "seats": seats,
    }


EUCHRE = game(
    "t-eu",
    3,
    "euchre",
    "2026-12-07T23:10:00Z",
    2,
    [
        seat(0, "Tess", 1, points=10, chips=40, me=True),
        seat(1, "Bot Ada", 2, bot="easy", points=4, chips=-20),
        seat(2, "Bot Bo", 1, bot="medium", points=10, chips=40),
        seat(3, "Bot Cy", 2, bot="hard", points=4, chips=-20),
    ],
)
SWICK = game(
    "t-sw",
    1,
    "swick",
    "2026-12-06T20:00:00Z",
    3,
    [
        seat(0, "Tess", 3, chips=-130, left=True, me=True),
        seat(0, "Max", 1, chips=90),
        seat(1, "Bot Ada", 2, bot="medium", chips=90),
        seat(2, "Rita", 2, chips=-50),
    ],
)
WHIST = game(
    "t-wh",
    1,
    "contract-whist",
    "2026-12-05T18:30:00Z",
    2,
    [
        seat(0, "Tess", 1, points=23, chips=0, me=True),
        seat(1, "Bot Ada", 1, bot="easy", points=23, chips=0),
    ],
)
PAGES = {
    ("", None): {"games": [EUCHRE, SWICK], "next": "1765051200000.1.t-sw"},
    ("", "1765051200000.1.t-sw"): {"games": [WHIST], "next": None},
    ("euchre", None): {"games": [EUCHRE], "next": None},
}


async def test_show_more_and_the_filter_on_the_contract(cluster: Cluster, browser: Browser) -> None:
    asked: list[dict[str, list[str]]] = []

    async def serve(route: Route) -> None:
        query = parse_qs(urlparse(route.request.url).query)
        asked.append(query)
        assert route.request.headers.get("authorization", "").startswith("Bearer ")
        key = (query.get("game", [""])[0], query.get("before", [None])[0])
        if key[0] == "contract-whist":
            body = {"detail": "Something went wrong on the server"}
            await route.fulfill(status=500, content_type="application/json", body=json.dumps(body))
            return
        await route.fulfill(content_type="application/json", body=json.dumps(PAGES[key]))

    for size, viewport in SIZES.items():
        asked.clear()
        async with browsing(browser, viewport) as (_, page, errors):
            await page.route("**/api/games/mine?*", serve)
            await sign_up(page, cluster.base, "Tess", "/#/games")
            items = page.locator(".games-list > li")
            await expect(items).to_have_count(2)
            assert asked == [{"limit": ["20"]}], asked

            euchre = game_of(page, "t-eu", 3)
            await expect(euchre.get_by_role("heading", level=2)).to_contain_text("Euchre")
            await expect(euchre.locator(".game-place")).to_have_text("1st of 2 teams")
            await expect(euchre.locator(".game-points")).to_have_text("10 team points")
            await expect(euchre.locator(".game-chips")).to_have_text("+40¢")
            await expect(euchre.locator(".game-seats > li").nth(1)).to_have_text(
                re.compile(r"^\s*Bot Ada\s+easy bot\s*$")
            )

            swick = game_of(page, "t-sw", 1)
            await expect(swick.locator(".game-place")).to_have_text(
                re.compile(r"^3rd of 3\s*Left early$")
            )
            await expect(swick.locator(".left-early")).to_have_text("Left early")
            await expect(swick.locator(".game-points")).to_have_count(0)  # Swick has no points
            await expect(swick.locator(".game-chips")).to_have_text("−130¢")
            # The one who took the seat after is there too.
            await expect(swick.locator(".game-seats > li")).to_have_count(4)
            await expect(swick.locator(".game-seats > li").first).to_have_text(
                re.compile(r"^\s*Tess\s+you\s+left early\s*$")
            )

            more = page.get_by_role("button", name="Show more")
            await check_clean(page, f"games-pages-{size}")
            await more.click()
            await expect(items).to_have_count(3)
            assert asked[-1] == {"before": ["1765051200000.1.t-sw"], "limit": ["20"]}, asked
            whist = game_of(page, "t-wh", 1)
            await expect(whist.locator(".game-place")).to_have_text("shared 1st of 2")
            await expect(whist.locator(".game-points")).to_have_text("23 points")
            await expect(whist.locator(".game-chips")).to_have_count(0)  # 0, and no stake
            # The first game added takes the focus; no more to show.
            await expect(whist.get_by_role("heading", level=2)).to_be_focused()
            await expect(more).to_have_count(0)
            await expect(page.locator("main").get_by_role("status")).to_have_text("3 games shown")

            # One game only: the page asks again, with the game.
            await page.get_by_label("Game", exact=True).select_option("euchre")
            await expect(items).to_have_count(1)
            assert asked[-1] == {"game": ["euchre"], "limit": ["20"]}, asked
            # A refusal is said in the server's words, as an alert.
            await page.get_by_label("Game", exact=True).select_option("contract-whist")
            await expect(page.get_by_role("alert")).to_have_text(
                "Something went wrong on the server"
            )
            await expect(items).to_have_count(0)
            await expect(page.get_by_role("button", name="Try again")).to_be_visible()
            await check_clean(page, f"games-error-{size}")
            errors.check()
