"""Every page type of every preset's demo league, in French and English, at 360 px (the
narrowest common phone, the width the stylesheet promises) and 1280 px in Chromium: nothing wider
than the window (neither the page nor a box that scrolls or clips sideways), no header broken
inside a word, and axe-core (vendored for the tests) finds no serious or critical violation.

``ELOLEAGUE_SCREENSHOTS=/tmp/shots`` keeps a full-page screenshot of each view, to look at.
"""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from rich.console import Console

from eloleague.demo import DEMO_PASSWORD, DEMO_USER, build
from eloleague.league import League
from tests.e2e.conftest import screenshot
from tests.web.conftest import LiveServer, Site

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WIDTHS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}

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

# Headers (table headers, the key figures' labels; or the elements of another selector) with a word
# split over two lines: 'Manifestati' over 'on', 'Adversair' over 'e'. Each word's boxes are
# measured (a line may end after a hyphen, or at a soft hyphen, which shows one): one word, one line.
BROKEN_WORDS = """(selector = 'th, dt') => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.offsetParent) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/[^\\s\\u00ad-]+/g)) {  // a hyphen may break
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
          .map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(el.tagName.toLowerCase() + ' word broken: ' + m[0]);
      }
    }
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
        found = _view_problems(page, width, axe)
        if found:
            problems[url] = found
        slug = url.strip("/").replace("/", "_").replace("?", "_").replace("%", "") or "home"
        screenshot(page, f"{width}-{lang}-{slug[:80]}")
    context.close()
    assert problems == {}


def _view_problems(page: Any, width: str, axe: str) -> list[str]:
    """What sticks out sideways on the page shown, a word of a heading or a cell split over two
    lines (the demo's names and titles all fit a phone's cells whole: 'Quartermaster' was cut
    into 'Quarterm|aster' on the rules page), and axe-core's serious or critical findings."""
    found: list[str] = page.evaluate(OVERFLOW) + page.evaluate(BROKEN_WORDS, "th, dt, td")
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
    return [*found[:5], *result]


