"""The published list as a PDF: the league's name, the list's date, then rank, player, rating,
games and title on A4 pages with the header repeated (fpdf2, pure Python).

It takes plain data (ranking rows, their ranks and the column headings in the reader's language),
never the database. The PDF uses the standard Helvetica font with the Windows-1252 character set
(French and most Western European names); a letter outside it is written without its accent, or
as ``?`` when it has no plain form.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from fpdf import FPDF
from fpdf.fonts import FontFace

ENCODING = "windows-1252"


def _printable(text: str) -> str:
    """``text`` in the PDF's character set: letters outside it lose their accent or become ?."""
    out = []
    for char in text:
        if (
            char == "\u202f"
        ):  # French typography's narrow no-break space: the PDF fonts' no-break space
            out.append("\u00a0")
            continue
        try:
            char.encode(ENCODING)
            out.append(char)
        except UnicodeEncodeError:
            plain = "".join(
                c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
            )
            try:
                plain.encode(ENCODING)
                out.append(plain or "?")
            except UnicodeEncodeError:
                out.append("?")
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
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.core_fonts_encoding = ENCODING
    pdf.set_title(_printable(page.title))
    pdf.set_creator("eloleague")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("Helvetica", style="B", size=16)
    pdf.multi_cell(0, 8, _printable(page.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, _printable(page.subtitle), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font("Helvetica", size=9)
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
            row.cell(_printable(text))
        for cells in page.rows:
            row = table.row()
            for text in cells:
                row.cell(_printable(text))
    if page.footer:
        pdf.ln(3)
        pdf.set_font("Helvetica", size=8)
        pdf.multi_cell(0, 4, _printable(page.footer), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
