"""The published list as a PDF: the league's name, the list's date, then rank, player, rating,
games and title on A4 pages with the header repeated (fpdf2, pure Python).

It takes plain data (ranking rows, their ranks and the column headings in the reader's language),
never the database. The text is set in DejaVu Sans, shipped with eloleague (``fonts/``, its
licence beside it) and embedded in each PDF with only the letters used: the names of an
international league keep their letters (Paweł, Dvořák, Łukasz, Şahin), which PDF's standard
fonts, limited to Windows-1252, cannot write. A letter DejaVu Sans lacks (Chinese, Japanese) is
written as ``?``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # fontTools ships no hints
from fpdf import FPDF
from fpdf.fonts import FontFace

FONT = "DejaVu"
_FONTS = resources.files("eloleague.io") / "fonts"


@cache
def _letters() -> frozenset[int]:
    """The characters DejaVu Sans draws (its character map)."""
    with resources.as_file(_FONTS / "DejaVuSans.ttf") as path:
        return frozenset(TTFont(path, lazy=True).getBestCmap())


def _drawable(text: str) -> str:
    """``text`` with each character the font lacks (Chinese, Japanese...) written without its
    accent when that one is drawn, else as ``?``: a name is never left with a silent gap."""
    letters = _letters()
    if all(ord(c) in letters for c in text):
        return text
    out = []
    for char in text:
        if ord(char) in letters:
            out.append(char)
            continue
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        out.append(plain if plain and all(ord(c) in letters for c in plain) else "?")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class ListPage:
    """What the PDF shows: a title, a subtitle (the date), column headings and the rows' cells
    (already formatted); ``numeric`` says which columns are right-aligned."""

    title: str
    subtitle: str
    headings: Sequence[str]
    rows: Sequence[Sequence[str]]
    numeric: Sequence[bool]
    widths: Sequence[float]
    footer: str = ""


def list_pdf(page: ListPage) -> bytes:
    """The list as PDF bytes (A4, portrait)."""
    with ExitStack() as files:  # the fonts as files while the PDF is made (fpdf2 reads them)
        regular = files.enter_context(resources.as_file(_FONTS / "DejaVuSans.ttf"))
        bold = files.enter_context(resources.as_file(_FONTS / "DejaVuSans-Bold.ttf"))
        return _pdf(page, str(regular), str(bold))


def _pdf(page: ListPage, regular: str, bold: str) -> bytes:
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.add_font(FONT, "", regular)
    pdf.add_font(FONT, "B", bold)
    pdf.set_title(_drawable(page.title))
    pdf.set_creator("eloleague")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font(FONT, style="B", size=16)
    pdf.multi_cell(0, 8, _drawable(page.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=11)
    pdf.multi_cell(0, 6, _drawable(page.subtitle), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(FONT, size=9)
    aligns = tuple("RIGHT" if n else "LEFT" for n in page.numeric)
    heading = FontFace(emphasis="BOLD", fill_color=(229, 231, 235))
    with pdf.table(
        col_widths=tuple(page.widths),
        text_align=aligns,
        headings_style=heading,
        line_height=5,
        repeat_headings=1,
        borders_layout="HORIZONTAL_LINES",
    ) as table:
        row = table.row()
        for text in page.headings:
            row.cell(_drawable(text))
        for cells in page.rows:
            row = table.row()
            for text in cells:
                row.cell(_drawable(text))
    if page.footer:
        pdf.ln(3)
        pdf.set_font(FONT, size=8)
        pdf.multi_cell(0, 4, _drawable(page.footer), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
