"""The ledger CSV of ``eloleague rate --ledger`` (docs/formats.md)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import TextIO

from eloleague.engine.ledger import LedgerEntry
from eloleague.io.ratings_csv import LEDGER_COLUMNS, format_plain


def write_ledger(entries: Iterable[LedgerEntry], out: TextIO, fields: Sequence[str] = ()) -> None:
    """One row per ledger entry, in processing order; ``fields``: the pool fields the rule set's
    method publishes (``LedgerEntry.extra``), in columns after ``warning``."""
    writer = csv.writer(out)
    writer.writerow((*LEDGER_COLUMNS, *fields))
    for e in entries:
        writer.writerow(
            (
                e.game,
                e.date.isoformat(),
                e.key.player,
                e.key.mode,
                e.key.role,
                format_plain(e.before),
                format_plain(e.expected),
                format_plain(e.k),
                format_plain(e.score),
                format_plain(e.delta),
                format_plain(e.after),
                e.warning,
                *(format_plain(v) for v in e.extra or [None] * len(fields)),
            )
        )
