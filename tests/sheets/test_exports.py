"""Ranking, event report and player history as formatted xlsx, with the plain CSV beside each."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from eloleague.engine import ReplayResult, replay
from eloleague.io import parse_jsonl
from eloleague.io.csv_dialect import EXCEL
from eloleague.io.ratings_csv import parse_initial
from eloleague.io.sheets.exports import export_event_xlsx, export_player_xlsx, export_ranking_xlsx
from eloleague.records import GameRecord
from eloleague.rules import load_rules
from tests.conftest import REPLAY

RULES = load_rules("bataille-empire")


def result() -> tuple[list[GameRecord], ReplayResult]:
    games, _ = parse_jsonl((REPLAY / "bataille-empire.jsonl").read_bytes())
    return games, replay(RULES, games, as_of=dt.date(2025, 6, 1))


def game_id(game: GameRecord) -> str:
    """The id of a game of the replay file, which gives every game one."""
    assert game.id is not None, game
    return game.id


def test_ranking_xlsx_and_the_rate_csv_beside_it(tmp_path: Path) -> None:
    _games, res = result()
    rows = res.standings()
    xlsx, beside = export_ranking_xlsx(rows, RULES, tmp_path / "ranking.xlsx", "fr")
    ws = load_workbook(xlsx)["Classement"]
    assert ws["A1"].value == "Classement — bataille-empire"
    assert [c.value for c in ws[2]] == ["#", "Joueur", "ELO", "Parties", "Titre"]
    assert ws.freeze_panes == "A3"
    assert (ws["B3"].value, ws["C3"].value, ws["D3"].value) == (
        rows[0].player,
        rows[0].rating,
        rows[0].games,
    )
    assert isinstance(ws["C3"].value, (int, float)) and ws["C3"].number_format == "0"
    assert ws.max_row == len(rows) + 2
    # In French, the CSV beside is the French spreadsheets' form, which reads back the same.
    rate_csv = (REPLAY / "bataille-empire.csv").read_text("utf-8")
    french = beside.read_text("utf-8")
    assert french.startswith("\ufeffjoueur;mode;rôle;cote;parties;titre\n")
    assert parse_initial(french, RULES) == parse_initial(rate_csv, RULES)
    _, plain = export_ranking_xlsx(rows, RULES, tmp_path / "plain.xlsx", "fr", dialect=EXCEL)
    assert plain.read_text("utf-8") == rate_csv


def test_event_report_has_the_seed_table_per_game(tmp_path: Path) -> None:
    games, res = result()
    event = [g for g in games if g.event == "Event 03"]
    ids = {g.id for g in event}
    entries = [e for e in res.ledger if e.game in ids]
    xlsx, beside = export_event_xlsx(
        "Event 03", entries, RULES, tmp_path / "event.xlsx", "en", games=event
    )
    book = load_workbook(xlsx)
    ws = book["Games"]
    assert ws["A1"].value == "Event report — Event 03"
    assert [c.value for c in ws[2]] == [
        "Player",
        "Role",
        "Result",
        "Before",
        "Expected (P)",
        "K",
        "Score (S)",
        "Change",
        "After",
        "Rules applied",
    ]
    first = event[0]
    assert ws["A3"].value == f"Game {first.id} — {first.date.isoformat()} — round {first.round}"
    entry = entries[0]
    assert [ws.cell(row=4, column=c).value for c in (1, 3, 4, 5, 6, 7, 8, 9)] == [
        entry.key.player,
        RULES.label(entry.outcome or "", "en"),  # the rule file's wording, not its label
        entry.before,
        entry.expected,
        entry.k,
        entry.score,
        entry.delta,
        entry.after,
    ]
    # the standings first, as the event's page gives them: rank, player, games, points,
    # performance, change (the sheet held the change alone)
    active = book.active
    assert book.sheetnames == ["Standings", "Games"] and active is not None
    assert active.title == "Standings"
    standings = book["Standings"]
    assert [c.value for c in standings[2]] == [
        "#", "Player", "Games", "Points", "Performance", "Change"
    ]  # fmt: skip
    table: list[list[Any]] = [[c.value for c in r] for r in standings.iter_rows(min_row=3)]
    players = {e.key.player for e in entries}
    assert sorted(r[1] for r in table) == sorted(players)
    points = [r[3] for r in table]
    assert points == sorted(points, reverse=True) and table[0][0] == 1
    for rank, player, played, scored, _performance, change in table:
        own = [e for e in entries if e.key.player == player]
        assert played == len({e.game for e in own}) and scored == sum(e.score or 0 for e in own)
        assert change == pytest.approx(sum(e.delta for e in own))
        assert rank == 1 + sum(1 for r in table if r[3] > scored)  # ties share a rank
    rows = list(csv.DictReader(beside.open(encoding="utf-8")))
    assert len(rows) == len(entries) and rows[0]["player"] == entry.key.player


def test_player_history(tmp_path: Path) -> None:
    _games, res = result()
    player = res.standings()[0].player
    mine = [e for e in res.ledger if e.key.player == player]
    xlsx, beside = export_player_xlsx(player, res.ledger, RULES, tmp_path / "p.xlsx", "fr")
    ws = load_workbook(xlsx)["Historique"]
    assert ws["A1"].value == f"Historique de {player}"
    assert ws.max_row == len(mine) + 2
    assert ws.cell(row=len(mine) + 2, column=11).value == mine[-1].after
    assert ws["A3"].number_format == "DD/MM/YYYY"
    assert len(list(csv.DictReader(beside.open(encoding="utf-8")))) == len(mine)


def test_the_league_commands_write_the_three_workbooks(tmp_path: Path) -> None:
    """`ranking -o`, `events NAME -o` and `player NAME -o` on a real league, in French."""
    from tests.conftest import run_cli

    db = ["--db", str(tmp_path / "l.db")]
    assert run_cli("init", "--rules", "bataille-empire", *db).returncode == 0
    stream = REPLAY / "bataille-empire.jsonl"
    assert run_cli("import", str(stream), *db).returncode == 0
    fr = {"ELOLEAGUE_LANG": "fr"}

    done = run_cli("ranking", "-o", str(tmp_path / "classement.xlsx"), *db, env=fr)
    assert done.returncode == 0, done.stderr
    assert "classement.xlsx" in done.stdout and "écrits" in done.stdout
    csv_text = run_cli("ranking", "--format", "csv", *db).stdout
    french = run_cli("ranking", "--format", "csv", "--csv-dialect", "excel-fr", *db).stdout
    assert (tmp_path / "classement.csv").read_text("utf-8") == french
    assert french.startswith("\ufeffjoueur;") and not csv_text.startswith("\ufeff")
    ws = load_workbook(tmp_path / "classement.xlsx")["Classement"]
    first = next(csv.DictReader(csv_text.splitlines()))
    assert ws["B3"].value == first["player"] and ws["C3"].value == float(first["rating"])

    done = run_cli("events", "Event 03", "-o", str(tmp_path / "e3.xlsx"), *db, env=fr)
    assert done.returncode == 0, done.stderr
    book = load_workbook(tmp_path / "e3.xlsx")
    assert book["Parties"]["A1"].value == "Compte rendu — Event 03"
    text = (tmp_path / "e3.csv").read_text("utf-8").removeprefix("\ufeff")
    ledger = list(csv.DictReader(text.splitlines(), delimiter=";"))
    games, res = result()
    ids = {game_id(g) for g in games if g.event == "Event 03"}
    assert [
        (r["partie"], r["joueur"], float(r["variation"].replace(",", "."))) for r in ledger
    ] == [(e.game, e.key.player, e.delta) for e in res.ledger if e.game in ids]
    shown = run_cli("events", "Event 03", *db)
    assert shown.returncode == 0 and sorted(ids)[0] in shown.stdout

    name = first["player"]
    done = run_cli("player", name, "-o", str(tmp_path / "p.xlsx"), *db)
    assert done.returncode == 0, done.stderr
    history = load_workbook(tmp_path / "p.xlsx")["History"]
    mine = [e for e in res.ledger if e.key.player == name]
    assert history.max_row == len(mine) + 2
    assert history.cell(row=len(mine) + 2, column=11).value == mine[-1].after

    wrong = run_cli("ranking", "-o", str(tmp_path / "x.txt"), *db)
    assert wrong.returncode == 2 and ".xlsx" in wrong.stderr and "Traceback" not in wrong.stderr
