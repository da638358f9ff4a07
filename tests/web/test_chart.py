"""The history chart is well-formed SVG, marks season adjustments apart from games, and escapes
every name it shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from eloleague.web.chart import ChartPoint, Series, history_svg, legend

NS = "{http://www.w3.org/2000/svg}"


def test_points_seasons_and_escaping() -> None:
    points = [
        ChartPoint("2024-03-01", 1030, 30, "g1", False),
        ChartPoint("2024-06-01", 1010, -20, "<g2>", False),
        ChartPoint("2024-12-31", 960, -50, "fin de saison", True),
        ChartPoint("2025-02-01", 1001, 41, "g3 & co", False),
    ]
    svg = history_svg(
        [Series("Zoé <b>", 1000, points)], title='Elo de "Zoé"', season_label="ajustement"
    )
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("aria-label") == 'Elo de "Zoé"'
    games = root.findall(f".//{NS}circle")
    seasons = root.findall(f".//{NS}path[@class='season-point']")
    assert len(games) == 3 and len(seasons) == 1
    assert seasons[0].find(f"{NS}title").text == "2024-12-31 · fin de saison · -50 → 960"
    assert games[1].find(f"{NS}title").text == "2024-06-01 · <g2> · -20 → 1010"
    ys = [float(c.get("cy")) for c in games]
    assert ys[0] < ys[1]  # higher rating, higher on the chart
    assert "ajustement" in svg
    two = legend([Series("a <i>", 1000, points), Series("b", 1000, points)])
    assert "&lt;i&gt;" in two and two.count("<li>") == 2
    assert legend([Series("a", 1000, points)]) == ""
    assert "style=" not in two and 'class="swatch c1"' in two  # no inline style (CSP)


def test_the_legend_classes_have_the_lines_colours() -> None:
    from importlib import resources

    from eloleague.web.chart import _COLOURS

    css = (resources.files("eloleague.web") / "static" / "style.css").read_text("utf-8")
    for n, colour in enumerate(_COLOURS):
        assert f".swatch.c{n} {{ background: {colour}; }}" in css


def test_no_history_is_an_empty_chart() -> None:
    root = ET.fromstring(history_svg([], title="x", season_label="s"))
    assert root.findall(f".//{NS}circle") == []