def _signed_in(browser: Any, server: LiveServer, width: str, lang: str) -> tuple[Any, Any]:
    """A browser context at ``width`` and its page, signed in as the demo's officer."""
    context = browser.new_context(viewport=WIDTHS[width], locale="fr-FR", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.base}/login?lang={lang}")
    page.fill("input[name=name]", DEMO_USER)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.locator("form[action='/login'] button[type=submit]").click()
    page.wait_for_url("**/admin")
    return context, page


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("width", list(WIDTHS))
def test_officer_pages_fit_and_pass_axe(
    browser: Any, demo: tuple[LiveServer, list[str]], width: str, lang: str, tmp_path: Path
) -> None:
    """Signed in as the demo's officer: the dashboard, a new league, an upload and its preview,
    the upload waiting for review, a game's correction, a season's closing confirmation and the
    league's face (settings), at both widths, in both languages."""
    server, _urls = demo
    db = server.site.db
    league = League.open(str(db), "bataille-empire")
    base = f"/leagues/{quote(league.name)}"
    context, page = _signed_in(browser, server, width, lang)
    axe = AXE.read_text("utf-8")
    problems: dict[str, list[str]] = {}

    def check(name: str) -> None:
        assert page.locator("html").get_attribute("lang") == lang, name
        found = _view_problems(page, width, axe)
        if found:
            problems[name] = found
        screenshot(page, f"officer-{width}-{lang}-{name}")

    game = league.games()[-1].id or ""
    for name, url in (
        ("admin", "/admin"),
        ("new-league", "/admin/leagues/new"),
        ("upload", f"{base}/upload"),
        ("face", f"{base}/face"),
        ("edit", f"{base}/games/{quote(game)}/edit"),
    ):
        response = page.goto(f"{server.base}{url}?lang={lang}")
        assert response is not None and response.status == 200, url
        check(name)
    # An upload: its preview, then the upload waiting for review.
    page.goto(f"{server.base}{base}/upload?lang={lang}")
    page.set_input_files("input[name=sheet]", str(_one_more_game(league, tmp_path)))
    page.locator("form[enctype] button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("form[action*='/confirm']").count() == 1, page.content()[:2000]
    check("preview")
    review = page.locator("form[action*='/confirm']").get_attribute("action") or ""
    response = page.goto(f"{server.base}{review.removesuffix('/confirm')}?lang={lang}")
    assert response is not None and response.status == 200
    check("review")
    # A season's closing: the confirmation page listing every adjustment.
    page.goto(f"{server.base}{base}?lang={lang}")
    page.fill("input[name=end]", _closable_end(league).isoformat())
    page.locator("form[action$='/seasons/close'] button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("input[name=confirm]").count() == 1, page.content()[:2000]
    check("season-close")
    # The league's check after a hand edit of its history: the differences, then the repair.
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE ledger SET delta = delta + 1 WHERE seq < 25 AND league_id = ?", (league.id,)
        )
    page.goto(f"{server.base}/admin?lang={lang}")
    page.locator(f"form[action='{base}/verify'] button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("form[action$='/recompute']").count() == 1, page.content()[:2000]
    check("verify")
    page.locator("form[action$='/recompute'] button[type=submit]").click()
    page.wait_for_load_state()
    assert League.open(str(db), "bataille-empire").verify().agrees
    context.close()
    assert problems == {}


# The tools' results are tables of figures (each model's five measures, each player's ranks under
# both rule sets): on a phone such a table scrolls sideways in its own box, the page does not.
OVERFLOW_BUT_TABLES = OVERFLOW.replace(
    "    const cs = getComputedStyle(el);",
    "    const box = el.closest('div.scroll');\n"
    "    if (box && box.querySelector(':scope > table')) continue;\n"
    "    const cs = getComputedStyle(el);",
)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_officers_tools_fit(
    browser: Any, demo: tuple[LiveServer, list[str]], width: str, lang: str
) -> None:
    """Signed in as the demo's officer, each tool's form and its result: teams balanced, the
    history compared under another preset, predictions evaluated. Nothing wider than the window
    but a table of figures in its scrolling box (a form's select of rule sets made the page 388 px
    wide on a 360 px phone; the charts, drawn 640 px wide, shrink to the screen)."""
    server, _urls = demo
    base = "/leagues/bataille-empire"
    context, page = _signed_in(browser, server, width, lang)
    axe = AXE.read_text("utf-8")
    problems: dict[str, list[str]] = {}

    def check(name: str) -> None:
        assert page.locator("html").get_attribute("lang") == lang, name
        found = page.evaluate(OVERFLOW_BUT_TABLES) + page.evaluate(BROKEN_WORDS)
        page.add_script_tag(content=axe)
        found += page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id)"
        )
        if found:
            problems[name] = found[:6]
        screenshot(page, f"tools-{width}-{lang}-{name}")

    for tool in ("balance", "compare", "evaluate"):
        response = page.goto(f"{server.base}{base}/tools/{tool}?lang={lang}")
        assert response is not None and response.status == 200, tool
        check(tool)
        if tool == "balance":
            page.locator("main form button[type=submit]").first.click()
        else:
            page.select_option("select[name=preset]", "bataille-empire-en")
            page.locator("main form button[type=submit]").first.click()
        page.wait_for_load_state()
        assert page.locator(".error-box").count() == 0, page.content()[:2000]
        if tool != "balance":  # the result's chart, as wide as the window at most
            chart = page.locator("figure svg").first.bounding_box()
            assert chart is not None and chart["x"] + chart["width"] <= WIDTHS[width]["width"]
        # the models' figures and the players' ratings side by side fit a phone (a phone's
        # columns, the others summed up under the name), names broken between their words only
        table = {"evaluate": "table.metrics", "compare": "table.side-by-side"}.get(tool)
        if table is not None:
            box = f"document.querySelector('{table}').parentElement"
            assert page.evaluate(f"{box}.scrollWidth <= {box}.clientWidth + 1"), tool
            assert page.evaluate(BROKEN_WORDS, f"{table} td:first-child") == [], tool
        check(f"{tool}-result")
    context.close()
    assert problems == {}


