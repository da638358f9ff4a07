"""The published list: the ranking as of a day (the latest ratings, or a season's end), as a page
to print and as PDF and xlsx downloads, with the league's name and the date."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

from fastapi.testclient import TestClient
from openpyxl import load_workbook
from pypdf import PdfReader

from eloleague.engine.standings import competition_ranks
from eloleague.league import League
from tests.web.conftest import BE, Site

EN = {"Accept-Language": "en"}


def _pdf_text(data: bytes) -> str:
    """The text drawn in a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_list_as_of_a_season_end_matches_the_league(
    read_client: TestClient, built_site: Site
) -> None:
    page = read_client.get(f"/leagues/{BE}/list", headers=EN)
    assert page.status_code == 200
    ends = re.findall(r'<option value="(\d{4}-\d{2}-\d{2})"', page.text)
    assert ends, "a league over several years offers its season ends"
    day = ends[-1]  # the oldest season end
    league = League.open(str(built_site.db), BE)
    want = league.ranking(as_of=dt.date.fromisoformat(day))
    ranks = competition_ranks(want)
    dated = read_client.get(f"/leagues/{BE}/list", params={"date": day}, headers=EN).text
    assert "Ranking as of " + dt.date.fromisoformat(day).strftime("%-d %B %Y") in dated
    cells = re.findall(r'<td class="n rank">(\d+)</td><td>([^<]+)<', dated)
    assert [(int(r), html.unescape(p)) for r, p in cells] == [
        (rank, row.player) for rank, row in zip(ranks, want, strict=True)
    ]
    assert f"list.pdf?date={day}" in dated and f"list.xlsx?date={day}" in dated

    book = load_workbook(
        io.BytesIO(read_client.get(f"/leagues/{BE}/list.xlsx", params={"date": day}).content)
    )
    sheet = book.active
    assert sheet is not None
    assert sheet["A1"].value == BE
    assert "31" in str(sheet["A2"].value) and day[:4] in str(sheet["A2"].value)
    got = [(sheet.cell(n, 1).value, sheet.cell(n, 2).value) for n in range(4, 4 + len(want))]
    assert got == [(rank, row.player) for rank, row in zip(ranks, want, strict=True)]

    pdf = read_client.get(f"/leagues/{BE}/list.pdf", params={"date": day, "lang": "fr"})
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-")
    assert "attachment" in pdf.headers["content-disposition"]
    text = _pdf_text(pdf.content)
    assert BE in text and "Classement au" in text
    for row in want[:5]:
        assert row.player in text


def test_the_latest_list_is_the_current_ranking(read_client: TestClient) -> None:
    api = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()
    page = read_client.get(f"/leagues/{BE}/list", headers=EN).text
    cells = re.findall(r'<td class="n rank">(\d+)</td><td>([^<]+)<', page)
    assert [(int(r), html.unescape(p)) for r, p in cells] == [
        (r["rank"], r["player"]) for r in api["rows"]
    ]
    assert f"Ranking as of {dt.date.fromisoformat(api['as_of']).strftime('%-d %B %Y')}" in page


def test_a_bad_date_is_a_422_for_programs_and_the_latest_list_for_visitors(
    read_client: TestClient,
) -> None:
    api = read_client.get(f"/api/v1/leagues/{BE}/list", params={"date": "31/12/2024"})
    assert api.status_code == 422 and api.json()["error"]["code"] == "invalid_request"
    page = read_client.get(f"/leagues/{BE}/list", params={"date": "31/12/2024"}, headers=EN)
    assert page.status_code == 200 and "as the ranking stood" not in page.text
    before = read_client.get(f"/leagues/{BE}/list", params={"date": "1900-01-01"}, headers=EN)
    assert before.status_code == 200 and "No player matches." in before.text
