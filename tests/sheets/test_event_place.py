"""The event sheet's place and referee (docs/sheets.md): kept with the event when the workbook is
imported, shown by the event report (CLI and workbook), the event page and the API."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fastapi.testclient import TestClient
from openpyxl import load_workbook

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules
from eloleague.web import Settings, create_app
from tests.conftest import run_cli
from tests.sheets.fill import filled_workbook, to_bytes

DAY = dt.date(2025, 3, 1)


def _workbook(tmp_path: Path, lang: str = "fr") -> Path:
    rules = load_rules("bataille-empire")
    games = [
        GameRecord(
            DAY,
            (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
            round=n,
        )
        for n, (a, b) in enumerate([("Alice", "Bruno"), ("Chloé", "Alice")], start=1)
    ]
    path = tmp_path / "austerlitz.xlsx"
    path.write_bytes(to_bytes(filled_workbook(rules, games, lang, event="Austerlitz 2025")))
    return path  # fill_event writes the place "Lyon" and the referee "Rémi Arbitre"


def test_place_and_referee_are_kept_and_shown(tmp_path: Path) -> None:
    db = tmp_path / "fede.db"
    league = League.create(str(db), "Fédé", "bataille-empire")
    dry = league.import_file(_workbook(tmp_path), dry_run=True)
    assert dry.added == 2
    assert league.events() == []  # a dry run stores nothing, place included
    league.import_file(_workbook(tmp_path))
    report = league.event("Austerlitz 2025")
    assert (report.place, report.referee) == ("Lyon", "Rémi Arbitre")
    (summary,) = league.events()
    assert (summary.place, summary.referee) == ("Lyon", "Rémi Arbitre")

    client = TestClient(create_app(Settings(db=str(db), secret="s" * 40)))
    api = client.get("/api/v1/leagues/Fédé/events/Austerlitz 2025").json()
    assert (api["place"], api["referee"]) == ("Lyon", "Rémi Arbitre")
    listed = client.get("/api/v1/leagues/Fédé/events").json()["events"]
    assert (listed[0]["place"], listed[0]["referee"]) == ("Lyon", "Rémi Arbitre")
    page = client.get("/leagues/Fédé/events/Austerlitz 2025", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "Lyon" in page.text and "arbitre" in page.text and "Rémi Arbitre" in page.text
    page = client.get("/leagues/Fédé/events/Austerlitz 2025", headers={"Accept-Language": "en"})
    assert "referee: Rémi Arbitre" in page.text

    shown = run_cli("events", "Austerlitz 2025", "--db", str(db), env={"ELOLEAGUE_LANG": "fr"})
    assert shown.returncode == 0, shown.stderr
    assert "Lyon · arbitre\u202f: Rémi Arbitre" in shown.stdout
    out = tmp_path / "rapport.xlsx"
    done = run_cli("events", "Austerlitz 2025", "-o", str(out), "--db", str(db))
    assert done.returncode == 0, done.stderr
    title = load_workbook(out).worksheets[0].cell(row=1, column=1).value
    assert isinstance(title, str) and "Lyon" in title and "referee: Rémi Arbitre" in title
