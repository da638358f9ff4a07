"""The ledger CSV of ``eloleague rate --ledger`` (docs/formats.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TextIO

from eloleague.engine.ledger import LedgerEntry
from eloleague.io.csv_dialect import EXCEL, CsvDialect
from eloleague.io.ratings_csv import LEDGER_COLUMNS, format_plain


def write_ledger(
    entries: Iterable[LedgerEntry],
    out: TextIO,
    fields: Sequence[str] = (),
    dialect: CsvDialect = EXCEL,
) -> None:
    """One row per ledger entry, in processing order; ``fields``: the pool fields the rule set's
    method publishes (``LedgerEntry.extra``), in columns after ``warning``. ``dialect``: the
    French spreadsheets' form writes French column names and decimal commas."""
    writer = dialect.writer(out)
    writer.writerow(dialect.columns((*LEDGER_COLUMNS, *fields)))

    def n(value: float | None) -> str:
        return dialect.number(format_plain(value))

    for e in entries:
        writer.writerow(
            (
                e.game,
                e.date.isoformat(),
                e.key.player,
                e.key.mode,
                e.key.role,
                n(e.before),
                n(e.expected),
                n(e.k),
                n(e.score),
                n(e.delta),
                n(e.after),
                e.warning,
                *(n(v) for v in e.extra or [None] * len(fields)),
            )
        )
