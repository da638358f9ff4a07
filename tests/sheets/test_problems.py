"""Every listed problem of a referee workbook, in French and in English, with its location.

The workbooks are real xlsx files made by the template, filled and then spoiled with openpyxl the
way a referee's spreadsheet program would (cells typed over, rows inserted, sheets renamed).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from eloleague.errors import InputError, Problem
from eloleague.io import read_games
from eloleague.io.sheets import parse_sheet_csv, parse_workbook, workbook_to_csv
from eloleague.io.sheets.layout import fold
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import RuleSet, load_rules, parse_rules, preset_text
from tests.conftest import run_cli
from tests.sheets.fill import filled_workbook, to_bytes

BE = load_rules("bataille-empire")
DIPLO = load_rules("diplomacy")
DAY1, DAY2 = dt.date(2025, 3, 1), dt.date(2025, 3, 2)


def duel(day: dt.date, rnd: int, a: list[str], b: list[str], oa: str, ob: str) -> GameRecord:
    return GameRecord(
        day,
        (Side(tuple(map(Participant, a)), oa), Side(tuple(map(Participant, b)), ob)),
        event="Austerlitz 2025",
        round=rnd,
    )


GAMES = [
    duel(DAY1, 1, ["Alice Martin"], ["Bruno Petit", "Chloé Roux"], "decisive_victory", "defeat"),
    duel(DAY1, 1, ["Jean Dupont"], ["Anne Marie"], "draw", "draw"),
    duel(DAY2, 2, ["Alice Martin"], ["Jean Dupont"], "defeat", "marginal_victory"),
]
REGISTERED = ["Alice Martin", "Bruno Petit", "Chloé Roux", "Jean Dupont", "Anne Marie"]
# Columns of the bataille-empire results sheet: A date, B round, C table, D-G side A, H-K side B, L result.


def workbook(lang: str = "fr") -> Workbook:
    return filled_workbook(BE, GAMES, lang, "Austerlitz 2025", REGISTERED)


def spoil(edit: Callable[[Workbook], None], lang: str = "fr") -> bytes:
    book = workbook(lang)
    edit(book)
    return to_bytes(book)


def results(book: Workbook) -> Worksheet:
    return book.worksheets[2]


def problems(data: bytes, lang: str, rules: RuleSet = BE) -> list[str]:
    games, found, _warnings = parse_workbook(data, rules, lang)
    assert games == [], "a workbook with a problem gives no game at all"
    return [str(p) for p in found]


def test_the_clean_workbook_imports() -> None:
    games, found, warnings = parse_workbook(to_bytes(workbook()), BE)
    assert found == [] and warnings == []
    assert [g.origin for g in games] == [
        "Résultats, ligne 3",
        "Résultats, ligne 4",
        "Résultats, ligne 5",
    ]
    assert games[0].event == "Austerlitz 2025"
    assert games[0].sides[1].players == (Participant("Bruno Petit"), Participant("Chloé Roux"))
    assert games[2].id == "Austerlitz 2025 R2 T3"


CASES: list[tuple[str, Callable[[Workbook], None], str, str]] = [
    (
        "unknown result",
        lambda b: results(b).__setitem__("L3", "Victoire decisive de A"),
        "Résultats, ligne 3, colonne L: résultat inconnu «\u202fVictoire decisive de A\u202f» (choisissez "
        "parmi\u202f: Victoire écrasante de A, Victoire décisive de A",
        "Résultats, row 3, column L: unknown result «\u202fVictoire decisive de A\u202f» (choose one of: "
        "Overwhelming victory for A, Decisive victory for A",
    ),
    (
        "empty player cell",
        lambda b: results(b).__setitem__("D4", None),
        "Résultats, ligne 4, colonne D: case joueur vide\u202f: le camp A n’a aucun joueur "
        "(colonnes D à G)",
        "Résultats, row 4, column D: empty player cell: side A has no player (columns D to G)",
    ),
    (
        "a player twice in one game",
        lambda b: results(b).__setitem__("I3", "Alice Martin"),
        "Résultats, ligne 3, colonne I: le joueur «\u202fAlice Martin\u202f» figure deux fois dans cette "
        "partie (colonnes D et I)",
        'Résultats, row 3, column I: player "Alice Martin" appears twice in this game '
        "(columns D and I)",
    ),
    (
        "a date outside the event",
        lambda b: results(b).__setitem__("A5", dt.datetime(2025, 3, 9)),
        "Résultats, ligne 5, colonne A: la date «\u202f2025-03-09\u202f» est en dehors de la manifestation "
        "(du 2025-03-01 au 2025-03-02)",
        "Résultats, row 5, column A: the date «\u202f2025-03-09\u202f» is outside the event "
        "(2025-03-01 to 2025-03-02)",
    ),
    (
        "a date that is not a date",
        lambda b: results(b).__setitem__("A5", "31/02/2025"),
        "Résultats, ligne 5, colonne A: «\u202f31/02/2025\u202f» n’est pas une date (écrivez-la 02/03/2025 "
        "ou 2025-03-02)",
        "Résultats, row 5, column A: «\u202f31/02/2025\u202f» is not a date (write it as 02/03/2025 or "
        "2025-03-02)",
    ),
    (
        "a formula error",
        lambda b: results(b).__setitem__("H4", "#REF!"),
        "Résultats, ligne 4, colonne H: erreur de formule #REF!\u202f: remplacez la formule par sa "
        "valeur",
        "Résultats, row 4, column H: formula error #REF! : replace the formula by its value".replace(
            " :", ":"
        ),
    ),
    (
        "a merged cell",
        lambda b: results(b).merge_cells("D5:E5"),
        "Résultats, ligne 5, colonne D: les cellules D5:E5 sont fusionnées\u202f: annulez la fusion et "
        "écrivez une valeur par cellule",
        "Résultats, row 5, column D: cells D5:E5 are merged: unmerge them and write one value "
        "per cell",
    ),
    (
        "a column moved",
        lambda b: results(b).__setitem__("L2", "Vainqueur"),
        "Résultats, ligne 2, colonne L: cette colonne devrait s’intituler «\u202fRésultat\u202f», elle "
        "s’intitule «\u202fVainqueur\u202f»",
        "Résultats, row 2, column L: this column should be headed «\u202fResult\u202f», found «\u202fVainqueur\u202f»",
    ),
    (
        "a round that is not a number",
        lambda b: results(b).__setitem__("B3", "deux"),
        "Résultats, ligne 3, colonne B: «\u202fdeux\u202f» n’est pas un numéro de ronde (un nombre entier)",
        "Résultats, row 3, column B: «\u202fdeux\u202f» is not a round number (a whole number)",
    ),
]


@pytest.mark.parametrize("name, edit, french, english", CASES, ids=[c[0] for c in CASES])
def test_each_problem_in_french_and_english(
    name: str, edit: Callable[[Workbook], None], french: str, english: str
) -> None:
    data = spoil(edit)
    fr, en = problems(data, "fr"), problems(data, "en")
    assert any(p.startswith(french) for p in fr), fr
    assert any(p.startswith(english) for p in en), en


def test_the_language_stamped_in_the_workbook_is_the_default() -> None:
    data = spoil(lambda b: results(b).__setitem__("L3", "??"), lang="en")
    _games, found, _ = parse_workbook(data, BE)
    assert str(found[0]).startswith("Results, row 3, column L: unknown result «\u202f??\u202f»")


def test_engine_checks_come_in_the_referees_language() -> None:
    # The league later limited teams to one player: the rule set's own check refuses side B.
    solo = parse_rules(preset_text("bataille-empire") + "\n[teams]\nmax_size = 1\n")
    data = to_bytes(workbook())
    assert problems(data, "fr", solo) == [
        "Résultats, ligne 3: camp 2\u202f: 2 joueurs, mais les règles bataille-empire en permettent "
        "au plus 1 par camp"
    ]
    assert problems(data, "en", solo) == [
        "Résultats, row 3: side 2: 2 players, but rule set bataille-empire allows at most 1 per side"
    ]


def test_a_workbook_of_another_rule_set_is_refused() -> None:
    data = to_bytes(workbook())
    (fr,) = problems(data, "fr", load_rules("bataille-empire-en"))
    assert (
        "ce classeur a été fait pour les règles «\u202fbataille-empire\u202f», pas «\u202fbataille-empire-en\u202f»"
        in fr
    )
    (en,) = problems(data, "en", load_rules("adlg"))
    assert 'this workbook was made for the rule set "bataille-empire", not "adlg"' in en
    assert "eloleague template --rules adlg" in en


def test_a_name_close_to_a_registered_one_is_a_warning() -> None:
    data = spoil(lambda b: results(b).__setitem__("D4", "jean dupond"))
    games, found, warnings = parse_workbook(data, BE)
    assert found == [] and len(games) == 3
    assert [str(w) for w in warnings] == [
        "Résultats, ligne 4, colonne D: le nom «\u202fjean dupond\u202f» ressemble au joueur inscrit "
        "«\u202fJean Dupont\u202f»\u202f: vérifiez l’orthographe (sinon un nouveau joueur sera créé)"
    ]
    _, _, warnings = parse_workbook(data, BE, "en", known_players=["Zoé"])
    assert 'looks like the registered player "Jean Dupont"' in str(warnings[0])


# Hand edits a spreadsheet program leaves behind ----------------------------------------------


def test_hand_edits_still_import() -> None:
    def edit(book: Workbook) -> None:
        ws = results(book)
        ws["A3"] = "01/03/2025"  # a date typed as text, day first
        ws["A4"] = "2025-03-01"  # an ISO date typed as text
        ws["D3"] = "Alice Martin   "  # trailing spaces
        ws["L4"] = "  match NUL "  # the result retyped
        ws.insert_rows(4)  # a blank row in the middle
        ws.title = "Feuil1"  # a renamed sheet
        book.worksheets[1].title = "Infos"

    games, found, warnings = parse_workbook(spoil(edit), BE)
    assert found == [] and warnings == []
    assert [g.date for g in games] == [DAY1, DAY1, DAY2]
    assert games[0].sides[0].players == (Participant("Alice Martin"),)
    assert games[1].sides[0].outcome == "draw"
    assert [g.origin for g in games] == ["Feuil1, ligne 3", "Feuil1, ligne 5", "Feuil1, ligne 6"]
    assert games[0].event == "Austerlitz 2025"


def test_a_sheet_without_its_stamp_is_found_by_its_header() -> None:
    def edit(book: Workbook) -> None:
        for ws in book.worksheets:
            for row in ws.iter_rows(max_row=1):
                for cell in row:
                    if isinstance(cell.value, str) and cell.value.startswith("eloleague:"):
                        cell.value = None
        del book[book.worksheets[0].title]  # the instructions deleted: positions shift
        book.worksheets[1].title = "Sheet1"

    games, found, _ = parse_workbook(spoil(edit), BE)
    assert found == [] and len(games) == 3
    assert games[0].origin == "Sheet1, ligne 3"


def _diplomacy_game() -> GameRecord:
    """A Diplomacy game, "d1": player Pi holds the i-th country and scores i."""
    return GameRecord(
        DAY1,
        tuple(
            Side((Participant(f"P{i}", role),), score=float(i))
            for i, role in enumerate(DIPLO.roles)
        ),
        id="d1",
        mode="classic",
    )


def test_an_ffa_block_with_problems() -> None:
    book = filled_workbook(DIPLO, [_diplomacy_game()], "fr")
    ws = results(
        book
    )  # A game, B date, C mode, D rated, E role, F player, G score; block rows 3-10
    ws["G5"] = "douze"  # a non-numeric score (France)
    ws["F6"] = None  # an empty player cell with a score (Germany)
    ws.insert_rows(11)
    ws["E11"], ws["F11"], ws["G11"] = "England", "P9", 3  # an eighth player: role twice
    data = to_bytes(book)
    fr, en = problems(data, "fr", DIPLO), problems(data, "en", DIPLO)
    assert (
        "Résultats, ligne 5, colonne G: «\u202fdouze\u202f» n’est pas un nombre\u202f: le score doit être numérique"
        in fr
    )
    assert (
        "Résultats, row 5, column G: «\u202fdouze\u202f» is not a number: the score must be numeric"
        in en
    )
    assert (
        "Résultats, ligne 6, colonne F: case joueur vide\u202f: le score «\u202f2\u202f» n’a pas de joueur"
        in fr
    )
    assert (
        "Résultats, row 6, column F: empty player cell: the score «\u202f2\u202f» has no player"
        in en
    )
    assert any(
        p.startswith(
            "Résultats, ligne 3, colonne E: mauvais nombre de rôles\u202f: la partie «\u202fd1\u202f» "
            "a 8 joueurs mais les règles ont 7 rôles"
        )
        for p in fr
    ), fr
    assert any(
        p.startswith(
            "Résultats, row 3, column E: wrong number of roles: game «\u202fd1\u202f» has 8 "
            "players but the rule set has 7 roles"
        )
        for p in en
    ), en
    assert any(
        p.startswith(
            "Résultats, row 11, column E: role «\u202fEngland\u202f» appears twice in game "
            "«\u202fd1\u202f» (rows 4 and 11)"
        )
        for p in en
    ), en


def test_an_incomplete_ffa_game_is_kept_unrated_not_refused() -> None:
    game = GameRecord(
        DAY1,
        tuple(
            Side((Participant(f"P{i}", role),), score=float(i))
            for i, role in enumerate(DIPLO.roles[:6])
        ),
        id="d2",
        mode="blitz",
        rated=False,
    )
    games, found, _ = parse_workbook(to_bytes(filled_workbook(DIPLO, [game], "en")), DIPLO)
    assert found == [] and len(games) == 1 and not games[0].rated and len(games[0].sides) == 6


def test_csv_problems_are_located_by_line_and_column() -> None:
    data = spoil(lambda b: results(b).__setitem__("L4", "Nul"))
    text = workbook_to_csv(data, delimiter=";")
    lines = text.splitlines()
    line = next(i for i, row in enumerate(lines, start=1) if row.endswith(";Nul"))
    _games, found, _ = parse_sheet_csv(text.encode(), BE, "fr")
    assert str(found[0]).startswith(f"ligne {line}, colonne L: résultat inconnu «\u202fNul\u202f»")
    _games, found, _ = parse_sheet_csv(text.encode(), BE, "en")
    assert str(found[0]).startswith(f"line {line}, column L: unknown result «\u202fNul\u202f»")


def test_read_games_takes_workbooks_and_both_csv_layouts(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    xlsx = folder / "austerlitz.xlsx"
    xlsx.write_bytes(to_bytes(workbook()))
    sheet_csv = folder / "austerlitz.csv"
    sheet_csv.write_text(workbook_to_csv(xlsx.read_bytes()), "utf-8")
    warnings: list[Problem] = []
    assert len(read_games(xlsx, BE, warnings=warnings)) == 3 and warnings == []
    assert len(read_games(sheet_csv, BE)) == 3
    bad = folder / "bad.xlsx"
    bad.write_bytes(spoil(lambda b: results(b).__setitem__("L5", "??")))
    with pytest.raises(InputError) as info:
        read_games(bad, BE)
    assert str(info.value).startswith(f"{bad}: Résultats, ligne 5, colonne L: résultat inconnu")
    with pytest.raises(InputError) as info:
        read_games(bad, BE, lang="en")
    assert "Résultats, row 5, column L: unknown result «\u202f??\u202f»" in str(info.value)


def test_rate_command_reads_a_workbook(tmp_path: object) -> None:
    from pathlib import Path

    xlsx = Path(str(tmp_path)) / "austerlitz.xlsx"
    xlsx.write_bytes(to_bytes(workbook()))
    done = run_cli("rate", str(xlsx), "--rules", "bataille-empire", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "player,mode,role,rating,games,title"
    assert len(done.stdout.splitlines()) == 1 + len(REGISTERED)
    xlsx.write_bytes(spoil(lambda b: results(b).__setitem__("D4", None)))
    done = run_cli("rate", str(xlsx), "--rules", "bataille-empire")
    assert done.returncode == 2 and done.stdout == ""
    assert "Résultats, ligne 4, colonne D: case joueur vide" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_cli("rate", str(xlsx), "--rules", "adlg")
    assert done.returncode == 2 and "ce classeur a été fait pour les règles" in done.stderr


def test_not_a_workbook() -> None:
    games, found, _ = parse_workbook(b"PK\x03\x04 not really", BE, "fr")
    assert games == [] and [str(p) for p in found] == [
        "ce fichier n’est pas un classeur Excel (.xlsx)\u202f: enregistrez-le au format .xlsx"
    ]


def test_the_league_import_reports_a_look_alike_once_with_its_cell(tmp_path: object) -> None:
    """`eloleague import` of a workbook: the registered names come from the league too (this
    template lists none), the warning is located and not repeated by the league's own check."""
    from pathlib import Path

    folder = Path(str(tmp_path))
    db = ["--db", str(folder / "l.db")]
    assert run_cli("init", "--rules", "bataille-empire", *db).returncode == 0
    first = folder / "austerlitz.xlsx"
    first.write_bytes(to_bytes(workbook()))
    assert run_cli("import", str(first), *db).returncode == 0
    later = [
        duel(
            dt.date(2025, 4, 5), 1, ["Jean Dupond"], ["Alice Martin"], "defeat", "marginal_victory"
        )
    ]
    book = filled_workbook(BE, later, "fr", "Wagram 2025", [])
    second = folder / "wagram.xlsx"
    second.write_bytes(to_bytes(book))
    done = run_cli("import", str(second), *db)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "Dupond" in line]
    assert warnings == [
        "wagram.xlsx: warning: Résultats, ligne 3, colonne D: le nom «\u202fJean Dupond\u202f» ressemble au joueur "
        "inscrit «\u202fJean Dupont\u202f»\u202f: vérifiez l’orthographe (sinon un nouveau joueur sera créé)"
    ]
    assert "added 1 game" in done.stdout


