"""`eloleague template` writes a real workbook; a filled one imports through the league's import."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import load_workbook

from eloleague.io.sheets.template import build_template
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules
from eloleague.rules.model import RuleSet
from tests.conftest import run_cli
from tests.sheets.fill import filled_workbook, to_bytes

DAY = dt.date(2025, 3, 1)


def game(a: str, b: str, oa: str, ob: str, rnd: int = 1) -> GameRecord:
    return GameRecord(
        DAY,
        (Side((Participant(a),), oa), Side((Participant(b),), ob)),
        event="Austerlitz 2025",
        round=rnd,
    )


def test_template_for_a_preset(tmp_path: Path) -> None:
    out = tmp_path / "be.xlsx"
    done = run_cli("template", "--rules", "bataille-empire", "--lang", "fr", str(out))
    assert done.returncode == 0, done.stderr
    book = load_workbook(out)
    assert book.sheetnames == ["Instructions", "Manifestation", "Résultats", "Listes"]
    ws = book["Résultats"]
    assert ws.freeze_panes == "A3"
    header = [c.value for c in ws[2]][:12]
    assert header == [
        "Date",
        "Ronde",
        "Table",
        "Joueur A1",
        "Joueur A2",
        "Joueur A3",
        "Joueur A4",
        "Joueur B1",
        "Joueur B2",
        "Joueur B3",
        "Joueur B4",
        "Résultat",
    ]
    assert ws.column_dimensions["M"].hidden  # the stamp's column
    assert '"rules":"bataille-empire"' in ws["M1"].value
    lists = book["Listes"]
    assert lists.sheet_state == "hidden"
    choices = [lists.cell(row=r, column=2).value for r in range(2, 9)]
    assert choices == [
        "Victoire écrasante de A",
        "Victoire décisive de A",
        "Victoire marginale de A",
        "Match nul",
        "Victoire marginale de B",
        "Victoire décisive de B",
        "Victoire écrasante de B",
    ]
    result_lists = [v for v in ws.data_validations.dataValidation if "L3" in str(v.sqref)]
    assert result_lists and result_lists[0].formula1 == "'Listes'!$B$2:$B$8"
    event = book["Manifestation"]
    assert [event.cell(row=r, column=1).value for r in range(2, 9)] == [
        "Nom de la manifestation",
        "Premier jour",
        "Dernier jour",
        "Lieu",
        "Arbitre",
        "Ligue",
        "Règles",
    ]


def test_template_in_english_for_card_battle_and_diplomacy(tmp_path: Path) -> None:
    out = tmp_path / "cb.xlsx"
    assert run_cli("template", "--rules", "card-battle", "--lang", "en", str(out)).returncode == 0
    ws = load_workbook(out)["Results"]
    assert [c.value for c in ws[2]][:10] == [
        "Date",
        "Round",
        "Table",
        "Player A1",
        "Player A2",
        "Player A3",
        "Player B1",
        "Player B2",
        "Player B3",
        "Result",
    ]
    out = tmp_path / "dip.xlsx"
    assert run_cli("template", "--rules", "diplomacy", "--lang", "fr", str(out)).returncode == 0
    ws = load_workbook(out)["Résultats"]
    assert [c.value for c in ws[2]][:7] == [
        "Partie",
        "Date",
        "Mode",
        "Classée",
        "Pays",  # Diplomacy's roles are countries (its role_heading)
        "Joueur",
        "Score",
    ]
    rules = load_rules("diplomacy")  # the countries in French, read back as the rule file's
    assert [ws.cell(row=r, column=5).value for r in range(4, 11)] == [
        rules.label(r, "fr") for r in rules.roles
    ]
    assert ws.cell(row=4, column=5).value == "Angleterre"


def test_the_instructions_name_the_roles_as_the_rule_file_does() -> None:
    """Diplomacy's referees fill « la ligne de chaque pays » (its role_heading); a ranked rule set
    that does not name its roles says « rôle »."""

    def instructions(rules: RuleSet, lang: str) -> str:
        sheet = build_template(rules, "Ligue", lang=lang).worksheets[0]
        return "\n".join(str(c.value) for c in sheet["A"] if c.value)

    diplomacy = load_rules("diplomacy")
    assert "sur la ligne de chaque pays, le joueur et le score" in instructions(diplomacy, "fr")
    assert "on the row of each country, the player and the score" in instructions(diplomacy, "en")
    unnamed = diplomacy.model_copy(update={"role_heading": ""})
    assert "sur la ligne de chaque rôle, le joueur" in instructions(unnamed, "fr")
    assert "on the row of each role, the player" in instructions(unnamed, "en")


def test_bad_arguments_are_one_clear_line(tmp_path: Path) -> None:
    done = run_cli("template", "--rules", "adlg", str(tmp_path / "out.ods"))
    assert done.returncode == 2 and "give a name ending in .xlsx" in done.stderr
    done = run_cli("template", "--rules", "nope", str(tmp_path / "out.xlsx"))
    assert done.returncode == 2 and "unknown rule set 'nope'" in done.stderr


def test_a_workbook_is_never_overwritten_without_force(tmp_path: Path) -> None:
    out = tmp_path / "filled.xlsx"
    out.write_bytes(b"a referee's filled workbook")
    done = run_cli("template", "--rules", "adlg", "--lang", "en", str(out))
    assert done.returncode == 2 and "exists already" in done.stderr and "--force" in done.stderr
    assert out.read_bytes() == b"a referee's filled workbook"
    done = run_cli("template", "--rules", "adlg", "--lang", "en", "--force", str(out))
    assert done.returncode == 0, done.stderr
    assert load_workbook(out).sheetnames[0] == "Instructions"


def test_league_template_lists_registered_players_and_imports_back(tmp_path: Path) -> None:
    db = str(tmp_path / "league.db")
    league = League.create(db, "Ligue du Rhône", "bataille-empire")
    league.import_games([game("Alice Martin", "Bruno Petit", "draw", "draw")], source="seed")
    out = tmp_path / "template.xlsx"
    done = run_cli("template", "--db", db, "--league", "Ligue du Rhône", "--lang", "fr", str(out))
    assert done.returncode == 0, done.stderr
    book = load_workbook(out)
    assert [book["Listes"].cell(row=r, column=1).value for r in (2, 3, 4)] == [
        "Alice Martin",
        "Bruno Petit",
        None,
    ]
    assert book["Manifestation"]["B7"].value == "Ligue du Rhône"

    rules = load_rules("bataille-empire")
    filled = tmp_path / "austerlitz.xlsx"
    games = [game("Alice Martin", "Chloé Roux", "decisive_victory", "defeat", 2)]
    filled.write_bytes(
        to_bytes(
            filled_workbook(rules, games, "fr", "Austerlitz 2025", ["Alice Martin", "Bruno Petit"])
        )
    )
    first = league.import_file(filled)
    again = league.import_file(filled)
    assert (first.added, again.added) == (1, 0)
    assert {s.player for s in league.ranking()} == {"Alice Martin", "Bruno Petit", "Chloé Roux"}
