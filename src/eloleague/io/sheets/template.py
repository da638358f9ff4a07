"""The referee's workbook: an empty results sheet shaped for a rule set (docs/sheets.md).

``build_template(rules, league, players, lang)`` returns an openpyxl workbook with four sheets:
instructions, the event (name, dates, place, referee), the results (frozen header, column widths,
drop-downs for players, results and roles, date and number checks) and a hidden sheet of lists.
Each sheet carries a stamp in a hidden cell of its first row (kind, rule set, language, layout) so
that the reader finds it after a rename and refuses it in a league with other rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from eloleague.engine.methods import ranked
from eloleague.i18n import Text
from eloleague.io.sheets.layout import (
    EVENT,
    EVENT_FIELDS,
    INSTRUCTIONS,
    LISTS,
    RESULTS,
    SHEET_TITLES,
    Layout,
    id_columns,
    id_header,
    layout_for,
    make_stamp,
    result_choices,
    tr,
    venue_choices,
)
from eloleague.records import normalise_name
from eloleague.rules.model import RuleSet

DUEL_ROWS = 300
FFA_BLOCKS = 40
DATE_FORMAT = "DD/MM/YYYY"
HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
HEADER_FONT = Font(bold=True, color="FFFFFF")
TITLE_FONT = Font(bold=True, size=14)
BLOCK_FILL = PatternFill("solid", fgColor="DDEBF7")
THIN = Side(style="thin", color="A6A6A6")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
STAMP_FONT = Font(size=7, color="BFBFBF")


def sheet_title(kind: str, lang: str) -> str:
    return tr(lang, SHEET_TITLES[kind])


def _stamp(ws: Worksheet, column: int, text: str) -> None:
    cell = ws.cell(row=1, column=column, value=text)
    cell.font = STAMP_FONT
    ws.column_dimensions[get_column_letter(column)].hidden = True


def _instructions(ws: Worksheet, rules: RuleSet, league: str | None, lang: str) -> None:
    ws.column_dimensions["A"].width = 110
    lines = [
        (tr(lang, "Result sheet of {league}", league=league or rules.name), TITLE_FONT),
        (tr(lang, "Rule set: {rules}", rules=rules.name), Font(italic=True)),
        ("", None),
        (
            tr(
                lang,
                "1. On the sheet {sheet}, write the event's name, first and last day, place "
                "and referee.",
                sheet=sheet_title(EVENT, lang),
            ),
            None,
        ),
    ]
    if ranked(rules):
        lines += [
            (
                tr(
                    lang,
                    "2. On the sheet {sheet}, one block per game: on its first row the game id, "
                    "the date, the mode and whether it is rated (yes/no); then, on the row of each "
                    "{role}, the player and the score.",
                    sheet=sheet_title(RESULTS, lang),
                    role=rules.role_noun(lang) or Text.of("role"),  # Diplomacy's « pays »
                ),
                None,
            ),
            (
                tr(
                    lang,
                    "   Leave the player and the score of a row empty when nobody played there: "
                    "the game is then kept but not rated.",
                ),
                None,
            ),
        ]
    else:
        lines += [
            (
                tr(
                    lang,
                    "2. On the sheet {sheet}, one row per game: date, round, table, the players "
                    "of side A, the players of side B and the result seen from side A.",
                    sheet=sheet_title(RESULTS, lang),
                ),
                None,
            ),
            (
                tr(
                    lang,
                    "   Choose players from the list of registered players; a new player may be "
                    "typed in full (the sheet asks for confirmation).",
                ),
                None,
            ),
        ]
    lines += [
        (
            tr(
                lang,
                "3. Dates as 02/03/2025 or 2025-03-02, inside the event's days. Blank rows are "
                "ignored.",
            ),
            None,
        ),
        (
            tr(
                lang,
                "4. Do not insert, move or delete columns, do not merge cells, do not leave "
                "formula errors: the import names every cell to fix.",
            ),
            None,
        ),
        (
            tr(
                lang,
                "5. Send the workbook to the ranking officer, who imports it with: eloleague "
                "import FILE.xlsx",
            ),
            None,
        ),
    ]
    for row, (text, font) in enumerate(lines, start=1):
        cell = ws.cell(row=row, column=1, value=text)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        if font is not None:
            cell.font = font
    _stamp(ws, 3, make_stamp(INSTRUCTIONS, rules, lang))


def _event(ws: Worksheet, rules: RuleSet, league: str | None, lang: str) -> None:
    ws.column_dimensions["A"].width = 28
    ws.column_dimensions["B"].width = 40
    ws.cell(row=1, column=1, value=sheet_title(EVENT, lang)).font = TITLE_FONT
    prefilled = {"league": league or "", "rules": rules.name}
    for row, (key, label) in enumerate(EVENT_FIELDS, start=2):
        head = ws.cell(row=row, column=1, value=tr(lang, label))
        head.font = Font(bold=True)
        head.border = BOX
        cell = ws.cell(row=row, column=2, value=prefilled.get(key) or None)
        cell.border = BOX
        if key in ("start", "end"):
            cell.number_format = DATE_FORMAT
        if key in prefilled:
            cell.font = Font(color="808080")
    _date_check(ws, ["B3:B4"], lang, title=tr(lang, "Date"))
    ws.freeze_panes = "A2"
    _stamp(ws, 4, make_stamp(EVENT, rules, lang))


def _lists(ws: Worksheet, rules: RuleSet, players: list[str], lang: str) -> dict[str, str]:
    """Write the drop-down sources; return the range of each list (``Lists!$A$2:$A$9``)."""
    columns = {
        "players": (1, tr(lang, "Registered players"), players),
        "results": (
            2,
            tr(lang, "Result"),
            [c.text(lang) for c in result_choices(rules)] if rules.outcomes else [],
        ),
        "roles": (
            3,
            rules.roles_heading(lang) or tr(lang, "Role"),
            [rules.label(r, lang) for r in rules.roles],
        ),
        "yesno": (4, tr(lang, "Rated"), [tr(lang, "yes"), tr(lang, "no")]),
        "venues": (5, tr(lang, "Venue"), venue_choices(lang) if rules.home_advantage else []),
    }
    ranges = {}
    quoted = "'" + ws.title.replace("'", "''") + "'"
    for key, (col, title, values) in columns.items():
        letter = get_column_letter(col)
        ws.column_dimensions[letter].width = 30
        ws.cell(row=1, column=col, value=title).font = Font(bold=True)
        for row, value in enumerate(values, start=2):
            ws.cell(row=row, column=col, value=value)
        if values:
            ranges[key] = f"{quoted}!${letter}$2:${letter}${len(values) + 1}"
    _stamp(ws, 6, make_stamp(LISTS, rules, lang))
    ws.sheet_state = "hidden"
    return ranges


def _header_cell(ws: Worksheet, column: int, text: str, width: float) -> None:
    """A results sheet's column header, on row 2: bold white on dark blue, boxed, centred and
    wrapped; and the column's width."""
    cell = ws.cell(row=2, column=column, value=text)
    cell.font = HEADER_FONT
    cell.fill = HEADER_FILL
    cell.border = BOX
    cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
    ws.column_dimensions[get_column_letter(column)].width = width


