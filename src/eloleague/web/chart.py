"""The rating-history chart: server-side SVG, no script, no library.

The x axis is time (a gap of eighteen months looks like one); one line per pool through the
rating after each change, one point per game; season ends are dashed vertical lines and season
adjustments red diamonds, so that a drop from inactivity is never mistaken for a lost
game. Every point has a ``<title>`` (date, game, change) that browsers show on hover and screen
readers read. The page draws it twice, a wide drawing for screens and a narrow one for phones (its
text stays readable once scaled to the phone's width); CSS shows one of them.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from eloleague.i18n import numbers_in

COLOURS = ("#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490", "#4d7c0f")
SEASON = "#b91c1c"


@dataclass(frozen=True, slots=True)
class Size:
    """A drawing's size and margins (in SVG units, drawn at about one unit per CSS pixel)."""

    width: int
    height: int
    left: int = 46
    right: int = 14
    top: int = 22
    bottom: int = 30
    font: int = 12
    date_ticks: int = 6


WIDE = Size(760, 280)
NARROW = Size(360, 240, left=44, right=10, font=12, date_ticks=3)
# kept for callers that ask for the drawing's size
WIDTH, HEIGHT = WIDE.width, WIDE.height


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


def _nice_step(span: float, count: int = 5) -> float:
    raw = span / count or 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return 10.0 * power


def _date_ticks(first: dt.date, last: dt.date, most: int) -> list[dt.date]:
    """First days of years (or of months for a short history), at most ``most`` of them."""
    years = list(range(first.year + 1, last.year + 1))
    if len(years) >= 2:
        step = max(1, math.ceil(len(years) / most))
        return [dt.date(y, 1, 1) for y in years[::step]]
    months = []
    y, m = first.year, first.month
    while True:
        m += 1
        if m == 13:
            y, m = y + 1, 1
        day = dt.date(y, m, 1)
        if day > last:
            break
        months.append(day)
    step = max(1, math.ceil(len(months) / most))
    return months[::step]


def _tick_label(day: dt.date, yearly: bool) -> str:
    return str(day.year) if yearly else f"{day.month:02d}/{day.year}"


def history_svg(
    series: Sequence[Series],
    *,
    title: str,
    season_label: str,
    fmt: str = "{:.0f}",
    season_ends: Sequence[str] = (),
    size: Size = WIDE,
    css_class: str = "",
    lang: str = "en",
) -> str:
    """The chart as an inline SVG document (``role="img"``, titled for screen readers; the
    points' tips with ``lang``'s numbers)."""
    values = [p.rating for s in series for p in s.points] + [s.start for s in series if s.points]
    klass = f"history-chart {css_class}".strip()
    out = [
        f'<svg class="{klass}" viewBox="0 0 {size.width} {size.height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    dates = [dt.date.fromisoformat(p.date) for s in series for p in s.points]
    if not values or not dates:
        out.append("</svg>")
        return "".join(out)
    first, last = min(dates), max(dates)
    if last == first:
        first, last = first - dt.timedelta(days=15), last + dt.timedelta(days=15)
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 10, high + 10
    step = _nice_step(high - low, 4 if size is NARROW else 5)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    plot_w = size.width - size.left - size.right
    plot_h = size.height - size.top - size.bottom
    span = (last - first).days or 1

    def x(day: dt.date) -> float:
        return size.left + plot_w * (day - first).days / span

    def y(v: float) -> float:
        return size.top + plot_h * (1 - (v - low) / (high - low))

    font = f'font-size="{size.font}"'
    tick_fmt = "{:.0f}" if step >= 1 else fmt
    tick = low
    while tick <= high + 1e-9:
        out.append(
            f'<line class="grid" x1="{size.left}" x2="{size.width - size.right}" '
            f'y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#e5e7eb"/>'
            f'<text x="{size.left - 5}" y="{y(tick) + 4:.1f}" text-anchor="end" {font} '
            f'fill="#374151">{tick_fmt.format(tick)}</text>'
        )
        tick += step
    yearly = last.year - first.year >= 2
    base = size.height - size.bottom
    for day in _date_ticks(first, last, size.date_ticks):
        px = x(day)
        label = _tick_label(day, yearly)
        half = len(label) * size.font * 0.3
        anchor = "middle"
        if px + half > size.width - 2:
            anchor = "end"
        elif px - half < size.left:
            anchor = "start"
        out.append(
            f'<line class="date-tick" x1="{px:.1f}" x2="{px:.1f}" y1="{base}" y2="{base + 4}" '
            f'stroke="#6b7280"/><text x="{px:.1f}" y="{base + 4 + size.font}" '
            f'text-anchor="{anchor}" {font} fill="#374151">{label}</text>'
        )
    for end in season_ends:
        day = dt.date.fromisoformat(end)
        if first <= day <= last:
            out.append(
                f'<line class="season-mark" x1="{x(day):.1f}" x2="{x(day):.1f}" y1="{size.top}" '
                f'y2="{base}" stroke="{SEASON}" stroke-dasharray="4 3" stroke-opacity=".7">'
                f"<title>{escape(season_label)} {end}</title></line>"
            )
    for n, s in enumerate(series):
        if not s.points:
            continue
        colour = COLOURS[n % len(COLOURS)]
        start_day = dt.date.fromisoformat(s.points[0].date)
        path = [f"M{x(start_day):.1f},{y(s.start):.1f}"]
        path += [f"L{x(dt.date.fromisoformat(p.date)):.1f},{y(p.rating):.1f}" for p in s.points]
        out.append(
            f'<path class="series" data-pool="{escape(s.name)}" d="{" ".join(path)}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        radius = 2.5 if len(s.points) > 60 else 3.5
        for p in s.points:
            cx, cy = x(dt.date.fromisoformat(p.date)), y(p.rating)
            sign = "+" if p.delta >= 0 else ""
            change = numbers_in(f"{sign}{fmt.format(p.delta)} → {fmt.format(p.rating)}", lang)
            tip = escape(f"{p.date} · {p.label} · {change}")
            if p.season:
                out.append(
                    f'<path class="season-point" d="M{cx:.1f},{cy - 6:.1f} l6,6 l-6,6 l-6,-6 z" '
                    f'fill="{SEASON}"><title>{tip}</title></path>'
                )
            else:
                out.append(
                    f'<circle class="game-point" cx="{cx:.1f}" cy="{cy:.1f}" r="{radius}" '
                    f'fill="{colour}"><title>{tip}</title></circle>'
                )
    out.append("</svg>")
    return "".join(out)


def legend(series: Sequence[Series], *, season_label: str = "", seasons: bool = False) -> str:
    """The lines' colours (when there are several) and the season mark, as an HTML list under the
    chart; colours come from classes of the stylesheet (no inline style)."""
    items = []
    if len(series) > 1:
        items += [
            f'<li><span class="swatch swatch-{n % len(COLOURS)}"></span>{escape(s.name)}</li>'
            for n, s in enumerate(series)
        ]
    if seasons and season_label:
        items.append(f'<li><span class="swatch swatch-season"></span>{escape(season_label)}</li>')
    if not items:
        return ""
    return f'<ul class="chart-legend">{"".join(items)}</ul>'
