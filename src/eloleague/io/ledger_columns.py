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
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from eloleague.engine.fast import layout as K
from eloleague.engine.fast.ledger import WARNINGS, ColumnarLedger
from eloleague.io.ratings_csv import LEDGER_COLUMNS, format_plain

_CHUNK = 1 << 16
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


class _Formats(dict[float, str]):
    """``format_plain`` of each distinct number, computed once."""

    def __missing__(self, value: float) -> str:
        self[value] = text = format_plain(value)
        return text


def _column(values: Sequence[float], formats: _Formats) -> Iterator[str]:
    return map(formats.__getitem__, values)


class _Warnings(dict[int, str]):
    """The warning cell of each distinct ``I_CODE`` value."""

    def __missing__(self, code: int) -> str:
        self[code] = text = WARNINGS[(code >> K.WARN_SHIFT) & 3]
        return text


def _blank_for_seasons(seasons: list[bool]) -> Callable[[Iterator[str]], Iterator[str]]:
    """Empty cells where a row is a season entry (no P, K or score: RULES §6)."""
    if not any(seasons):
        return lambda column: column
    return lambda column: ("" if s else v for s, v in zip(seasons, column, strict=True))


def write_ledger_columns(ledger: ColumnarLedger, out: TextIO) -> None:
    """Write ``ledger`` as ``write_ledger`` would, from its columns."""
    csv.writer(out).writerow(LEDGER_COLUMNS)
    labels = _all_quoted(
        [g.id if g.id is not None else f"#{i}" for i, g in enumerate(ledger.games, start=1)]
    )
    labels.append("")  # position -1: a season entry
    who = [",".join(_quoted(part) for part in (k.player, k.mode, k.role)) for k in ledger.pool_keys]
    formats = _Formats()
    warnings = _Warnings()
    days: dict[int, str] = {}
    floats, ints = ledger.floats, ledger.ints
    n = len(ledger)
    for start in range(0, n, _CHUNK):
        f = floats[:, start : start + _CHUNK].tolist()
        i = ints[:, start : start + _CHUNK].tolist()
        blank = _blank_for_seasons([p < 0 for p in i[K.I_GAME]])
        dates = [
            days.get(d) or days.setdefault(d, dt.date.fromordinal(d).isoformat())
            for d in i[K.I_DAY]
        ]
        cells = zip(
            map(labels.__getitem__, i[K.I_GAME]),
            dates,
            map(who.__getitem__, i[K.I_POOL]),  # player,mode,role
            _column(f[K.C_BEFORE], formats),
            blank(_column(f[K.C_EXPECTED], formats)),
            blank(_column(f[K.C_K], formats)),
            blank(_column(f[K.C_SCORE], formats)),
            _column(f[K.C_DELTA], formats),
            _column(f[K.C_AFTER], formats),
            map(warnings.__getitem__, i[K.I_CODE]),
            strict=True,
        )
        out.write("\r\n".join(map(",".join, cells)))
        out.write("\r\n")
