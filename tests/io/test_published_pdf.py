"""The published list's PDF writes every name as it is spelt (docs/web.md, "Published list")."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from eloleague.io.published import ListPage, list_pdf

NAMES = ["Paweł Żak", "Antonín Dvořák", "Łukasz Wiśniewski", "Ömer Şahin", "Zoë Lefèvre"]


def _text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _page(rows: list[list[str]]) -> ListPage:
    return ListPage(
        title="Ligue d’Europe",
        subtitle="Classement au 31\u202fdécembre 2024",
        headings=["Rang", "Joueur", "Cote", "Parties", "Titre"],
        rows=rows,
        numeric=[True, False, True, True, False],
        widths=[15, 80, 25, 20, 40],
        footer="Titres\u202f: Maître, Grand maître",
    )


def test_names_of_an_international_league_keep_their_letters() -> None:
    rows = [[str(i), name, "1500", "12", ""] for i, name in enumerate(NAMES, start=1)]
    text = _text(list_pdf(_page(rows)))
    for name in NAMES:  # Windows-1252's standard fonts gave "Pawe? Zak", "Antonin Dvorak"...
        assert name in text
    assert "Ligue d’Europe" in text and "décembre 2024" in text and "Grand maître" in text


def test_a_letter_the_font_lacks_shows_as_a_question_mark_never_as_nothing() -> None:
    rows = [["1", "李娜", "1500", "12", ""], ["2", "Ｊｏｈｎ", "1490", "3", ""]]
    text = _text(list_pdf(_page(rows)))
    assert "1 ?? 1500" in text  # not "1 1500": a reader sees that a name is there
    assert "John" in text  # full-width letters written as their plain form


def test_a_long_list_repeats_its_headings_on_each_page_and_keeps_every_row() -> None:
    long = "Jean-Baptiste Alexandre Maximilien de La Rochefoucauld-Montmorency-Laval le Grand"
    rows = [[str(i), f"Joueur {i}", "1 400", "3", ""] for i in range(1, 131)]
    rows[2][1] = long  # wider than its column: set on two lines, the row kept whole
    pages = PdfReader(io.BytesIO(list_pdf(_page(rows)))).pages
    texts = [page.extract_text() for page in pages]
    assert len(texts) >= 3
    for text in texts:
        assert "Rang Joueur Cote Parties Titre" in text
    lines = [line for text in texts for line in text.splitlines()]
    ranks = [int(m[1]) for m in map(re.compile(r"(\d+) [^\d\s]").match, lines) if m]
    assert ranks == list(range(1, 131))  # every row once, in order, none lost at a page break
    assert " ".join(long.split()) in " ".join(" ".join(texts).split())
    assert "Grand maître" in texts[-1] and "Grand maître" not in texts[0]
