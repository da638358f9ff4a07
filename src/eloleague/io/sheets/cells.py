"""Cell values as a referee's spreadsheet program leaves them, turned into typed values.

Both readers (xlsx and CSV) build a :class:`Grid`; the functions here read one cell of it and
return the value or the reason it is unusable, in the referee's language. Hand-edited sheets are
the norm: dates typed as text (``02/03/2025``, ``2025-03-02``), numbers stored as text, trailing
spaces, Excel serial numbers, formula errors (``#REF!``, ``#DIV/0!``, LibreOffice's ``Err:502``).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass, field

from eloleague.i18n import NARROW_NBSP
from eloleague.io.sheets.layout import column_letter, tr

ERROR_CODES = (
    "#NULL!",
    "#DIV/0!",
    "#VALUE!",
    "#REF!",
    "#NAME?",
    "#NUM!",
    "#N/A",
    "#GETTING_DATA",
    "#SPILL!",
    "#CALC!",
)
_LIBREOFFICE_ERROR = re.compile(r"^Err:\d{3}$")
_DMY = re.compile(r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})$")
_YMD = re.compile(r"^(\d{4})[/.\-](\d{1,2})[/.\-](\d{1,2})(?:[ T]00:00(?::00)?)?$")
# Excel serial dates between 1950 and 2100: a number typed in a date cell not formatted as date.
_SERIAL_RANGE = (18264, 73051)
_EXCEL_EPOCH = dt.date(1899, 12, 30)


@dataclass(frozen=True, slots=True)
class CellError:
    """A formula error left in a cell (``#REF!``...)."""

    code: str


Value = str | int | float | bool | dt.date | dt.datetime | CellError | None


@dataclass
class Grid:
    """One sheet's values by row number, with what a location needs (sheet title or CSV)."""

    title: str
    lang: str
    rows: dict[int, list[Value]] = field(default_factory=dict)
    merged: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    csv: bool = False

    def value(self, row: int, column: int) -> Value:
        cells = self.rows.get(row, [])
        return cells[column - 1] if 0 < column <= len(cells) else None

    def where(self, row: int, column: int | None = None) -> str:
        """``"Résultats, ligne 7, colonne D"`` / ``"line 7, column D"`` in the grid's language."""
        if column is None:
            if self.csv:
                return tr(self.lang, "line {row}", row=row)
            return tr(self.lang, "{sheet}, row {row}", sheet=self.title, row=row)
        letter = column_letter(column)
        if self.csv:
            return tr(self.lang, "line {row}, column {column}", row=row, column=letter)
        return tr(
            self.lang,
            "{sheet}, row {row}, column {column}",
            sheet=self.title,
            row=row,
            column=letter,
        )

    def is_blank(self, row: int) -> bool:
        return all(is_empty(v) for v in self.rows.get(row, []))


def is_empty(value: Value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def as_error(value: Value) -> CellError | None:
    """The formula error held by ``value`` (a real error cell, or its text in a CSV)."""
    if isinstance(value, CellError):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.upper() in ERROR_CODES or _LIBREOFFICE_ERROR.match(text):
            return CellError(text)
    return None


def show(value: Value) -> str:
    """A cell value quoted for a message."""
    if isinstance(value, CellError):
        return value.code
    if isinstance(value, dt.datetime):
        value = value.date() if value.time() == dt.time() else value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value) if not isinstance(value, dt.date) else value.isoformat()
    return f"«{NARROW_NBSP}{text}{NARROW_NBSP}»" if text else f"«{NARROW_NBSP}»"


def as_text(value: Value) -> str:
    """A cell as text: stripped, whole numbers without ``.0``, dates in ISO form."""
    if value is None or isinstance(value, CellError):
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return " ".join(str(value).split()) if isinstance(value, str) else str(value)


def as_date(value: Value) -> dt.date | None:
    """A date from a date cell, an Excel serial number or text (day first, or ISO year first).

    Text dates are read day first (``02/03/2025`` is 2 March 2025), as French-speaking federations
    write them; a four-digit year first (``2025-03-02``, ``2025/03/02``) is ISO.
    """
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if (
            math.isfinite(value)
            and value == int(value)
            and _SERIAL_RANGE[0] <= value <= _SERIAL_RANGE[1]
        ):
            return _EXCEL_EPOCH + dt.timedelta(days=int(value))
        return None
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        match = _YMD.match(text)
        if match:
            year, month, day = (int(x) for x in match.groups())
            return dt.date(year, month, day)
        match = _DMY.match(text)
        if match:
            day, month, year = (int(x) for x in match.groups())
            if year < 100:
                year += 2000
            return dt.date(year, month, day)
    except ValueError:
        return None
    return None


def as_int(value: Value) -> int | None:
    """A whole number from a number cell or its text (``"3"``, ``3.0``); else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())  # ASCII digits only: "²" is a digit to Python, not to int()
    return None


_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")


def as_number(value: Value) -> float | None:
    """A number from a number cell or its text (decimal point or comma); else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip().replace("\u00a0", "").replace(" ", "")
        if text.count(",") == 1 and "." not in text:
            text = text.replace(",", ".")
        try:
            number = float(text)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None