def _one_more_game(league: League, folder: Path) -> Path:
    """A JSON Lines file with the league's last game played again the day after."""
    import datetime as dt
    import json

    out = io.StringIO()
    league.export_jsonl(out)
    game = json.loads(out.getvalue().splitlines()[-1])
    day = dt.date.fromisoformat(game["date"]) + dt.timedelta(days=1)
    game.update(id="layout-test", date=day.isoformat())
    game.pop("event", None)
    path = folder / "one-more.jsonl"
    path.write_text(json.dumps(game, ensure_ascii=False) + "\n", "utf-8")
    return path


def _closable_end(league: League) -> Any:
    """The last day of the first season ending on or after the league's last game."""
    from eloleague.engine.seasons import season_end

    last = league.game_span()[1]
    assert last is not None
    end = season_end(league.rules.season, last)
    assert end is not None, "the rule set has no seasons"
    return end


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


# Each rating change of the player page's list: where its date, its description and its change
# stand ({left, right, top, bottom} of each), and the list's width.
CHANGE_BOXES = """() => [...document.querySelectorAll('ul.changes:not(.by-player) summary')]
  .map(s => {
    const box = (e) => { const r = e.getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    return {summary: box(s), when: box(s.querySelector('.when')),
            what: box(s.querySelector('.what')), num: box(s.querySelector('.num'))};
  })"""


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_players_changes_read_across_a_phone(
    browser: Any, demo: tuple[LiveServer, list[str]], width: str
) -> None:
    """On a phone, a change's date and figures share its first line and what happened (a
    seven-player game's six opponents) runs below across the whole width, not down a column a
    third as wide; a desktop keeps one line: date, what happened, figures."""
    server, urls = demo
    player = next(u for u in urls if u.startswith("/leagues/diplomacy/players/"))
    context = browser.new_context(viewport=WIDTHS[width], locale="fr-FR")
    page = context.new_page()
    page.goto(f"{server.base}{player}?lang=fr")
    changes = page.evaluate(CHANGE_BOXES)
    assert len(changes) >= 10
    for c in changes:
        inner = c["summary"]["right"] - c["summary"]["left"]
        if width == "phone":
            assert c["what"]["top"] >= c["when"]["bottom"] - 1, c  # below the date
            assert c["what"]["right"] - c["what"]["left"] > 0.9 * inner, c  # across the line
            assert abs(c["num"]["top"] - c["when"]["top"]) < 8, c  # figures beside the date
        else:
            assert c["when"]["right"] <= c["what"]["left"] <= c["num"]["left"], c
            assert abs(c["what"]["top"] - c["when"]["top"]) < 8, c
    context.close()


# Each element's lines: the distinct tops of its text's boxes.
LINES_OF = """(selector) => [...document.querySelectorAll(selector)].filter(e => e.offsetParent)
  .map(e => { const range = document.createRange(); range.selectNodeContents(e);
    return new Set([...range.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top))).size; })"""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_event_s_standings_say_each_player_s_games_and_performance_in_two_lines(
    browser: Any, demo: tuple[LiveServer, list[str]], lang: str
) -> None:
    """On a 360 px phone, the standings' summary under a player's name ("5 parties ·
    performance 1345") breaks at its dot only: it ran over three lines, "1345" alone on the last
    one; and the table stays inside the page's margins."""
    server, urls = demo
    event = next(u for u in urls if u.startswith("/leagues/adlg/events/"))
    context = browser.new_context(viewport=WIDTHS["phone"], locale="fr-FR")
    page = context.new_page()
    page.goto(f"{server.base}{event}?lang={lang}")
    summaries = page.evaluate(LINES_OF, "table .sub.narrow-only")
    assert len(summaries) >= 8 and max(summaries) <= 2, summaries
    assert set(page.evaluate(LINES_OF, "table .sub .piece")) == {1}
    main = page.evaluate("getComputedStyle(document.querySelector('main')).paddingRight")
    right = page.evaluate("document.querySelector('main table').getBoundingClientRect().right")
    assert right <= WIDTHS["phone"]["width"] - float(main.removesuffix("px")) + 1, right
    context.close()
