"""The table fits every screen. At each kind of decision of each game, at laptop, desktop and
phone sizes (portrait and on its side): your whole hand, the decision's controls and the line
that explains it, the trick, the trump, the score and every seat's plate are inside the window
with the page at its top, and nothing covers them (``elementFromPoint`` at each card's corner
index, and at the middle of everything else but the fanned cards of a hand and of Swick's
trick). The page never scrolls itself during the game, and the toast that says why a card may
not be played covers neither the decision's buttons nor the hand. At a laptop's size and a
phone's, axe-core finds nothing against WCAG 2.2 A/AA at any decision.

Each game's figures (the share of the hand and of the controls on screen, per decision kind and
window) are written to ``artifacts/fit-<game>.json``, whether or not the check passes."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, NamedTuple

import pytest
from playwright.async_api import Browser, Page

from tests.browser.support import (
    ROOT,
    Seats,
    axe_violations,
    browsing,
    decide,
    patient_choice,
    python_table,
    shoot,
    sign_up,
    start_game,
)
from tests.services.cluster import Cluster

WINDOWS = {
    "laptop 1280x720": (1280, 720),
    "laptop 1366x657": (1366, 657),
    "laptop 1366x768": (1366, 768),
    "desktop 1920x1080": (1920, 1080),
    "phone 360x740": (360, 740),
    "phone 390x844": (390, 844),
    "phone 430x932": (430, 932),
    "phone on its side 740x360": (740, 360),
    "phone on its side 844x390": (844, 390),
}

# Where each decision is also judged by axe-core (WCAG 2.2 A/AA, every impact).
AXE_WINDOWS = {"laptop 1366x768", "phone 390x844"}

# What must be in sight at a decision, by the names the figures use.
NEEDED = {
    "hand": ".hand .hand-card, .eu-hand .hand-card",
    "controls": ".my-area [data-decision] button, .plaque[data-decision] button",
    "trick": ".trick-card, .eu-played, .wh-played",
    "trump": ".trump, .eu-trump-mark, .eu-turn-up, .wh-trump",
    "score": ".money-area .chips, .pegboard, .wh-score",
    "plates": ".seat .plate, .eu-plate",
    # The line under the decision's prompt that explains it: shown at every size.
    "explanation": ".my-area [data-decision] .detail, .plaque[data-decision] .detail",
}


class Game(NamedTuple):
    settings: dict[str, Any]
    others: int  # Python players beside the page's
    kinds: frozenset[str]  # every kind of decision the game asks of a player
    must: frozenset[str]  # those the scripted table below always brings within a few hands


# The Python players pass and bid nothing, so the page's player is asked everything in turn:
# at Swick the dealer sets the ante, keeps trump, knocks, draws and discards a fourth card; at
# Euchre the page picks the turn-up up when it deals (a discard) and passes otherwise, so the
# turn-up goes round and it names trump; at Contract Whist it bids highest and chooses trump.
GAMES = {
    "Swick": Game(
        {},
        2,
        frozenset({"ready", "ante", "trump", "knock", "draw", "discard", "face_trump", "play"}),
        frozenset({"ready", "trump", "knock", "draw", "discard", "play"}),
    ),
    # Swick's fullest tables, whose trick is two rows (one on a phone on its side) with the
    # trump and the pot beside it: the decisions a hand brings (the rarer ante and face trump
    # are the three-seat case's), and at five seats those every hand brings.
    "Swick, six seats": Game(
        {},
        5,
        frozenset({"ready", "trump", "knock", "draw", "discard", "play"}),
        frozenset({"ready", "knock", "draw", "play"}),
    ),
    "Swick, five seats": Game(
        {},
        4,
        frozenset({"ready", "knock", "draw", "play"}),
        frozenset({"ready", "knock", "draw", "play"}),
    ),
    "Euchre": Game(
        {"game": "euchre", "target": 10},
        3,
        frozenset({"order", "pick_up", "name", "discard", "play"}),
        frozenset({"order", "pick_up", "name", "discard", "play"}),
    ),
    "Contract Whist": Game(
        {"game": "contract-whist"},
        3,
        frozenset({"bid", "trump", "play"}),
        frozenset({"bid", "trump", "play"}),
    ),
    # The fullest Contract Whist table.
    "Contract Whist, five seats": Game(
        {"game": "contract-whist"},
        4,
        frozenset({"bid", "trump", "play"}),
        frozenset({"bid", "trump", "play"}),
    ),
}

# Between hands the result is a panel over the felt on purpose: it is not a decision to fit.
NOT_CHECKED = {"next_hand", "none"}


class Passing(Seats):
    """Python players who pass, bid nothing and leave trump whenever they may."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        options = [o["action"] for o in view["options"] if o["legal"]]
        for wanted in (
            {"kind": "pass"},
            {"kind": "bid", "bid": 0},
            {"kind": "trump", "keep": False},
            {"kind": "knock", "knock": True},
        ):
            if wanted in options:
                return wanted
        return patient_choice(view)