def _header(ws: Worksheet, layout: Layout, title: str, lang: str) -> None:
    ws.cell(row=1, column=1, value=title).font = TITLE_FONT
    for col, column in enumerate(layout.columns, start=1):
        _header_cell(ws, col, column.header(lang), column.width)
    ws.freeze_panes = "A3"
    ws.row_dimensions[2].height = 30


def _id_header(ws: Worksheet, layout: Layout, lang: str) -> None:
    """The optional id columns, right of the hidden stamp column (docs/sheets.md)."""
    first = layout.stamp_column + 1
    for i, column in enumerate(id_columns(layout)):
        _header_cell(ws, first + i, id_header(column, lang), column.width)


def _validation(ws: Worksheet, cells: list[str], **options: object) -> None:
    if not cells:
        return
    validation = DataValidation(showErrorMessage=True, allow_blank=True, **options)  # type: ignore[arg-type]
    for ref in cells:
        validation.add(ref)
    ws.add_data_validation(validation)


def _column_cells(columns: Iterable[int], last: int) -> list[str]:
    """Each column's cells from the first row under the header (row 3) to row ``last``, as
    ``B3:B302``."""
    return [f"{get_column_letter(c)}3:{get_column_letter(c)}{last}" for c in columns]


def _between(
    ws: Worksheet, cells: list[str], kind: str, low: int, high: int, **options: object
) -> None:
    """Only a ``kind`` of value (``date``, ``whole`` or ``decimal``) from ``low`` to ``high``."""
    _validation(
        ws, cells, type=kind, operator="between", formula1=str(low), formula2=str(high), **options
    )


def _date_check(ws: Worksheet, cells: list[str], lang: str, title: str | None = None) -> None:
    """Dates only, from 1 January 1950 to 1 January 2100 (Excel's day numbers 18264 to 73051):
    a warning, that the referee may pass over (the import reads other spellings of a date)."""
    error = tr(lang, "Write a date, such as 02/03/2025.")
    _between(ws, cells, "date", 18264, 73051, errorStyle="warning", errorTitle=title, error=error)


def _score_check(ws: Worksheet, cells: list[str], lang: str) -> None:
    """Scores: a number from -1,000,000 to 1,000,000, or the cell is refused."""
    error = tr(lang, "The score is a number.")
    _between(ws, cells, "decimal", -1000000, 1000000, errorStyle="stop", error=error)


def _player_check(ws: Worksheet, cells: list[str], players: str, lang: str) -> None:
    """Players: a drop-down of the registered ``players`` (a range of the lists sheet); another
    name is a warning, since a newcomer may be typed in full."""
    _validation(
        ws,
        cells,
        type="list",
        formula1=players,
        errorStyle="warning",
        errorTitle=tr(lang, "New player?"),
        error=tr(
            lang, "This name is not in the list of registered players. Keep it as a new player?"
        ),
    )


