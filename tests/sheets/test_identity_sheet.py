"""The referee's sheet with the optional id columns (docs/sheets.md): two "Jean Dupont" with
different ids in one sheet are two players of one league and one ranking."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook

from eloleague.errors import InputError
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules
from tests.sheets.fill import filled_workbook, header_columns, to_bytes

DAY = dt.date(2025, 3, 1)


def _duel(a: str, b: str, round_no: int) -> GameRecord:
    return GameRecord(
        DAY,
        (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
        round=round_no,
    )


def _with_ids(book: Workbook, lang: str, ids: list[tuple[str, str]]) -> None:
    """Add the id columns right of the table (after the hidden stamp column), as an officer
    would, and write each game's ids."""
    ws = book["Résultats" if lang == "fr" else "Results"]
    header, cols = header_columns(ws)
    first = max(cols.values()) + 2
    ws.cell(row=header, column=first, value="Identifiant A1" if lang == "fr" else "Id A1")
    ws.cell(row=header, column=first + 1, value="Identifiant B1" if lang == "fr" else "Id B1")
    for i, (a, b) in enumerate(ids, start=1):
        ws.cell(row=header + i, column=first, value=a or None)
        ws.cell(row=header + i, column=first + 1, value=b or None)


def test_two_jean_dupont_in_one_sheet(tmp_path: Path) -> None:
    rules = load_rules("bataille-empire")
    games = [
        _duel("Jean Dupont", "Jean Dupont", 1),
        _duel("Jean Dupont", "Alice Martin", 2),
        _duel("Alice Martin", "Jean Dupont", 3),
    ]
    book = filled_workbook(rules, games, "fr", event="Austerlitz 2025")
    _with_ids(book, "fr", [("FR-1", "FR-2"), ("FR-2", ""), ("", "FR-1")])
    path = tmp_path / "austerlitz.xlsx"
    path.write_bytes(to_bytes(book))
    league = League.create(str(tmp_path / "fede.db"), "Fédé", "bataille-empire")
    report = league.import_file(path)
    assert report.added == 3
    assert sorted(league.players()) == [
        "Alice Martin",
        "Jean Dupont (FR-1)",
        "Jean Dupont (FR-2)",
    ]
    rows = {r.player: r for r in league.ranking()}
    assert (rows["Jean Dupont (FR-1)"].games, rows["Jean Dupont (FR-2)"].games) == (2, 2)
    assert league.identity("Jean Dupont (FR-2)").federation_id == "FR-2"
    # The same sheet again: nothing new.
    assert league.import_file(path).added == 0
    # One API answer holds both, each with her id.
    from fastapi.testclient import TestClient

    from eloleague.web import Settings, create_app

    client = TestClient(create_app(Settings(db=str(tmp_path / "fede.db"), secret="s" * 40)))
    got = client.get("/api/v1/leagues/Fédé/ranking", params={"q": "dupont"})
    assert got.status_code == 200, got.text
    assert sorted((r["player"], r["federation_id"]) for r in got.json()["rows"]) == [
        ("Jean Dupont (FR-1)", "FR-1"),
        ("Jean Dupont (FR-2)", "FR-2"),
    ]


def test_the_template_with_id_columns_reads_back(tmp_path: Path) -> None:
    rules = load_rules("bataille-empire")
    games = [_duel("Jean Dupont", "Jean Dupont", 1)]
    from eloleague.io.sheets import build_template
    from tests.sheets.fill import fill_event, fill_two_sided

    book = build_template(rules, "Ligue test", (), "en", ids=True)
    fill_event(book, "en", "Ulm", DAY, DAY)
    fill_two_sided(book, rules, games, "en")
    ws = book["Results"]
    header, cols = header_columns(ws)
    assert cols["Id A1"] > cols["Result"] + 1  # right of the table and its hidden stamp
    ws.cell(row=header + 1, column=cols["Id A1"], value="FR-1")
    ws.cell(row=header + 1, column=cols["Id B1"], value="FR-2")
    path = tmp_path / "ulm.xlsx"
    path.write_bytes(to_bytes(book))
    league = League.create(str(tmp_path / "fede.db"), "Fédé", "bataille-empire")
    league.import_file(path)
    assert league.players() == ["Jean Dupont (FR-1)", "Jean Dupont (FR-2)"]
    # Without ids, the same names on one row are one player twice: refused, located.
    ws.cell(row=header + 1, column=cols["Id A1"]).value = None
    ws.cell(row=header + 1, column=cols["Id B1"]).value = None
    path.write_bytes(to_bytes(book))
    with pytest.raises(InputError, match="appears twice"):
        league.import_file(path)


def test_a_free_for_all_sheet_with_its_id_column(tmp_path: Path) -> None:
    from eloleague.io import parse_jsonl
    from eloleague.io.sheets import build_template
    from tests.conftest import REPLAY
    from tests.sheets.fill import fill_ffa

    rules = load_rules("diplomacy")
    (game,) = parse_jsonl((REPLAY / "diplomacy.jsonl").read_bytes().splitlines()[0])[0]
    renamed = {"Hélène D005": "Jean Dupont", "Paul D003": "Jean Dupont"}
    game = GameRecord(
        game.date,
        tuple(
            Side(
                tuple(Participant(renamed.get(p.name, p.name), p.role) for p in s.players),
                None,
                s.score,
            )
            for s in game.sides
        ),
        id=game.id,
        mode=game.mode,
    )
    book = build_template(rules, "Ligue test", (), "fr", ids=True)
    fill_ffa(book, rules, [game], "fr")
    ws = book["Résultats"]
    header, cols = header_columns(ws)
    for row in range(header + 1, header + 1 + len(rules.roles) + 1):
        written = str(
            ws.cell(row=row, column=cols["Pays"]).value
        )  # "Angleterre" under « Pays »: in French
        who = {"England": "FR-1", "Austria": "FR-2"}.get(rules.names_of().get(written, written))
        if who:
            ws.cell(row=row, column=cols["Identifiant"], value=who)
    path = tmp_path / "diplo.xlsx"
    path.write_bytes(to_bytes(book))
    league = League.create(str(tmp_path / "d.db"), "Diplo", "diplomacy")
    league.import_file(path)
    names = league.players()
    assert "Jean Dupont (FR-1)" in names and "Jean Dupont (FR-2)" in names
    assert "Jean Dupont" not in names
