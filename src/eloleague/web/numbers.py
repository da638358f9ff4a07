"""Ratings as the league publishes them: the rule set's display precision.

The JSON API gives numbers with the same values as ``eloleague ranking --format csv``: whole
numbers when the rule set rounds deltas to integers, full precision when it rounds nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from babel.dates import format_date

from eloleague.engine.maths import round_float
from eloleague.i18n import NARROW_NBSP, with_sign
from eloleague.rules.model import RuleSet


def shown(rules: RuleSet, value: float | None) -> float | int | None:
    """``value`` at the rule set's display precision (an ``int`` for whole numbers)."""
    return shower(rules)(value)


def shower(rules: RuleSet) -> Callable[[float | None], float | int | None]:
    """:func:`shown` for many values of one rule set (its precision read once: a post of a
    thousand games answers with thousands of numbers)."""
    precision = rules.shown
    whole = precision is not None and precision.decimals == 0

    def show(value: float | None) -> float | int | None:
        if value is None:
            return None
        if precision is None:
            return float(value)
        value = float(value)
        if whole and value.is_integer():  # rounded already (most ratings): any mode keeps it
            return int(value)
        rounded = round_float(value, precision)
        if whole:
            return int(rounded)
        return round(rounded, precision.decimals)

    return show


def plain(value: float | None, decimals: int = 3) -> float | int | None:
    """An explanation's number (P, K, S) rounded for reading (whole numbers as ``int``)."""
    if value is None:
        return None
    rounded = round(float(value), decimals)
    return int(rounded) if rounded.is_integer() else rounded


def signed(value: float | int | None) -> str:
    """``+12``, ``-4``, ``0``: a change as pages print it (one that rounds to nothing unsigned)."""
    if value is None:
        return ""
    text = str(value)
    if isinstance(value, float):
        text = f"{value:.1f}" if not value.is_integer() else str(int(value))
    return with_sign(text)


def readable(value: float | int | None) -> str:
    """A rating on a page: whole numbers as they are, others to one decimal (the API keeps all)."""
    if value is None:
        return ""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"
    return str(int(value)) if isinstance(value, float) else str(value)


def place(rank: int | None, lang: str) -> str:
    """A rank as a page prints it: ``#4`` in English, ``4ᵉ`` (``1ᵉʳ``) in French."""
    if rank is None:
        return ""
    if lang == "fr":
        return f"{rank}ᵉʳ" if rank == 1 else f"{rank}ᵉ"
    return f"#{rank}"


def day(value: str | dt.date | None, lang: str, style: str = "long") -> str:
    """A date in the visitor's language: ``23 novembre 2026``, ``23 November 2026`` (Babel's
    CLDR data; ``style="short"`` for tables: ``23/11/2026``, ``23 Nov 2026``)."""
    if not value:
        return ""
    when = dt.date.fromisoformat(value) if isinstance(value, str) else value
    if style == "short":
        return format_date(when, "dd/MM/yyyy" if lang == "fr" else "d MMM yyyy", locale=lang)
    if lang == "fr":
        text = format_date(when, "long", locale="fr_FR")
        return "1er" + text[1:] if when.day == 1 else text  # French: « 1er novembre »
    return format_date(when, "long", locale="en_GB")


def yearly(value: str, lang: str) -> str:
    """A day of every year (a season's end, ``12-31``) in the visitor's language: ``31 décembre``,
    ``1er juillet``, ``31 December`` (the rules page printed ``le 12-31``)."""
    month, dom = (int(x) for x in value.split("-"))
    when = dt.date(2000, month, dom)  # a leap year: 02-29 is a day of it
    if lang == "fr":
        return ("1er" if dom == 1 else str(dom)) + " " + format_date(when, "MMMM", locale="fr_FR")
    return format_date(when, "d MMMM", locale="en_GB")


def colon(lang: str) -> str:
    """A colon after a label: French puts a narrow no-break space before it."""
    return f"{NARROW_NBSP}:" if lang == "fr" else ":"
