"""A visitor and an officer in a real Chromium against a real server (issue 5's checks)."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from tests.e2e.conftest import screenshot
from tests.sheets.fill import filled_workbook, header_columns, to_bytes
from tests.web.conftest import BE, PASSWORD, LiveServer, Site

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def test_visitor_finds_a_player_opens_the_chart_and_switches_to_french(
    browser: Any, live: LiveServer, site: Site
) -> None:
    top = League.open(str(site.db), BE).ranking(top=3)[2]
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=viewport, locale="en-GB")
        page = context.new_page()
        page.goto(f"{live.base}/leagues/{BE}")
        assert page.locator("html").get_attribute("lang") == "en"
        page.get_by_placeholder("Search a name").fill(top.player[:6])
        page.get_by_role("button", name="Show").click()
        page.wait_for_url(re.compile(r"q="))
        screenshot(page, f"ranking-{name}")
        page.get_by_role("link", name=top.player, exact=True).click()
        page.wait_for_url(re.compile("/players/"))
        assert page.locator("h1.player-name").inner_text() == top.player
        # drawn wide for screens and narrow for phones; CSS shows one
        chart = page.locator("svg.chart-narrow" if name == "phone" else "svg.chart-wide")
        page.get_by_text("Chart", exact=True).click()  # the chart folds away...
        expect(chart).to_be_hidden()
        page.get_by_text("Chart", exact=True).click()  # ...and opens again
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] <= viewport["width"]
        assert chart.locator("circle.game-point").count() == top.games
        chart.locator("circle.game-point").last.hover()
        screenshot(page, f"player-{name}")
        if name == "phone":  # the links are behind the Menu button on a phone
            page.get_by_text("Menu", exact=True).click()
        page.get_by_role("link", name="Français").click()
        page.wait_for_url(re.compile("lang=fr"))
        assert page.locator("html").get_attribute("lang") == "fr"
        expect(page.get_by_role("heading", name="Historique de l’Elo")).to_be_visible()
        if name == "phone":
            page.get_by_text("Menu", exact=True).click()
        page.get_by_role("link", name="Classement").click()  # French is remembered
        expect(page.get_by_role("columnheader", name="Rang")).to_be_visible()
        grade = page.get_by_role("columnheader", name="Grade")  # a phone keeps the essentials
        expect(grade).to_be_hidden() if name == "phone" else expect(grade).to_be_visible()
        assert page.locator("html").get_attribute("lang") == "fr"
        context.close()


def _sheet(path: Path, result_a: str) -> Path:
    """A referee workbook of two games at a new event; the second game's result is ``result_a``."""
    rules = League.open(str(path.parent / "league.db"), BE).rules
    day = dt.date(2026, 4, 11)
    games = [
        GameRecord(
            day,
            (
                Side((Participant("Hélène Nouvelle"),), "decisive_victory"),
                Side((Participant("Marie P002"),), "defeat"),
            ),
            round=1,
        ),
        GameRecord(
            day,
            (
                Side((Participant("Paul P003"),), "draw"),
                Side((Participant("Hélène Nouvelle"),), "draw"),
            ),
            round=2,
        ),
    ]
    book = filled_workbook(rules, games, "fr", event="Tournoi du navigateur")
    ws = book["Résultats"]
    header, cols = header_columns(ws)
    ws.cell(row=header + 2, column=cols["Résultat"], value=result_a)
    target = path.parent / "tournoi.xlsx"
    target.write_bytes(to_bytes(book))
    return target


