"""The CSV long format reader: records, every problem with its line and column, French too."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from eloleague.io import parse_long_csv, read_games
from eloleague.io.limits import UNDATED
from eloleague.records import Participant
from eloleague.rules import load_rules
from tests.conftest import REPLAY, run_cli

HEADER = "game,date,event,round,mode,rated,side,player,role,outcome,score\n"


def test_rows_become_games_in_first_appearance_order() -> None:
    text = HEADER + (
        "g1,2025-03-02,Austerlitz,1,,,1,Alice Martin,,decisive_victory,\n"
        "g2,2025-03-02,Austerlitz,2,,no,1,Chloé Roux,,draw,\n"
        "g1,2025-03-02,Austerlitz,1,,,2,Bruno Petit,,defeat,\n"
        "g1,2025-03-02,Austerlitz,1,,,2,  Chloé Roux ,,,\n"
        "\n"
        "g2,2025-03-02,Austerlitz,2,,no,2,Alice Martin,,draw,\n"
    )
    games, problems = parse_long_csv(text.encode())
    assert problems == []
    g1, g2 = games
    assert g1.id == "g1" and g1.date == dt.date(2025, 3, 2) and g1.round == 1
    assert g1.sides[1].players == (Participant("Bruno Petit"), Participant("Chloé Roux"))
    assert g1.sides[1].outcome == "defeat"
    assert g2.rated is False and g1.rated is True


def test_a_row_longer_than_the_header_is_refused_not_cut() -> None:
    """A value past the last column (a shifted row, a stray note) would be dropped silently."""
    text = HEADER + (
        "g1,2025-03-02,Austerlitz,1,,,1,Alice Martin,,decisive_victory,\n"
        "g1,2025-03-02,Austerlitz,1,,,2,Bruno Petit,,defeat,,late note\n"
        "g1,2025-03-02,Austerlitz,1,,,2,Chloé Roux,,defeat,,\n"  # an empty extra cell is fine
    )
    _, problems = parse_long_csv(text.encode())
    assert [(str(p.location), str(p.message)) for p in problems] == [
        (
            "line 3",
            "12 values but the header has 11 columns (a comma inside a name needs quotes: "
            '"Martin, Alice")',
        )
    ]


def test_french_spreadsheet_export_with_semicolons_and_decimal_comma() -> None:
    text = "game;date;side;player;role;score\n" + "".join(
        f"d1;2025-01-05;{i};P{i};{role};{i},5\n"
        for i, role in enumerate(
            ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"], start=1
        )
    )
    games, problems = parse_long_csv(("\ufeff" + text).encode())
    assert problems == []
    assert [s.score for s in games[0].sides] == [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]


def test_every_problem_has_line_and_column_in_english_and_french() -> None:
    text = HEADER + (
        "g1,2025-02-30,,1,,,1,A,,victory,\n"
        "g2,2025-03-01,,deux,,,1,A,,victory,\n"
        "g2,2025-03-01,,deux,,,x,B,,defeat,\n"
        "g3,2025-03-01,,,,peut-être,1,,,victory,\n"
        "g4,2025-03-01,,,,,1,A,,,abc\n"
        "g5,2025-03-01,,,,,1,A,,victory,\n"
        "g5,2025-03-02,,,,,3,B,,defeat,\n"
    )
    games, problems = parse_long_csv(text.encode())
    english = [str(p) for p in problems]
    assert english == [
        'line 2, column B (date): "2025-02-30" is not a date (expected YYYY-MM-DD)',
        'line 3, column D (round): "deux" is not a round number (a whole number)',
        'line 4, column G (side): "x" is not a side number (1, 2, ...)',
        'line 5, column F (rated): "peut-être" is not true or false',
        "line 5, column H (player): the player's name is empty",
        'line 6, column K (score): "abc" is not a number',
        'line 8, column B (date): "2025-03-02" differs from "2025-03-01" on line 7 for game "g5"',
        'line 7: game "g5": sides are numbered 1, 3; number them 1, 2, ...',
    ]
    # g1 is wrong in its date only: read, undated, for the rules to check the rest of it
    assert [(g.id, g.date) for g in games] == [("g1", UNDATED)]
    french = [p.render("fr") for p in problems]
    assert french[0] == (
        "ligne 2, colonne B (date)\u202f: «\u202f2025-02-30\u202f» n’est pas une date (format attendu\u202f: "
        "AAAA-MM-JJ)"
    )
    assert french[-1].startswith(
        "ligne 7\u202f: partie «\u202fg5\u202f»\u202f: les camps sont numérotés 1, 3"
    )


def test_header_problems() -> None:
    _, problems = parse_long_csv(b"game,date,player,colour\n")
    every = HEADER.strip() + ",home,neutral,player_id,club,region"  # the optional columns too
    assert [str(p) for p in problems] == [
        "line 1: missing column side (columns: " + every + ")",
        "line 1: unknown column colour (columns: " + every + ")",
    ]
    _, empty = parse_long_csv(b"")
    assert "the file is empty" in str(empty[0])


def _to_long_csv(jsonl: Path, out: Path) -> None:
    import json

    lines = [HEADER.strip()]
    for number, raw in enumerate(jsonl.read_text("utf-8").splitlines()):
        game = json.loads(raw)
        gid = game.get("id", f"n{number}")
        for s, side in enumerate(game["sides"], start=1):
            for p in side["players"]:
                name, role = (p["name"], p.get("role", "")) if isinstance(p, dict) else (p, "")
                cells = [
                    gid,
                    game["date"],
                    game.get("event", ""),
                    str(game.get("round", "")),
                    game.get("mode", ""),
                    str(game.get("rated", True)).lower(),
                    str(s),
                    name,
                    role,
                    side.get("outcome", ""),
                    str(side.get("score", "")),
                ]
                lines.append(",".join('"' + c.replace('"', '""') + '"' for c in cells))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_rate_reads_the_long_format_like_json_lines(tmp_path: Path) -> None:
    for preset in ("adlg", "diplomacy"):
        path = tmp_path / f"{preset}.csv"
        _to_long_csv(REPLAY / f"{preset}.jsonl", path)
        rules = load_rules(preset)
        assert [g.sides for g in read_games(path, rules)] == [
            g.sides for g in read_games(REPLAY / f"{preset}.jsonl", rules)
        ]
        args = ["--as-of", "2025-06-01"] if preset == "adlg" else []
        done = run_cli("rate", str(path), "--rules", preset, *args)
        assert done.returncode == 0, done.stderr
        assert done.stdout == (REPLAY / f"{preset}.csv").read_text("utf-8")


def test_identity_columns() -> None:
    text = (
        HEADER.strip()
        + ",player_id,club,region\n"
        + (
            "g1,2025-03-01,,,,,1,Jean Dupont,,draw,,FR-1, Lyon ,Rhône\n"
            "g1,2025-03-01,,,,,2,Jean Dupont,,draw,,FR-2,,\n"
        )
    )
    games, problems = parse_long_csv(text.encode())
    assert problems == []
    assert games[0].participants == (
        Participant("Jean Dupont", "", "FR-1", "Lyon", "Rhône"),
        Participant("Jean Dupont", "", "FR-2", None, None),
    )