def _choice_check(ws: Worksheet, cells: list[str], choices: str, error: str | None = None) -> None:
    """A drop-down of ``choices`` (a range of the lists sheet): any other value is refused, with
    the message ``error`` (or the spreadsheet's own)."""
    _validation(ws, cells, type="list", formula1=choices, errorStyle="stop", error=error)


def _results_two_sided(ws: Worksheet, layout: Layout, ranges: dict[str, str], lang: str) -> None:
    last = 2 + DUEL_ROWS
    for row in range(3, last + 1):
        for col in range(1, len(layout.columns) + 1):
            ws.cell(row=row, column=col).border = BOX
        ws.cell(row=row, column=layout.index("date")).number_format = DATE_FORMAT

    def cells(*keys: str) -> list[str]:
        return _column_cells((layout.index(k) for k in keys), last)

    _date_check(ws, cells("date"), lang)
    error = tr(lang, "The round is a whole number.")
    _between(ws, cells("round"), "whole", 0, 1000, errorStyle="stop", error=error)
    if "players" in ranges:
        players = _column_cells((i for i, c in enumerate(layout.columns, 1) if c.side), last)
        _player_check(ws, players, ranges["players"], lang)
    if "results" in ranges:
        error = tr(lang, "Choose the result in the list.")
        _choice_check(ws, cells("result"), ranges["results"], error)
    if "venues" in ranges and layout.has("venue"):
        error = tr(lang, "Choose the venue in the list, or leave it empty.")
        _choice_check(ws, cells("venue"), ranges["venues"], error)
    _score_check(ws, cells(*(k for k in ("points_a", "points_b") if layout.has(k))), lang)


def _results_ffa(
    ws: Worksheet, layout: Layout, rules: RuleSet, ranges: dict[str, str], lang: str
) -> None:
    col = {c.key: layout.index(c.key) for c in layout.columns}
    block = 1 + len(rules.roles) + 1
    last = 2 + FFA_BLOCKS * block
    for b in range(FFA_BLOCKS):
        first = 3 + b * block
        for c in range(1, len(layout.columns) + 1):
            head = ws.cell(row=first, column=c)
            head.fill = BLOCK_FILL
            head.border = BOX
        ws.cell(row=first, column=col["date"]).number_format = DATE_FORMAT
        for i, role in enumerate(rules.roles, start=1):
            ws.cell(row=first + i, column=col["role"], value=rules.label(role, lang))
            for key in ("role", "player", "score"):
                ws.cell(row=first + i, column=col[key]).border = BOX

    def cells(key: str) -> list[str]:
        return _column_cells([col[key]], last)

    _date_check(ws, cells("date"), lang)
    _score_check(ws, cells("score"), lang)
    if "yesno" in ranges:
        _choice_check(ws, cells("rated"), ranges["yesno"])
    if "roles" in ranges:
        _choice_check(ws, cells("role"), ranges["roles"])
    if "players" in ranges:
        _player_check(ws, cells("player"), ranges["players"], lang)


def build_template(
    rules: RuleSet,
    league: str | None = None,
    players: Iterable[str] = (),
    lang: str = "fr",
    *,
    ids: bool = False,
) -> Workbook:
    """The empty referee workbook for ``rules``, in ``lang``, listing the registered ``players``;
    ``ids``: with the optional id columns (a player's federation id, docs/sheets.md)."""
    names = sorted({normalise_name(p) for p in players if normalise_name(p)}, key=str.casefold)
    layout = layout_for(rules)
    book = Workbook()
    instructions = book.active
    assert instructions is not None
    instructions.title = sheet_title(INSTRUCTIONS, lang)
    event = book.create_sheet(sheet_title(EVENT, lang))
    results = book.create_sheet(sheet_title(RESULTS, lang))
    lists = book.create_sheet(sheet_title(LISTS, lang))
    _instructions(instructions, rules, league, lang)
    _event(event, rules, league, lang)
    ranges = _lists(lists, rules, names, lang)
    title = tr(lang, "Results of {league} ({rules})", league=league or "…", rules=rules.name)
    _header(results, layout, title, lang)
    if ids:
        _id_header(results, layout, lang)
    players_stamp = layout.players if not ranked(rules) else None
    _stamp(results, layout.stamp_column, make_stamp(RESULTS, rules, lang, players_stamp))
    if ranked(rules):
        _results_ffa(results, layout, rules, ranges, lang)
    else:
        _results_two_sided(results, layout, ranges, lang)
    book.active = book.worksheets.index(results)
    book.properties.title = title
    book.properties.subject = make_stamp(RESULTS, rules, lang, players_stamp)
    return book


def write_template(
    path: str | Path,
    rules: RuleSet,
    league: str | None = None,
    players: Iterable[str] = (),
    lang: str = "fr",
    *,
    ids: bool = False,
) -> Path:
    """Write the template to ``path`` (``.xlsx``) and return the path."""
    path = Path(path)
    build_template(rules, league, players, lang, ids=ids).save(path)
    return path
