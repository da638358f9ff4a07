"""Reading a filled referee workbook (``.xlsx``) into games (docs/sheets.md).

Sheets are found by the stamp hidden in their first row (so a renamed sheet is still found), then
by their content (the results header), then by their position in the template. The workbook's
stamped rule set must be the league's; its stamped language is the language of the messages
unless the caller asks for another one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from eloleague.errors import Problem
from eloleague.i18n import LANGUAGES
from eloleague.io.sheets.archive import DAMAGE, DamagedWorkbook, damaged, open_workbook
from eloleague.io.sheets.cells import CellError, Grid, Value, as_text
from eloleague.io.sheets.layout import (
    EVENT,
    LISTS,
    RESULTS,
    SHEET_ORDER,
    fold,
    layout_for,
    read_stamp,
    tr,
)
from eloleague.io.sheets.parse import EventInfo, Findings, find_header, read_event, read_results
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet

STAMP_ROWS = 3

SheetResult = tuple[list[GameRecord], list[Problem], list[Problem]]


def _grid(ws: Worksheet, lang: str) -> Grid:
    grid = Grid(ws.title, lang)
    for row in ws.iter_rows():
        values: list[Value] = []
        for cell in row:
            value: Any = cell.value
            if cell.data_type == "e" and value is not None:
                value = CellError(str(value))
            values.append(value)
        while values and values[-1] is None:
            values.pop()
        if values and row[0].row is not None:
            grid.rows[row[0].row] = values
    for merged in ws.merged_cells.ranges:
        grid.merged.append(
            (merged.min_row, merged.min_col, merged.max_row, merged.max_col, merged.coord)
        )
    return grid


def _stamps(ws: Worksheet) -> dict[str, object] | None:
    for row in ws.iter_rows(min_row=1, max_row=STAMP_ROWS, values_only=True):
        for value in row:
            stamp = read_stamp(value)
            if stamp is not None:
                return stamp
    return None


def stamped_language(stamp: dict[str, object] | None, explicit: str | None) -> str:
    """The messages' language: the caller's choice, else the stamp's, else English."""
    for value in (explicit, (stamp or {}).get("lang")):
        if isinstance(value, str) and value in LANGUAGES:
            return value
    return "en"


def check_rules(
    stamp: dict[str, object] | None, rules: RuleSet, found: Findings, where: str
) -> bool:
    """Refuse a workbook stamped for another rule set, saying what to do."""
    if stamp is None or stamp.get("rules") in (None, rules.name):
        return True
    found.error(
        where,
        'this workbook was made for the rule set "{found}", not "{expected}": import '
        'it into a league that uses "{found}", or make a new template with '
        "eloleague template --rules {expected}",
        found=str(stamp.get("rules")),
        expected=rules.name,
    )
    return False


def players_of(stamp: dict[str, object] | None) -> int | None:
    value = (stamp or {}).get("players")
    return value if isinstance(value, int) and value > 0 else None


def parse_workbook(
    data: bytes,
    rules: RuleSet,
    lang: str | None = None,
    known_players: Iterable[str] = (),
    *,
    events: list[EventInfo] | None = None,
) -> SheetResult:
    """Read a referee workbook: ``(games, problems, warnings)``.

    Problems and warnings are located by sheet, row and column, with the cell's value, in
    ``lang`` (default: the language stamped in the workbook). ``known_players`` adds registered
    names to the ones the template listed, for the "looks like" warnings. ``events`` (when given)
    receives the event sheet's facts (name, dates, place, referee) of a workbook read cleanly.
    """
    try:
        return _read_book(open_workbook(data), rules, lang, known_players, events)
    except DamagedWorkbook as exc:
        error = exc
    except DAMAGE as exc:  # a value openpyxl read from a damaged file that makes no sense
        error = damaged(exc)
    found = Findings(lang if lang in LANGUAGES else "en")
    found.unreadable(lang, error.template, **error.params)
    return [], found.problems, found.warnings


def _read_book(
    book: Workbook,
    rules: RuleSet,
    lang: str | None,
    known_players: Iterable[str],
    events: list[EventInfo] | None = None,
) -> SheetResult:
    sheets: dict[str, Worksheet] = {}
    stamps: dict[str, dict[str, object]] = {}
    for ws in book.worksheets:
        stamp = _stamps(ws)
        if stamp is not None and str(stamp["kind"]) not in sheets:
            sheets[str(stamp["kind"])] = ws
            stamps[str(stamp["kind"])] = stamp
    stamp = stamps.get(RESULTS) or stamps.get(EVENT)
    found = Findings(stamped_language(stamp, lang))
    if not check_rules(stamp, rules, found, (sheets.get(RESULTS) or book.worksheets[0]).title):
        return [], found.problems, found.warnings
    layout = layout_for(rules, players_of(stamps.get(RESULTS)))

    if RESULTS not in sheets:
        for ws in book.worksheets:
            grid = _grid(ws, found.lang)
            header = find_header(grid, layout)
            if header is not None:
                sheets[RESULTS] = ws
                if stamp is None and lang is None:
                    found.lang = sheet_language(grid.rows[header]) or found.lang
                break
    for kind in (RESULTS, EVENT, LISTS):
        position = SHEET_ORDER.index(kind)
        if kind not in sheets and len(book.worksheets) == len(SHEET_ORDER):
            sheets[kind] = book.worksheets[position]
    if RESULTS not in sheets:
        if len(book.worksheets) == 1:
            sheets[RESULTS] = book.worksheets[0]
        else:
            found.error(
                "",
                "no results sheet found: the workbook has no sheet with the header {labels}",
                labels=", ".join(c.header(found.lang) for c in layout.columns),
            )
            return [], found.problems, found.warnings

    event = EventInfo()
    if EVENT in sheets:
        event = read_event(_grid(sheets[EVENT], found.lang), found)
    if not event.name and rules.updates == "per_event":
        found.warn(
            sheets[EVENT].title if EVENT in sheets else "",
            "the event has no name: with rule set {rules} each game is then rated on its "
            "own instead of with its event",
            rules=rules.name,
        )
    known = list(known_players)
    if LISTS in sheets:
        known += registered_names(sheets[LISTS])
    games = read_results(_grid(sheets[RESULTS], found.lang), layout, rules, event, found, known)
    if found.problems:
        return [], found.problems, found.warnings
    if events is not None:
        events.append(event)
    return games, found.problems, found.warnings


def registered_names(ws: Worksheet) -> list[str]:
    """The registered players the template listed (column A of the lists sheet, below its title)."""
    names = []
    for (value,) in ws.iter_rows(min_row=2, max_col=1, values_only=True):
        text = as_text(value if isinstance(value, str | int | float) else None)
        if text and read_stamp(text) is None:
            names.append(text)
    return names


def sheet_language(values: Iterable[object]) -> str | None:
    """``"fr"`` when a header row is in French, ``"en"`` when in English, else ``None``."""
    folded = {fold(as_text(v)) for v in values if isinstance(v, str)}
    for lang in ("fr", "en"):
        if fold(tr(lang, "Player {side}{n}", side="A", n=1)) in folded:
            return lang
        if lang == "fr" and fold(tr(lang, "Game")) in folded:
            return lang
    return None
