"""The history chart is well-formed SVG, marks season adjustments apart from games, and escapes
every name it shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from eloleague.web.chart import NARROW, WIDE, ChartPoint, Series, history_svg, legend

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
    season_title, game_title = seasons[0].find(f"{NS}title"), games[1].find(f"{NS}title")
    assert season_title is not None and game_title is not None
    assert season_title.text == "2024-12-31 · fin de saison · -50 → 960"
    assert game_title.text == "2024-06-01 · <g2> · -20 → 1010"
    ys = [float(c.attrib["cy"]) for c in games]
    assert ys[0] < ys[1]  # higher rating, higher on the chart
    two = legend([Series("a <i>", 1000, points), Series("b", 1000, points)])
    assert "&lt;i&gt;" in two and two.count("<li>") == 2
    assert "style=" not in two  # colours from the stylesheet's classes (strict CSP)
    assert legend([Series("a", 1000, points)]) == ""
    assert "ajustement" in legend(
        [Series("a", 1000, points)], season_label="ajustement", seasons=True
    )


def test_the_x_axis_is_time_and_labels_stay_inside() -> None:
    points = [
        ChartPoint("2023-01-01", 1010, 10, "g1", False),
        ChartPoint("2023-01-02", 1020, 10, "g2", False),
        ChartPoint("2024-07-01", 1030, 10, "g3", False),  # eighteen months later
        ChartPoint("2024-07-02", 1040, 10, "g4", False),
    ]
    for size in (WIDE, NARROW):
        svg = history_svg(
            [Series("x", 1000, points)],
            title="t",
            season_label="s",
            season_ends=["2023-12-31"],
            size=size,
        )
        root = ET.fromstring(svg)
        xs = [float(c.attrib["cx"]) for c in root.findall(f".//{NS}circle")]
        # a day apart: almost no distance; eighteen months apart: most of the width
        assert xs[1] - xs[0] < 2 and xs[2] - xs[1] > 0.9 * (xs[3] - xs[0])
        marks = root.findall(f".//{NS}line[@class='season-mark']")
        assert len(marks) == 1 and xs[1] < float(marks[0].attrib["x1"]) < xs[2]
        for text in root.findall(f".//{NS}text"):
            x = float(text.attrib["x"])
            assert 0 <= x <= size.width
            if text.get("text-anchor") == "middle":  # half a label each side must fit
                half = len(text.text or "") * size.font * 0.3
                assert half <= x <= size.width - half


def test_the_legend_classes_have_the_lines_colours() -> None:
    from importlib import resources

    from eloleague.web.chart import COLOURS

    css = (resources.files("eloleague.web") / "static" / "style.css").read_text("utf-8")
    for n, colour in enumerate(COLOURS):
        assert f".swatch-{n} {{ background: {colour}; }}" in css
    two = legend([Series("a", 1000, []), Series("b", 1000, [])])
    assert "style=" not in two and 'class="swatch swatch-1"' in two  # no inline style (CSP)


def test_no_history_is_an_empty_chart() -> None:
    root = ET.fromstring(history_svg([], title="x", season_label="s"))
    assert root.findall(f".//{NS}circle") == []
