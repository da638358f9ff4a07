"""The two CSV forms (docs/formats.md, "CSV for spreadsheets"): what ``excel-fr`` writes, and that
eloleague's readers take it back."""

from __future__ import annotations

from pathlib import Path

from eloleague.engine import Standing, replay
from eloleague.io import parse_jsonl
from eloleague.io.csv_dialect import EXCEL, EXCEL_FR, choose, english_columns, plain_number, sniff
from eloleague.io.ratings_csv import parse_initial
from eloleague.io.sheets.exports import export_ranking_csv
from eloleague.rules import load_rules
from tests.conftest import REPLAY

DIPLOMACY = load_rules("diplomacy")


def _standings() -> list[Standing]:
    records, _ = parse_jsonl((REPLAY / "diplomacy.jsonl").read_bytes())
    return replay(DIPLOMACY, records).standings()


def test_the_french_form_is_what_french_spreadsheets_split(tmp_path: Path) -> None:
    rows = _standings()
    path = export_ranking_csv(rows, DIPLOMACY, tmp_path / "classement.csv", EXCEL_FR)
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # the byte order mark: accents read right
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[0] == "joueur;mode;rôle;cote;parties;titre"
    first = lines[1].split(";")
    assert first[1] in ("classique", "blitz") and "," in first[3] and "." not in first[3]
    assert any(";Turquie;" in line for line in lines)
    english = export_ranking_csv(rows, DIPLOMACY, tmp_path / "ranking.csv", EXCEL).read_text()
    assert english.startswith("player,mode,role,rating,games,title") and ";" not in english


def test_both_forms_read_back_as_the_same_initial_ratings(tmp_path: Path) -> None:
    rows = _standings()
    french = export_ranking_csv(rows, DIPLOMACY, tmp_path / "fr.csv", EXCEL_FR)
    english = export_ranking_csv(rows, DIPLOMACY, tmp_path / "en.csv", EXCEL)
    from_fr, problems_fr = parse_initial(french.read_text("utf-8"), DIPLOMACY)
    from_en, problems_en = parse_initial(english.read_text("utf-8"), DIPLOMACY)
    assert problems_fr == [] and problems_en == []
    assert from_fr == from_en and len(from_fr) > 10


def test_the_readers_helpers() -> None:
    assert sniff("\ufeffjoueur;cote\nA;1,5\n") == ("joueur;cote\nA;1,5\n", ";")
    assert sniff("player,rating\n") == ("player,rating\n", ",")
    assert english_columns([" Joueur", "cote", "rôle", "other"]) == [
        "player",
        "rating",
        "role",
        "other",
    ]
    assert plain_number("1523,5") == "1523.5" and plain_number("1\u202f523") == "1523"
    assert plain_number("1,2,3") == "1,2,3"  # not a number: left for the reader to refuse
    assert choose(None, "fr") is EXCEL_FR and choose(None, "en") is EXCEL
    assert choose("excel", "fr") is EXCEL and choose("excel-fr", "en") is EXCEL_FR
