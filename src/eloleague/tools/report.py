"""Readable reports of the tools: a self-contained HTML page for ``evaluate --report`` and the
SVG chart of ``compare --chart`` (no script, no external file: it opens anywhere, offline)."""

from __future__ import annotations

import math
from html import escape

from eloleague.i18n import decimal, grouped, ngettext, percent, translator
from eloleague.tools.compare import Comparison
from eloleague.tools.evaluate import Evaluation, Metrics
from eloleague.tools.svg import calibration_chart, line_chart


def comparison_svg(comparison: Comparison, lang: str = "en") -> str:
    """Mean rating per season under both rule sets (rating inflation over time)."""
    _ = translator(lang, "tools")
    labels = [
        str(s.end.year) if s.end.month == 12 else s.end.isoformat() for s in comparison.seasons
    ]
    return line_chart(
        _("Mean rating per season"),
        labels,
        [
            (comparison.rules_a.name, [s.mean_a for s in comparison.seasons]),
            (comparison.rules_b.name, [s.mean_b for s in comparison.seasons]),
        ],
        _("mean rating"),
        lang,
    )


def calibration_svg(evaluation: Evaluation, lang: str = "en") -> str:
    """Predicted against observed frequencies for every model of ``evaluation``."""
    _ = translator(lang, "tools")
    series = [
        (m.name, [(b.predicted, b.observed, b.count) for b in m.calibration if b.count])
        for m in evaluation.models
    ]
    return calibration_chart(
        _("Calibration"), series, _("predicted expected score"), _("observed score"), lang
    )


def _num(value: float | None, lang: str, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return decimal(value, digits, lang)


def _metrics_rows(models: tuple[Metrics, ...], lang: str) -> str:
    best_ll = min(m.log_loss for m in models)
    best_brier = min(m.brier for m in models)
    rows = []
    for m in models:
        ll = _num(m.log_loss, lang)
        ll = f"<b>{ll}</b>" if m.log_loss == best_ll else ll
        br = _num(m.brier, lang)
        br = f"<b>{br}</b>" if m.brier == best_brier else br
        acc = "–" if m.accuracy is None else percent(m.accuracy, lang)
        rows.append(
            f"<tr><td>{escape(m.name)}</td><td>{grouped(m.samples, lang)}</td><td>{ll}</td>"
            f"<td>{br}</td><td>{acc}</td></tr>"
        )
    return "".join(rows)


def evaluation_html(evaluation: Evaluation, lang: str = "en") -> str:
    """A page a committee can read: the metrics, what they mean, and the calibration plot."""
    _ = translator(lang, "tools")
    first = evaluation.models[0]
    bins = "".join(
        f"<tr><td>{decimal(b.low, 1, lang)}–{decimal(b.high, 1, lang)}</td>"
        f"<td>{_num(b.predicted, lang, 3)}</td><td>{_num(b.observed, lang, 3)}</td>"
        f"<td>{grouped(b.count, lang)}</td></tr>"
        for b in first.calibration
        if b.count
    )
    title = _("How well does {rules} predict results?").format(rules=evaluation.rules.name)
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:52em;margin:2em auto;line-height:1.45}}
table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:.3em .7em;
text-align:right}}td:first-child,th:first-child{{text-align:left}}</style></head><body>
<h1>{escape(title)}</h1>
<p>{
        escape(
            ngettext(
                lang,
                "tools",
                "{n} rated game, predicted from the ratings just before it.",
                "{n} rated games, each predicted from the ratings just before it.",
                evaluation.games,
            ).format(n=grouped(evaluation.games, lang))
        )
    }</p>
<table id="metrics"><thead><tr><th>{escape(_("model"))}</th><th>{escape(_("predictions"))}</th>
<th>{escape(_("log loss"))}</th><th>{escape(_("Brier score"))}</th>
<th>{escape(_("accuracy"))}</th></tr></thead><tbody>{_metrics_rows(evaluation.models, lang)}</tbody>
</table>
<ul>
<li>{
        escape(_("Log loss and Brier score: lower is better. A coin toss scores 0.693 and 0.25."))
    }</li>
<li>{escape(_("Accuracy: how often the favourite won, draws left out."))}</li>
<li>{
        escape(
            _(
                "Calibration: when the model says 70 %, the side should score about 70 %. "
                "Points on the diagonal are well calibrated."
            )
        )
    }</li>
<li>{
        escape(
            _(
                "Graded results count as a win for the side with the greater score value; "
                "equal values are a draw."
            )
        )
    }</li>
</ul>
<figure>{calibration_svg(evaluation, lang)}</figure>
<h2>{escape(_("Calibration of {rules}").format(rules=evaluation.rules.name))}</h2>
<table id="calibration"><thead><tr><th>{escape(_("predicted"))}</th>
<th>{escape(_("mean predicted"))}</th><th>{escape(_("observed"))}</th>
<th>{escape(_("count"))}</th></tr></thead><tbody>{bins}</tbody></table>
</body></html>
"""