def test_officer_uploads_a_sheet_fixes_it_and_sees_the_ranking_change(
    browser: Any, live: LiveServer, site: Site, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live.base}/admin")
    page.get_by_label("Nom").fill("Claire")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("link", name="Envoyer une feuille de résultats").first.click()

    bad = _sheet(site.db, "Victoire totale de A")
    page.get_by_label(re.compile("Fichier de résultats")).set_input_files(str(bad))
    page.get_by_role("button", name="Vérifier le fichier").click()
    alert = page.get_by_role("alert")
    text = alert.inner_text()
    assert "tournoi.xlsx" in text and "Résultats" in text and "Victoire totale de A" in text
    assert re.search(r"(ligne|row) \d+", text), text
    screenshot(page, "upload-error")
    assert "Hélène Nouvelle" not in League.open(str(site.db), BE).players()

    good = _sheet(site.db, "Match nul")
    page.get_by_label(re.compile("Fichier de résultats")).set_input_files(str(good))
    page.get_by_role("button", name="Vérifier le fichier").click()
    # Waits for the preview page: the error page is still showing when the click returns.
    expect(page.get_by_role("heading", name=re.compile("Aperçu"))).to_be_visible()
    expect(page.get_by_role("cell", name="Hélène Nouvelle")).to_be_visible()
    screenshot(page, "upload-preview")
    page.get_by_role("button", name="Confirmer l’import").click()
    page.wait_for_url(re.compile(r"/leagues/[^/]+$"))
    assert (
        "2 partie" in page.locator(".flash").inner_text()
        or "2 game" in page.locator(".flash").inner_text()
    )
    page.get_by_placeholder("Chercher un nom").fill("Nouvelle")
    page.get_by_role("button", name="Afficher").click()
    page.wait_for_url(re.compile(r"q="))
    row = page.get_by_role("row", name=re.compile("Hélène Nouvelle"))
    expect(row).to_be_visible()
    rating = int(row.locator("td.rating").inner_text())
    expected = League.open(str(site.db), BE).player("Hélène Nouvelle").standings[0].rating
    assert rating == int(expected) and rating > 1000
    screenshot(page, "ranking-after")
    context.close()


def test_the_api_documentation_works_offline(browser: Any, live: LiveServer) -> None:
    """Swagger UI comes from the package (no CDN): with every other host blocked it still lists
    the endpoints."""
    context = browser.new_context(viewport=DESKTOP)
    outside: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith(live.base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    refused = _csp_refusals(page)
    page.goto(f"{live.base}/api/v1/docs")
    expect(page.get_by_text("/api/v1/leagues/{league}/ranking").first).to_be_visible()
    page.get_by_text("/api/v1/leagues/{league}/ranking").first.click()  # an operation opens
    expect(page.get_by_text("Parameters").first).to_be_visible()
    screenshot(page, "api-docs")
    assert outside == []
    assert refused == []  # the strict Content-Security-Policy blocked nothing it needs
    context.close()


def _csp_refusals(page: Any) -> list[str]:
    """The Content-Security-Policy violations Chromium reports on ``page`` (filled as it goes)."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


def test_pages_need_nothing_the_content_security_policy_forbids(
    browser: Any, live: LiveServer, site: Site
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    refused = _csp_refusals(page)
    pools = Counter(r.player for r in League.open(str(site.db), "Diplomatie").ranking(role="*"))
    several_pools = next(name for name, count in pools.most_common() if count >= 2)
    for path in ("/", f"/leagues/{BE}", "/leagues/Diplomatie/events", "/login"):
        page.goto(live.base + path)
        expect(page.locator("main")).to_be_visible()
    page.goto(live.base + "/leagues/Diplomatie/players/" + several_pools)
    # A player of many pools sees one line at a time; the legend's swatches (the line, the
    # season marks) take their colours from the stylesheet, not from inline styles.
    legend = page.locator(".chart-legend .swatch")
    assert legend.count() >= 1
    colours = {s.evaluate("e => getComputedStyle(e).backgroundColor") for s in legend.all()}
    assert "rgba(0, 0, 0, 0)" not in colours and len(colours) == legend.count()
    page.goto(live.base + "/login")
    page.get_by_label("Name").fill("Claire")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile("/admin"))
    page.goto(f"{live.base}/leagues/{BE}/tools/evaluate")
    check = page.locator("label.check")
    assert check.evaluate("e => getComputedStyle(e).flexDirection") == "row"
    assert refused == []
    context.close()
