"""The referee workbook's layout saved as CSV (docs/sheets.md, "The CSV layout").

A spreadsheet program saves one sheet per CSV file, so the CSV layout is the event sheet's rows
(optional: label, value) followed by the results sheet's rows (its title row, its header, its
games), in either language, separated by ``,`` or ``;`` (French exports). It is told apart from the
long CSV format (:mod:`eloleague.io.long_csv`) by its header: the long format's first line names
the columns ``game``, ``date``, ``side`` and ``player``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable

from eloleague.io.sheets.cells import Grid, Value
from eloleague.io.sheets.layout import RESULTS, layout_for, read_stamp
from eloleague.io.sheets.parse import EventInfo, Findings, find_header, read_event, read_results
from eloleague.io.sheets.reader import (
    SheetResult,
    check_rules,
    players_of,
    sheet_language,
    stamped_language,
)
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def _rows(data: bytes) -> list[list[str]] | None:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            return None
    sample = "\n".join(text.splitlines()[:30])
    counts = {d: sample.count(d) for d in (";", ",", "\t")}
    delimiter = max(counts, key=lambda d: counts[d])
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def parse_sheet_csv(
    data: bytes,
    rules: RuleSet,
    lang: str | None = None,
    known_players: Iterable[str] = (),
    *,
    events: list[EventInfo] | None = None,
) -> SheetResult:
    """Read the workbook layout saved as CSV: ``(games, problems, warnings)``, located by line."""
    rows = _rows(data)
    if rows is None:
        found = Findings(lang or "en")
        found.not_a_workbook(lang)
        return [], found.problems, found.warnings
    grid = Grid("", "en", csv=True)
    stamp: dict[str, object] | None = None
    for number, row in enumerate(rows, start=1):
        values: list[Value] = [cell for cell in row]
        while values and not str(values[-1]).strip():
            values.pop()
        if values:
            grid.rows[number] = values
        for cell in row:
            found_stamp = read_stamp(cell.strip())
            if found_stamp is not None and (stamp is None or found_stamp["kind"] == RESULTS):
                stamp = found_stamp
    layout = layout_for(rules, players_of(stamp if stamp and stamp["kind"] == RESULTS else None))
    header = find_header(grid, layout, limit=None)
    detected = sheet_language(grid.rows[header]) if header is not None else None
    found = Findings(stamped_language(stamp, lang) if (stamp or lang) else detected or "en")
    grid.lang = found.lang
    if not check_rules(stamp, rules, found, ""):
        return [], found.problems, found.warnings
    event = EventInfo()
    if header is not None:
        before = Grid("", found.lang, {r: v for r, v in grid.rows.items() if r < header}, csv=True)
        event = read_event(before, found, positional=False)
    games: list[GameRecord] = read_results(grid, layout, rules, event, found, known_players, header)
    if found.problems:
        return [], found.problems, found.warnings
    if events is not None:
        events.append(event)
    return games, found.problems, found.warnings


def workbook_to_csv(data: bytes, delimiter: str = ",") -> str:
    """The CSV layout of a workbook: its event sheet's rows, then its results sheet's rows.

    What a referee gets by saving the two sheets as CSV and putting one after the other.
    """
    from eloleague.io.sheets.archive import open_workbook
    from eloleague.io.sheets.cells import as_text
    from eloleague.io.sheets.layout import EVENT

    book = open_workbook(data)  # DamagedWorkbook when the file cannot be read
    kinds: dict[str, list[list[str]]] = {}
    for ws in book.worksheets:
        stamp = None
        for row in ws.iter_rows(min_row=1, max_row=3, values_only=True):
            stamp = stamp or next((read_stamp(v) for v in row if read_stamp(v)), None)
        if stamp is not None:
            kinds[str(stamp["kind"])] = [
                [
                    v
                    if isinstance(v, str)
                    else as_text(v if isinstance(v, int | float) else _day(v))
                    for v in row
                ]
                for row in ws.iter_rows(values_only=True)
            ]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    for kind in (EVENT, RESULTS):
        for cells in kinds.get(kind, []):
            line = list(cells)
            while line and not line[-1].strip():
                line.pop()
            writer.writerow(line)
    return out.getvalue()


def _day(value: object) -> dt.date | None:
    return value if isinstance(value, dt.date) else None
