"""The two forms of the CSV files eloleague writes for spreadsheets (docs/formats.md).

- ``excel``: commas, UTF-8, English column names, a decimal point: the portable form, read by
  every program and by eloleague's own readers;
- ``excel-fr``: what French spreadsheets split on opening: semicolons, a UTF-8 byte order mark,
  French column names, a decimal comma, and the rule set's names (titles, roles, modes) in French.

Files written for a user (``ranking -o``, the CSV beside a workbook) take the user's language's
form unless ``--csv-dialect`` says otherwise; the readers accept both (:func:`sniff`,
:func:`english_columns`, :func:`plain_number`).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from eloleague.i18n import number


@dataclass(frozen=True, slots=True)
class CsvDialect:
    """How a CSV file is written: separator, encoding and the language of its words."""

    name: str
    delimiter: str
    encoding: str
    lang: str

    def writer(self, out: TextIO) -> Any:
        """A ``csv.writer`` of this form on ``out`` (opened with :attr:`encoding`)."""
        return csv.writer(out, delimiter=self.delimiter)

    def columns(self, names: Iterable[str]) -> list[str]:
        """Column names in this form's language (``rating`` → ``cote``)."""
        if self.lang != "fr":
            return list(names)
        return [COLUMNS_FR.get(n, n) for n in names]

    def number(self, text: str) -> str:
        """A number already written with a decimal point, as this form writes it."""
        return number(text, self.lang)


EXCEL = CsvDialect("excel", ",", "utf-8", "en")
EXCEL_FR = CsvDialect("excel-fr", ";", "utf-8-sig", "fr")
DIALECTS = {d.name: d for d in (EXCEL, EXCEL_FR)}

COLUMNS_FR = {
    "player": "joueur",
    "mode": "mode",
    "role": "rôle",
    "rating": "cote",
    "games": "parties",
    "title": "titre",
    "deviation": "écart",
    "volatility": "volatilité",
    "game": "partie",
    "date": "date",
    "before": "avant",
    "expected": "attendu",
    "k": "k",
    "score": "score",
    "delta": "variation",
    "after": "après",
    "warning": "avertissement",
    "player_id": "licence",
    "club": "club",
    "region": "région",
}
_ENGLISH = {french: english for english, french in COLUMNS_FR.items()}


def choose(explicit: str | None, lang: str) -> CsvDialect:
    """The form asked for (``excel``, ``excel-fr``), else the one of the user's language."""
    if explicit:
        return DIALECTS[explicit]
    return EXCEL_FR if lang == "fr" else EXCEL


def sniff(text: str) -> tuple[str, str]:
    """``text`` without a byte order mark, and its separator: ``;`` when its first line has more
    semicolons than commas (the French spreadsheets' form), else ``,``."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0]
    return text, ";" if first.count(";") > first.count(",") else ","


def english_columns(names: Sequence[str] | None) -> list[str]:
    """Column names as the readers know them: French names (``cote``, ``Joueur``) in English."""
    return [_ENGLISH.get(n.strip().casefold(), n.strip()) for n in names or []]


_COMMA_NUMBER = re.compile(r"[+-]?\d+,\d+")


def plain_number(text: str) -> str:
    """A number a French spreadsheet wrote (``1523,5``) with a decimal point."""
    text = text.strip().replace("\u202f", "").replace("\u00a0", "")
    return text.replace(",", ".") if _COMMA_NUMBER.fullmatch(text) else text
