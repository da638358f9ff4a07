"""Small self-contained SVG charts written by hand.

:func:`line_chart` draws series over labelled x positions (mean rating per season);
:func:`calibration_chart` draws predicted against observed frequencies with the diagonal. Their
numbers and the tips of their points are written in the reader's language (``lang``: a decimal
comma in French, the tips translated in the ``tools`` catalogue).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from eloleague.i18n import colon, decimal, grouped, ngettext

COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d68910")
WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 40, 50


def _nice_range(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    return low - pad, high + pad


def _frame(title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12" role="img">'
        f"<title>{escape(title)}</title>"
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>'
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>'
        + "".join(body)
        + "</svg>"
    )


def line_chart(
    title: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    y_label: str = "",
    lang: str = "en",
) -> str:
    """Lines of ``series`` (name, values aligned with ``labels``; ``None`` leaves a gap)."""
    values = [v for _, vs in series for v in vs if v is not None]
    body: list[str] = []
    if not values or not labels:
        return _frame(title, body)
    low, high = _nice_range(values)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(labels)

    def x(i: int) -> float:
        return LEFT + (plot_w * (i + 0.5) / n)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low))

    body.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>'
    )
    for t in range(5):
        v = low + (high - low) * t / 4
        body.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            'stroke="#eee"/>'
        )
        body.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>')
    step = max(1, n // 12)
    for i, label in enumerate(labels):
        if i % step == 0:
            body.append(
                f'<text x="{x(i):.1f}" y="{TOP + plot_h + 18}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    if y_label:
        body.append(
            f'<text x="14" y="{TOP + plot_h / 2}" transform="rotate(-90 14 '
            f'{TOP + plot_h / 2})" text-anchor="middle">{escape(y_label)}</text>'
        )
    for s, (name, vs) in enumerate(series):
        colour = COLOURS[s % len(COLOURS)]
        points = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vs) if v is not None]
        if points:
            body.append(
                f'<polyline class="series" data-name="{escape(name)}" fill="none" '
                f'stroke="{colour}" stroke-width="2" points="{" ".join(points)}"/>'
            )
        for i, w in enumerate(vs):
            if w is not None:
                body.append(
                    f'<circle cx="{x(i):.1f}" cy="{y(w):.1f}" r="3" fill="{colour}">'
                    f"<title>{escape(name)} {escape(labels[i])}{colon(lang)}"
                    f"{decimal(w, 1, lang)}</title></circle>"
                )
        body.append(
            f'<rect x="{LEFT + 10}" y="{TOP + 8 + 18 * s}" width="12" height="12" '
            f'fill="{colour}"/><text x="{LEFT + 28}" y="{TOP + 18 + 18 * s}">'
            f"{escape(name)}</text>"
        )
    return _frame(title, body)


def calibration_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float, int]]]],
    x_label: str = "predicted",
    y_label: str = "observed",
    lang: str = "en",
) -> str:
    """Calibration: for each series, points (mean predicted, mean observed, count) per bin,
    joined by a line, against the diagonal of perfect calibration; point area grows with count."""
    size = min(WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM)
    body: list[str] = []

    def px(v: float) -> float:
        return LEFT + size * v

    def py(v: float) -> float:
        return TOP + size * (1 - v)

    body.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{size}" height="{size}" fill="none" stroke="#999"/>'
    )
    body.append(
        f'<line class="diagonal" x1="{px(0)}" y1="{py(0)}" x2="{px(1)}" y2="{py(1)}" '
        'stroke="#bbb" stroke-dasharray="4 3"/>'
    )
    for t in range(6):
        v = t / 5
        body.append(
            f'<text x="{px(v):.1f}" y="{TOP + size + 16}" text-anchor="middle">'
            f"{decimal(v, 1, lang)}</text>"
        )
        body.append(
            f'<text x="{LEFT - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{decimal(v, 1, lang)}</text>'
        )
    body.append(
        f'<text x="{px(0.5)}" y="{TOP + size + 34}" text-anchor="middle">{escape(x_label)}</text>'
    )
    body.append(
        f'<text x="14" y="{py(0.5)}" transform="rotate(-90 14 {py(0.5)})" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    biggest = max((c for _, pts in series for _, _, c in pts), default=1) or 1
    for s, (name, pts) in enumerate(series):
        colour = COLOURS[s % len(COLOURS)]
        line = " ".join(f"{px(p):.1f},{py(o):.1f}" for p, o, c in pts if c)
        if line:
            body.append(
                f'<polyline class="series" data-name="{escape(name)}" fill="none" '
                f'stroke="{colour}" stroke-width="1.5" points="{line}"/>'
            )
        for p, o, c in pts:
            if c:
                r = 2 + 5 * (c / biggest) ** 0.5
                body.append(
                    f'<circle cx="{px(p):.1f}" cy="{py(o):.1f}" r="{r:.1f}" '
                    f'fill="{colour}" fill-opacity="0.6"><title>'
                    f"{escape(_tip(name, p, o, c, lang))}</title></circle>"
                )
        lx = LEFT + size + 20
        body.append(
            f'<rect x="{lx}" y="{TOP + 18 * s}" width="12" height="12" '
            f'fill="{colour}"/><text x="{lx + 18}" y="{TOP + 10 + 18 * s}">'
            f"{escape(name)}</text>"
        )
    return _frame(title, body)


def _tip(name: str, predicted: float, observed: float, count: int, lang: str) -> str:
    """A calibration point's tip: ``Elo: predicted 0.47, observed 0.50, 12 games``."""
    return ngettext(
        lang,
        "tools",
        "{name}: predicted {predicted}, observed {observed}, {count} game",
        "{name}: predicted {predicted}, observed {observed}, {count} games",
        count,
    ).format(
        name=name,
        predicted=decimal(predicted, 2, lang),
        observed=decimal(observed, 2, lang),
        count=grouped(count, lang),
    )