def test_a_side_whose_only_player_is_also_on_the_other_side_is_one_problem_not_two() -> None:
    # Row 4 is Jean Dupont (D) against Anne Marie (H): H now repeats side A's player.
    data = spoil(lambda b: results(b).__setitem__("H4", "Jean Dupont"))
    assert problems(data, "en") == [
        'Résultats, row 4, column H: player "Jean Dupont" appears twice in this game '
        "(columns D and H)"
    ]


def test_a_row_with_a_wrong_date_is_checked_against_the_rules_too() -> None:
    """A referee learns of a game's other problems with its wrong date, not once the date is
    fixed (as in JSON Lines and CSV): a duel whose side is too large for the rules, a
    Diplomacy game where one player holds two countries."""
    solo = parse_rules(preset_text("bataille-empire") + "\n[teams]\nmax_size = 1\n")
    data = spoil(lambda b: results(b).__setitem__("A3", "hier"), lang="en")
    found = problems(data, "en", solo)
    assert found[:2] == [
        "Results, row 3, column A: «\u202fhier\u202f» is not a date (write it as 02/03/2025 or "
        "2025-03-02)",
        "Results, row 3: side 2: 2 players, but rule set bataille-empire allows at most 1 per side",
    ], found
    book = filled_workbook(DIPLO, [_diplomacy_game()], "en")
    ws = results(book)  # A game, B date, C mode, D rated on row 3; E role, F player, G score
    ws["B3"] = "yesterday"
    ws["F5"] = ws["F4"].value  # the player of row 4 holds a second country
    found = problems(to_bytes(book), "en", DIPLO)
    assert found[0].startswith("Results, row 3, column B: «\u202fyesterday\u202f» is not a date")
    assert any('player "P0" is also on side 1' in p for p in found[1:]), found


def test_a_label_reads_the_same_with_either_apostrophe() -> None:
    """The template writes French with the typographic apostrophe (« l’arbitre »); a referee's
    keyboard types the straight one: a header, a role or a result reads the same either way."""
    assert fold("Côte d’Ivoire") == fold("côte d'ivoire") == "côte d'ivoire"
    assert fold(" L’ARBITRE  de  la ronde") == fold("l'arbitre de la ronde")
