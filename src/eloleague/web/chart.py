"""The rating-history chart: server-side SVG, no script, no library (DESIGN.md, charts).

One line per pool through the rating after each change, one point per game, season adjustments
(RULES §3.5) drawn as diamonds on a dashed vertical mark so that a drop from inactivity is never
mistaken for a lost game. Every point has a ``<title>`` (date, game, change) that browsers show on
hover and screen readers read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 720
HEIGHT = 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 12, 14, 34
# The legend shows them with the classes .swatch.c0, .c1... of static/style.css (same colours,
# checked by a test): a style attribute would need the CSP's 'unsafe-inline'.
_COLOURS = ("#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490", "#4d7c0f")


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One change: when, the rating after it, what it was (a game's label, or a season's end)."""

    date: str
    rating: float
    delta: float
    label: str
    season: bool


@dataclass(frozen=True, slots=True)
class Series:
    """One pool's line: its name and its points in processing order."""

    name: str
    start: float
    points: Sequence[ChartPoint]


def _nice_step(span: float) -> float:
    raw = span / 5 or 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return 10.0 * power


def history_svg(
    series: Sequence[Series], *, title: str, season_label: str, fmt: str = "{:.0f}"
) -> str:
    """The chart as an inline SVG document (``role="img"``, titled for screen readers)."""
    values = [p.rating for s in series for p in s.points] + [s.start for s in series]
    count = max((len(s.points) for s in series), default=0)
    out = [
        f'<svg class="history-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    if not values or count == 0:
        out.append("</svg>")
        return "".join(out)
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 10, high + 10
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    plot_w = WIDTH - _LEFT - _RIGHT
    plot_h = HEIGHT - _TOP - _BOTTOM

    def x(i: int) -> float:
        return _LEFT + (plot_w * i / count)

    def y(v: float) -> float:
        return _TOP + plot_h * (1 - (v - low) / (high - low))

    tick = low
    while tick <= high + 1e-9:
        out.append(
            f'<line class="grid" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}" stroke="#e5e7eb"/>'
            f'<text x="{_LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#4b5563">{fmt.format(tick)}</text>'
        )
        tick += step
    first = series[0].points
    for i in sorted({1, max(1, len(first) // 2), len(first)}):
        if i <= len(first):
            out.append(
                f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="11" '
                f'fill="#4b5563">{escape(first[i - 1].date)}</text>'
            )
    for n, s in enumerate(series):
        colour = _COLOURS[n % len(_COLOURS)]
        path = [f"M{x(0):.1f},{y(s.start):.1f}"]
        path += [f"L{x(i + 1):.1f},{y(p.rating):.1f}" for i, p in enumerate(s.points)]
        out.append(
            f'<path class="series" data-pool="{escape(s.name)}" d="{" ".join(path)}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        for i, p in enumerate(s.points):
            cx, cy = x(i + 1), y(p.rating)
            sign = "+" if p.delta >= 0 else ""
            tip = escape(
                f"{p.date} · {p.label} · {sign}{fmt.format(p.delta)} → {fmt.format(p.rating)}"
            )
            if p.season:
                out.append(
                    f'<line class="season-mark" x1="{cx:.1f}" x2="{cx:.1f}" y1="{_TOP}" '
                    f'y2="{HEIGHT - _BOTTOM}" stroke="#dc2626" stroke-dasharray="4 3"/>'
                    f'<path class="season-point" d="M{cx:.1f},{cy - 6:.1f} l6,6 l-6,6 l-6,-6 z" '
                    f'fill="#dc2626"><title>{tip}</title></path>'
                )
            else:
                out.append(
                    f'<circle class="game-point" cx="{cx:.1f}" cy="{cy:.1f}" r="3" '
                    f'fill="{colour}"><title>{tip}</title></circle>'
                )
    legend_x = _LEFT + 4
    if any(p.season for s in series for p in s.points):
        out.append(
            f'<g class="legend"><path d="M{legend_x},{_TOP + 2} l5,5 l-5,5 l-5,-5 z" '
            f'fill="#dc2626"/><text x="{legend_x + 10}" y="{_TOP + 11}" font-size="11" '
            f'fill="#991b1b">{escape(season_label)}</text></g>'
        )
    out.append("</svg>")
    return "".join(out)


def legend(series: Sequence[Series]) -> str:
    """The pools' colours as an HTML list under the chart (nothing for a single line)."""
    if len(series) < 2:
        return ""
    items = "".join(
        f'<li><span class="swatch c{n % len(_COLOURS)}"></span>{escape(s.name)}</li>'
        for n, s in enumerate(series)
    )
    return f'<ul class="chart-legend">{items}</ul>'
