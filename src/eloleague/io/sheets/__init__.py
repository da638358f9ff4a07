"""Referee workbooks: the template, its reader (xlsx and CSV) and the xlsx exports (docs/sheets.md).

``build_template`` / ``write_template`` make the workbook a referee fills in; ``parse_workbook`` and
``parse_sheet_csv`` read it back into games with every problem located by sheet, row and column in
the referee's language; :mod:`eloleague.io.sheets.exports` writes rankings, event reports and
player histories as formatted xlsx with a plain CSV beside each.
"""

from eloleague.io.long_csv import is_long_csv
from eloleague.io.sheets.reader import parse_workbook
from eloleague.io.sheets.sheet_csv import parse_sheet_csv, workbook_to_csv
from eloleague.io.sheets.template import build_template, write_template

__all__ = [
    "build_template",
    "is_long_csv",
    "parse_sheet_csv",
    "parse_workbook",
    "workbook_to_csv",
    "write_template",
]
