"""The ledger CSV of ``eloleague rate --ledger`` written straight from the fast path's columns.

Byte for byte what :func:`eloleague.io.ledger_csv.write_ledger` writes for the same entries (the
``csv`` module's quoting and ``\\r\\n`` line ends, :func:`format_plain` numbers), without making
an object per entry: ratings, P, K and scores take few distinct values, so each is formatted once.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator, Sequence
from typing import TextIO

from eloleague.engine.fast.ledger import ColumnarLedger
from eloleague.io.ratings_csv import LEDGER_COLUMNS, format_plain

_CHUNK = 1 << 16
_NUMBERS = ("before", "expected", "k", "score", "delta", "after")  # LEDGER_COLUMNS' numbers
_NEEDS_QUOTES = re.compile(r'[,"\r\n]')


def _quoted(text: str) -> str:
    """``text`` as the csv module writes a field (quoted when it holds , " or a line end)."""
    if _NEEDS_QUOTES.search(text) is None:
        return text
    buffer = io.StringIO()
    csv.writer(buffer).writerow((text, ""))
    return buffer.getvalue()[:-3]  # drop the empty second field and the line end


def _all_quoted(texts: list[str]) -> list[str]:
    if _NEEDS_QUOTES.search("\x00".join(texts)) is None:
        return texts
    return [_quoted(t) for t in texts]


class _Formats(dict[float | None, str]):
    """``format_plain`` of each distinct number, computed once (``None``: an empty cell)."""

    def __missing__(self, value: float | None) -> str:
        self[value] = text = format_plain(value)
        return text


def _column(values: Sequence[float | None] | None, formats: _Formats) -> Iterator[str]:
    assert values is not None  # the number columns are never empty on every row
    return map(formats.__getitem__, values)


def write_ledger_columns(ledger: ColumnarLedger, out: TextIO) -> None:
    """Write ``ledger`` as ``write_ledger`` would, from its columns."""
    csv.writer(out).writerow(LEDGER_COLUMNS)
    labels = _all_quoted(ledger.labels())  # position -1, the last: a season entry
    who = [",".join(_quoted(part) for part in (k.player, k.mode, k.role)) for k in ledger.pool_keys]
    formats = _Formats()
    days: dict[int, str] = {}
    n = len(ledger)
    for start in range(0, n, _CHUNK):
        c = ledger.columns(start, start + _CHUNK)
        positions, ordinals, pools, warnings = (
            c[name] or [] for name in ("position", "day", "pool", "warning")
        )
        dates = [
            days.get(d) or days.setdefault(d, dt.date.fromordinal(d).isoformat()) for d in ordinals
        ]
        cells = zip(
            map(labels.__getitem__, positions),
            dates,
            map(who.__getitem__, pools),  # player,mode,role
            *(_column(c[name], formats) for name in _NUMBERS),
            warnings,
            strict=True,
        )
        out.write("\r\n".join(map(",".join, cells)))
        out.write("\r\n")