# Each group's elements: the share of each inside the window, and for each one that is inside,
# what covers it, if anything, at its corner index (a card in a fanned hand shows only that) and,
# for everything else, at its middle too.
MEASURE = """(needed) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const share = (r) => {
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    return r.width * r.height ? (w * h) / (r.width * r.height) : 0;
  };
  const cover = (el) => {
    const r = el.getBoundingClientRect();
    // A card's corner index, clear of the slight turn a card of Swick's trick is given.
    const points = [[r.left + Math.min(12, r.width * 0.2), r.top + Math.min(14, r.height * 0.15)]];
    if (!el.matches('.hand-card, .trick-card')) {
      points.push([r.left + r.width / 2, r.top + r.height / 2]);
    }
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) {
        if (!hit) return 'nothing';
        const classes = String(hit.className).trim().split(/\\s+/).join('.');
        return `${hit.tagName.toLowerCase()}.${classes}`;
      }
    }
    return null;
  };
  const out = { scrollY: window.scrollY, groups: {} };
  for (const [name, selector] of Object.entries(needed)) {
    const els = [...document.querySelectorAll(selector)].filter(
      (e) => name === 'explanation' ? e.textContent.trim() : e.getClientRects().length,
    );
    out.groups[name] = els.map((e) => {
      const s = share(e.getBoundingClientRect());
      const label = e.dataset.card || e.textContent.trim().slice(0, 24);
      return { label, share: Math.round(s * 100) / 100, coveredBy: s > 0.999 ? cover(e) : null };
    });
  }
  return out;
}"""

# Every scroll of the window during the game, with the page's own scrolls among them.
SCROLLS = """(() => {
  window.__scrolls = [];
  window.addEventListener('scroll', () => window.__scrolls.push(window.scrollY), { passive: true });
})();"""


async def decision(page: Page) -> str | None:
    """The kind of the page's decision; Euchre's dealer picking the turn-up up is ``pick_up``,
    apart from the others' ``order``."""
    found = page.locator(".my-area [data-decision], .plaque[data-decision]")
    try:
        if not await found.count():
            return None
        kind = await found.first.get_attribute("data-decision", timeout=500)
        order = found.first.locator("button[data-choice='order']")
        if kind == "order" and "Pick it up" in await order.inner_text(timeout=500):
            return "pick_up"
        return kind
    except Exception:
        return None  # the view moved on


async def take(page: Page, kind: str) -> None:
    """Take the decision as the scripted table wants it (``GAMES``), with the mouse."""
    bar = page.locator(".my-area [data-decision], .plaque[data-decision]")
    try:
        if kind == "trump" and await page.locator(".my-area [data-decision]").count():
            await bar.get_by_role("button", name="Keep trump").click(timeout=2000)
        elif await page.locator(".my-area [data-decision]").count():
            await decide(page)
        elif kind in ("play", "discard"):
            legal = page.locator(".eu-hand.deciding .hand-card.legal")
            await legal.first.click(timeout=2000)
            await legal.first.click(timeout=2000)
        elif kind in ("order", "pick_up"):
            choice = "order" if kind == "pick_up" else "pass"
            await bar.locator(f"button[data-choice='{choice}']").click(timeout=2000)
        elif kind == "bid":
            await bar.locator("button[data-choice^='bid-']:not([disabled])").last.click()
        else:  # naming trump, choosing it, or the next hand
            choices = bar.locator("button[data-choice]:not([disabled]):not([data-choice='pass'])")
            if not await choices.count():
                choices = bar.locator(".plaque-buttons button:not([disabled])")
            await choices.first.click(timeout=2000)
    except Exception:
        return  # a timeout decided, or another update came under the click


async def settled(page: Page) -> dict[str, Any]:
    """The measure once the layout is still: two readings in a row alike (a deal or a card's
    flight moves things for well under a second)."""
    last: dict[str, Any] | None = None
    for _ in range(30):
        now: dict[str, Any] = await page.evaluate(MEASURE, NEEDED)
        if now == last:
            return now
        last = now
        await asyncio.sleep(0.1)
    assert last is not None
    return last


def problems(reading: dict[str, Any]) -> list[str]:
    found = []
    if reading["scrollY"]:
        found.append(f"the page is scrolled by {reading['scrollY']}px")
    for group, items in reading["groups"].items():
        for item in items:
            if item["share"] < 1:
                found.append(f"{group} {item['label']!r}: {item['share']:.0%} on screen")
            elif item["coveredBy"]:
                found.append(f"{group} {item['label']!r}: covered by {item['coveredBy']}")
    return found


