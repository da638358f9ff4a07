"""Every page type of every preset's demo league, in French and English, at 390 and 1280 px in
Chromium: nothing wider than the window (neither the page nor a box that scrolls or clips
sideways), and axe-core (vendored for the tests) finds no serious or critical violation.

``ELOLEAGUE_SCREENSHOTS=/tmp/shots`` keeps a full-page screenshot of each view, to look at.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from rich.console import Console

from eloleague.demo import build
from eloleague.league import League
from tests.e2e.conftest import screenshot
from tests.web.conftest import LiveServer, Site

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}

# What sticks out sideways: the page itself, any box that scrolls or clips its content sideways,
# and any visible element reaching past the window's right edge.
OVERFLOW = """() => {
  const w = window.innerWidth;
  const out = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/ +/g, '.') : '');
  if (document.scrollingElement.scrollWidth > w) out.push('page ' + document.scrollingElement.scrollWidth + ' > ' + w);
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.right <= 0) continue;  // visually hidden (skip link, menu checkbox)
    if (cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
      out.push(name(el) + ' clips or scrolls ' + el.scrollWidth + ' > ' + el.clientWidth);
    if (r.right > w + 1) out.push(name(el) + ' ends at ' + Math.round(r.right) + ' > ' + w);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, list[str]]]:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    leagues = build(db, Console(file=io.StringIO()))
    urls = ["/", "/login"]
    for league in leagues:
        urls += _league_urls(league)
    with LiveServer(Site(db, "", "")) as server:
        yield server, urls


def _league_urls(league: League) -> list[str]:
    base = f"/leagues/{quote(league.name)}"
    rows = league.ranking()
    top = rows[0].player
    busiest = max(rows, key=lambda r: (r.games, r.player)).player
    report = league.player(busiest)
    game = next(e.game for e in reversed(report.history) if e.game)
    urls = [
        base,
        f"{base}?mode=&role=",  # every row, every mode and role
        f"{base}/players/{quote(top)}",
        f"{base}/players/{quote(busiest)}",
        f"{base}/games/{quote(game)}",
        f"{base}/events",
        f"{base}/titles",
        f"{base}/rules",
        f"{base}/list",
    ]
    events = league.events(newest_first=True, limit=1)
    if events:
        urls.append(f"{base}/events/{quote(events[0].name)}")
    return urls


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_page_fits_and_passes_axe(
    browser: Any, demo: tuple[LiveServer, list[str]], width: str, lang: str
) -> None:
    server, urls = demo
    # bypass_csp: axe-core is injected by the test (the site's pages run no inline script);
    # test_site.py checks that the pages themselves need nothing the policy forbids.
    context = browser.new_context(viewport=WIDTHS[width], locale="fr-FR", bypass_csp=True)
    page = context.new_page()
    axe = AXE.read_text("utf-8")
    problems: dict[str, list[str]] = {}
    for url in urls:
        sep = "&" if "?" in url else "?"
        response = page.goto(f"{server.base}{url}{sep}lang={lang}")
        assert response is not None and response.status == 200, url
        assert page.locator("html").get_attribute("lang") == lang
        found = page.evaluate(OVERFLOW)
        # a phone shows the short summaries, a desktop the columns: never both
        hidden = ".wide-only" if width == "phone" else ".narrow-only"
        shown_twice = page.evaluate(
            f"[...document.querySelectorAll('{hidden}')].filter(e => e.offsetParent).length"
        )
        if shown_twice:
            found.append(f"{shown_twice} {hidden} element(s) visible")
        page.add_script_tag(content=axe)
        result = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
            ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"
        )
        if found or result:
            problems[url] = [*found[:5], *result]
        slug = url.strip("/").replace("/", "_").replace("?", "_").replace("%", "") or "home"
        screenshot(page, f"{width}-{lang}-{slug[:80]}")
    context.close()
    assert problems == {}


def test_the_phone_menu_opens_from_the_keyboard(
    browser: Any, demo: tuple[LiveServer, list[str]]
) -> None:
    server, urls = demo
    context = browser.new_context(viewport=WIDTHS["phone"], locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.base}{urls[2]}?lang=en")
    menu = page.locator("#menu")
    assert not menu.is_visible()
    for _ in range(5):  # skip link, league name, then the Menu button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "menu-toggle":
            break
    assert page.evaluate("document.activeElement.id") == "menu-toggle"
    page.keyboard.press("Space")
    assert menu.is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Ranking"
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert "/leagues/" in page.url
    context.close()
