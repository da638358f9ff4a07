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
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # fontTools ships no hints
from fpdf import FPDF

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
    if letters.issuperset(map(ord, text)):
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


LINE = 5.0  # mm: the height of a table line
HEADING_FILL = (229, 231, 235)


class _ListPDF(FPDF):
    """An FPDF whose pages after the first start with the table's headings (:meth:`header` is
    called by every page break)."""

    headings: Callable[[], None] | None = None

    def header(self) -> None:
        if self.headings is not None:
            self.headings()


def _pdf(page: ListPage, regular: str, bold: str) -> bytes:
    """The layout, cell by cell: fpdf2's ``table()`` took about 11 s for 10,000 rows, these
    plain cells about 2.3 (docs/benchmarks.md, "Web site"). A row whose text is wider than its
    column is set on several lines, and moved whole to the next page when it would not fit."""
    pdf = _ListPDF(orientation="portrait", unit="mm", format="A4")
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
    scale = pdf.epw / sum(page.widths)
    widths = [w * scale for w in page.widths]
    aligns = ["R" if n else "L" for n in page.numeric]
    room = [w - 2 * pdf.c_margin for w in widths]  # the text's width in each column

    def rule() -> None:  # the line under a row
        pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + pdf.epw, pdf.get_y())

    def row(cells: Sequence[str]) -> None:
        texts = [_drawable(t) for t in cells]
        if all(pdf.get_string_width(t) <= r for t, r in zip(texts, room, strict=True)):
            # One line: the first cell breaks the page itself when the line does not fit.
            for w, t, a in zip(widths, texts, aligns, strict=True):
                pdf.cell(w, LINE, t, align=a)
            pdf.ln(LINE)
        else:  # a long name (or title) on several lines, the row kept whole
            height = LINE * max(_lines(pdf, w, t) for w, t in zip(widths, texts, strict=True))
            if pdf.will_page_break(height):
                pdf.add_page()
            top = pdf.get_y()
            for w, t, a in zip(widths, texts, aligns, strict=True):
                pdf.multi_cell(w, LINE, t, align=a, new_x="RIGHT", new_y="TOP")
            pdf.set_xy(pdf.l_margin, top + height)
        rule()

    def headings() -> None:
        pdf.set_font(FONT, style="B", size=9)
        pdf.set_fill_color(*HEADING_FILL)
        for w, t, a in zip(widths, page.headings, aligns, strict=True):
            pdf.cell(w, LINE, _drawable(t), align=a, fill=True)
        pdf.ln(LINE)
        rule()
        pdf.set_font(FONT, size=9)

    headings()
    pdf.headings = headings  # repeated on each new page
    for cells in page.rows:
        row(cells)
    pdf.headings = None
    if page.footer:
        pdf.ln(3)
        pdf.set_font(FONT, size=8)
        pdf.multi_cell(0, 4, _drawable(page.footer), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _lines(pdf: FPDF, width: float, text: str) -> int:
    """The lines ``text`` takes in a column ``width`` wide."""
    lines = pdf.multi_cell(width, LINE, text, dry_run=True, output="LINES")
    assert isinstance(lines, list)
    return len(lines)