def shares(reading: dict[str, Any], group: str) -> float | None:
    items = reading["groups"][group]
    return round(sum(i["share"] for i in items) / len(items), 2) if items else None


# The decision's buttons and the hand's cards that a toast's box overlaps.
UNDER_TOAST = """() => {
  const toast = document.querySelector('.toast');
  if (!toast) return null;
  const t = toast.getBoundingClientRect();
  return [...document.querySelectorAll(
      '.my-area [data-decision] button, .plaque[data-decision] button, .hand-card')]
    .filter((e) => {
      const r = e.getBoundingClientRect();
      const across = r.left < t.right && t.left < r.right;
      return r.width && across && r.top < t.bottom && t.top < r.bottom;
    })
    .map((e) => e.dataset.card || e.textContent.trim());
}"""


async def toast_covers(page: Page) -> dict[str, list[str]]:
    """Tap a card that may not be played: the toast saying why covers none of the decision's
    buttons and none of the hand, at a laptop's size and a phone's. Nothing when no card of
    the hand is refused now."""
    refused = page.locator(".hand-card.illegal")
    if not await refused.count():
        return {}
    try:
        await refused.first.click(timeout=2000)
        await page.locator(".toast").wait_for(timeout=2000)
    except Exception:
        return {}  # the decision was taken for this player meanwhile
    covers = []
    for width, height in ((1280, 800), (390, 844), (844, 390)):
        await page.set_viewport_size({"width": width, "height": height})
        under = await page.evaluate(UNDER_TOAST)
        if under:
            covers.append(f"the why-not toast at {width}x{height} covers {under}")
    await page.set_viewport_size({"width": 1280, "height": 800})
    return {"covers": covers}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_decision_fits_every_window(
    cluster: Cluster, browser: Browser, game: str
) -> None:
    rules = GAMES[game]
    slug = re.sub(r"[^a-z0-9]+", "-", game.lower())
    names = ["Una", "Vic", "Wes", "Xan", "Yul"][: rules.others]
    async with (
        python_table(cluster.base, names, **rules.settings) as (table, players),
        browsing(browser, reduced_motion="reduce", scripts=[SCROLLS]) as (_, page, errors),
    ):
        await sign_up(
            page,
            cluster.base,
            f"Fit {game.split(maxsplit=1)[0].strip(',')}",
            f"/#/table/{table}/join",
        )
        await page.locator(".seat.me, .eu-seat.me, .wh-seat.me").wait_for()
        passing = Passing(players, table)
        passing.start()
        await start_game(players[0], table)
        figures: dict[str, dict[str, Any]] = {}
        failures: list[str] = []
        why_not: dict[str, list[str]] = {}
        loop = asyncio.get_running_loop()
        # The kinds a table brings sooner or later are checked while the run lasts; those it
        # always brings must be met.
        enough = loop.time() + 150
        while not rules.kinds <= figures.keys() and loop.time() < enough:
            kind = await decision(page)
            if kind is None or kind in NOT_CHECKED:
                if kind == "next_hand":
                    await take(page, kind)
                await asyncio.sleep(0.15)
                continue
            if kind not in figures:
                readings = {}
                for window, (width, height) in WINDOWS.items():
                    await page.set_viewport_size({"width": width, "height": height})
                    readings[window] = await settled(page)
                    if problems(readings[window]):  # a picture of what did not fit, to look at
                        await shoot(page, f"fit-{slug}-{kind}-{width}x{height}")
                    if window in AXE_WINDOWS:
                        failures += [
                            f"{kind} at {window}: axe {v}" for v in await axe_violations(page)
                        ]
                await page.set_viewport_size({"width": 1280, "height": 800})
                if await decision(page) == kind:  # the reading is of this decision throughout
                    figures[kind] = {
                        w: {"hand": shares(r, "hand"), "controls": shares(r, "controls")}
                        for w, r in readings.items()
                    }
                    failures += [
                        f"{kind} at {w}: {p}" for w, r in readings.items() for p in problems(r)
                    ]
            if kind == "play" and not why_not:
                why_not = await toast_covers(page)
            await take(page, kind)
            await asyncio.sleep(0.15)
        await passing.stop()
        failures += why_not.get("covers", [])
        scrolls = await page.evaluate("window.__scrolls")
        out = ROOT / "artifacts" / f"fit-{slug}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"figures": figures, "problems": failures}, indent=1))
        assert rules.must <= figures.keys(), f"met only {sorted(figures)} at {game}"
        assert not failures, "\n".join(failures[:40])
        assert not [y for y in scrolls if y], f"the page scrolled itself: {scrolls[:10]}"
        errors.check()
