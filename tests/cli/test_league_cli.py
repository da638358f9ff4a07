"""The league commands as an officer runs them: in-process through Typer's runner (on SQLite and on
PostgreSQL), and once through the real ``eloleague`` entry point (exit status 2, one clean line,
French). In-process calls cost milliseconds where each subprocess pays seconds of imports."""

from __future__ import annotations

import ast
import csv
import datetime as dt
import io
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from eloleague.cli import app
from eloleague.errors import EloleagueError, InputError
from eloleague.i18n import Text, render
from eloleague.league import League
from eloleague.rules import preset_text
from tests.conftest import REPLAY, run_cli
from tests.pg.server import db_url, pg_server  # noqa: F401 - fixtures
from tests.store.helpers import duel, read_lines, write_lines

Run = Callable[..., Result]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Run:
    """``cli(*args)`` runs one command in-process; a failing command must be asked for
    (``fails=True``) and its exception is then an :class:`EloleagueError`."""
    monkeypatch.setenv("ELOLEAGUE_LANG", "en")  # restored after the test, even after --lang
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()

    def run(*args: str, fails: bool = False) -> Result:
        result = runner.invoke(app, list(args))
        if fails:
            assert isinstance(result.exception, EloleagueError), result.output
        else:
            assert result.exit_code == 0, (result.output, result.exception)
        return result

    return run


def usage_error(*args: str) -> str:
    """The usage error (exit 2) of a command refused by its arguments, as the user reads it."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())  # Rich wraps the message in a box


def _error(result: Result, lang: str = "en") -> str:
    exc = result.exception
    assert isinstance(exc, EloleagueError)
    if isinstance(exc, InputError):
        return exc.render(lang)
    return render(exc.args[0], lang)


def test_import_rank_reimport_refuse_explain_delete_export_backup(
    cli: Run,
    db_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    db = ["--db", db_url]
    assert 'league "adlg" created' in cli("init", "--rules", "adlg", *db).output
    first = cli("import", str(REPLAY / "adlg.jsonl"), *db)
    assert "adlg.jsonl: added 991 games, replaced 0, 0 already there" in first.stdout

    as_of = ["--as-of", "2025-06-01"]
    ranking = cli("ranking", "--format", "csv", *as_of, *db).stdout
    rate = cli("rate", str(REPLAY / "adlg.jsonl"), "--rules", "adlg", *as_of).stdout
    assert ranking == rate and ranking.count("\n") > 30

    again = cli("import", str(REPLAY / "adlg.jsonl"), *db).stdout
    assert "added 0 games" in again and "this file was already imported on" in again

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x1", "date": "2026-13-01", "sides": []}\n', encoding="utf-8")
    refused = cli("import", str(bad), *db, fails=True)
    assert "bad.jsonl: line 1" in _error(refused)
    assert cli("ranking", "--format", "csv", *as_of, *db).stdout == rate

    shown = cli("explain", "g2", *db).stdout
    assert "Marie P002" in shown and "Rating changes" in shown
    assert "game g2 deleted" in cli("game", "delete", "g2", *db).stdout
    assert "no game 'g2' in league 'adlg'" in _error(cli("explain", "g2", *db, fails=True))

    export = tmp_path / "out.jsonl"
    assert "990 games written" in cli("export", str(export), *db).stdout
    fresh = ["--db", str(tmp_path / "fresh.db")]
    cli("init", "--rules", "adlg", *fresh)
    cli("import", str(export), *fresh)
    now = cli("ranking", "--format", "csv", *db).stdout
    assert cli("ranking", "--format", "csv", *fresh).stdout == now
    backup = tmp_path / "backup.db"
    cli("backup", str(backup), *db)
    assert [p.name for p in tmp_path.glob("backup.db*")] == ["backup.db"]  # one file to keep
    assert cli("ranking", "--format", "csv", "--db", str(backup)).stdout == now
    assert cli("leagues", *db).stdout == "adlg\n"


def test_players_events_games_seasons_and_rules(cli: Run, tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "be.db")]
    lines = [o for o in read_lines(REPLAY / "bataille-empire.jsonl") if o["date"] < "2024-01-01"]
    cli("init", "--rules", "bataille-empire", "--league", "Club", *db)
    cli("import", str(write_lines(tmp_path / "to2023.jsonl", lines)), *db)

    player = lines[0]["sides"][0]["players"][0]
    page = cli("player", player, *db).stdout
    assert player in page and "History" in page and "Last changes" in page
    assert (
        '"Marie P002" renamed "Marie Dupont"'
        in cli("player", "rename", "Marie P002", "Marie Dupont", *db).stdout
    )
    assert "did you mean" in _error(cli("player", "Marie Dupond", *db, fails=True))

    event = next(o["event"] for o in lines if o.get("event"))
    assert event in cli("events", *db).stdout
    listed = cli("games", "--event", event, "--format", "jsonl", *db).stdout.splitlines()
    assert listed and all(json.loads(line)["event"] == event for line in listed)
    rows = list(
        csv.DictReader(io.StringIO(cli("games", "--event", event, "-f", "csv", *db).stdout))
    )
    assert {r["game"] for r in rows} == {json.loads(line)["id"] for line in listed}
    assert all(r["event"] == event for r in rows)

    top = json.loads(cli("ranking", "--format", "json", "--top", "3", *db).stdout)
    assert [row["rank"] for row in top] == [1, 2, 3]

    later = [dict(lines[0], id="dry1", date="2024-02-03", event="Dry 2024")]
    dry = cli("import", str(write_lines(tmp_path / "dry.jsonl", later)), "--dry-run", *db)
    assert "would add 1 game," in dry.stdout and "Rating changes" in dry.stdout
    assert "Dry 2024" not in cli("events", *db).stdout

    before = cli("ranking", "--format", "csv", *db).stdout
    planned = cli("season", "close", "2024-12-31", "--dry-run", *db).stdout
    assert "nothing was changed" in planned and "inactivity" in planned
    assert cli("ranking", "--format", "csv", *db).stdout == before
    closed = cli("season", "close", "2024-12-31", *db).stdout
    assert "season ending 2024-12-31 closed" in closed
    same_list = closed.rsplit("season ending 2024-12-31 closed", 1)[0]
    assert same_list == planned.rsplit("dry run:", 1)[0] and "-100" in same_list
    assert cli("ranking", "--format", "csv", *db).stdout != before
    reopened = cli("season", "reopen", "2024-12-31", *db).stdout
    assert "season ending 2024-12-31 reopened" in reopened
    assert cli("ranking", "--format", "csv", *db).stdout == before
    cli("season", "close", "2024-12-31", *db)
    assert "already closed" in _error(cli("season", "close", "2024-12-31", *db, fails=True))
    future = _error(cli("season", "close", "2999-12-31", *db, fails=True))
    assert "the season ending 2999-12-31 has not ended yet" in future
    changed = cli("change-rules", "bataille-empire-en", *db).stdout
    assert 'league "Club" now uses rule set' in changed

    # An export and what it cannot hold: the note says how to get the same ratings back.
    wrong = usage_error("export", str(tmp_path / "games.xlsx"), *db)
    assert "give a file ending in .jsonl or .csv" in wrong
    assert not (tmp_path / "games.xlsx").exists()
    exported = cli("export", str(tmp_path / "all.jsonl"), *db).stdout
    assert "close it again with eloleague season close 2024-12-31" in exported
    assert "1 alias is not in this file (Marie P002 → Marie Dupont)" in exported
    again = ["--db", str(tmp_path / "again.db")]
    cli("init", "--rules", "bataille-empire-en", "--league", "Club", *again)
    cli("import", str(tmp_path / "all.jsonl"), *again)
    cli("season", "close", "2024-12-31", *again)
    ranking = ["ranking", "--format", "json"]
    assert json.loads(cli(*ranking, *again).stdout) == json.loads(cli(*ranking, *db).stdout)


def test_messages_in_french(cli: Run, tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "fr.db")]
    cli("init", "--rules", "bataille-empire", *db)
    first: list[dict[str, Any]] = [  # JSON Lines records
        {
            "id": "a",
            "date": "2025-01-05",
            "sides": [
                {"players": ["Alice Martin"], "outcome": "draw"},
                {"players": ["Bruno Petit"], "outcome": "draw"},
            ],
        }
    ]
    dry = cli("import", str(write_lines(tmp_path / "one.jsonl", first)), "--dry-run", *db).stdout
    changes = [row[-2] for row in _rows(dry)]  # a draw from the start rating: 0, unsigned
    assert "new" in dry and changes == ["0", "0"] and "+1000" not in dry
    cli("import", str(tmp_path / "one.jsonl"), *db)
    second = [dict(first[0], id="b", sides=[*first[0]["sides"][:1], {**first[0]["sides"][1]}])]
    second[0]["sides"][1]["players"] = ["Bruno  Petit"]
    done = cli("--lang", "fr", "import", str(write_lines(tmp_path / "two.jsonl", second)), *db)
    assert "two.jsonl\u202f: 1 partie ajoutée, 0 remplacée, 0 déjà présente\u202f; " in done.stdout
    assert (
        "two.jsonl\u202f: avertissement\u202f: le nouveau joueur «\u202fBruno  Petit\u202f» ressemble à «\u202fBruno Petit\u202f» "
        "(seuls les espaces diffèrent)" in done.stderr
    )
    explained = cli("--lang", "fr", "explain", "a", *db).stdout
    assert "camp 1\u202f: Alice Martin — Match nul" in explained and "draw" not in explained
    assert "— Draw" in cli("--lang", "en", "explain", "a", *db).stdout
    missing = cli("--lang", "fr", "player", "Zoé", *db, fails=True)
    assert _error(missing, "fr") == (
        "aucun joueur nommé «\u202fZoé\u202f» dans la ligue «\u202fbataille-empire\u202f»"
    )


def test_a_refused_rule_change_names_each_stored_game_in_the_readers_language(
    cli: Run, tmp_path: Path
) -> None:
    """A stored game has no line of a file: the problems of a rule change point at it by its id,
    « partie d3 » in French (it read "game d3" on a French screen)."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "Club", *db)
    game = duel("d3", "2025-01-05", "Ana", "Bob", ("draw", "draw"))
    cli("import", str(write_lines(tmp_path / "one.jsonl", [game])), *db)
    rules = preset_text("adlg").replace('name = "adlg"', 'name = "no-draws"')
    rules = rules.replace(
        'draw = { score = 0.5, against = ["draw"], fr = "Match nul", en = "Draw" }\n', ""
    )
    (tmp_path / "no-draws.toml").write_text(rules, "utf-8")
    refused = cli("change-rules", str(tmp_path / "no-draws.toml"), *db, fails=True)
    french, english = _error(refused, "fr"), _error(refused, "en")
    assert "partie d3\u202f: camp 1\u202f: résultat inconnu" in french and "game" not in french
    assert "game d3: side 1: unknown outcome" in english
    assert League.open(str(tmp_path / "club.db"), "Club").rules.name == "adlg"  # unchanged


def test_the_real_command_prints_one_french_line_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    League.create(str(path), "Club", "adlg")
    done = run_cli("--lang", "fr", "explain", "g404", "--db", str(path))
    assert done.returncode == 2
    assert done.stderr == "aucune partie «\u202fg404\u202f» dans la ligue «\u202fClub\u202f»\n"
    assert done.stdout == ""


def test_files_and_databases_that_cannot_be_used_are_one_clear_line(tmp_path: Path) -> None:
    """Output paths in a missing folder or naming a folder, a mistyped --db (never created),
    a file that is not a database, a server eloleague does not speak: exit 2, one line."""
    path = tmp_path / "club.db"
    League.create(str(path), "Club", "adlg")
    (tmp_path / "folder.xlsx").mkdir()
    (tmp_path / "notes.db").write_text("not a database")
    cases = [
        (
            ("ranking", "--db", str(path), "-o", str(tmp_path / "nodir" / "x.xlsx")),
            "en",
            f"{tmp_path / 'nodir' / 'x.xlsx'}: no such file or folder",
        ),
        (
            ("ranking", "--db", str(path), "-o", str(tmp_path / "folder.xlsx")),
            "fr",
            f"{tmp_path / 'folder.xlsx'}\u202f: c’est un dossier, pas un fichier",
        ),
        (
            ("ranking", "--db", str(tmp_path / "typo.db")),
            "en",
            f"{tmp_path / 'typo.db'}: no such database; check --db",
        ),
        (
            ("ranking", "--db", str(tmp_path / "notes.db")),
            "en",
            f"{tmp_path / 'notes.db'} is not an eloleague database, or it is damaged",
        ),
        (
            ("ranking", "--db", "mysql://u@localhost/club"),
            "fr",
            "eloleague garde les ligues dans SQLite ou PostgreSQL, pas mysql",
        ),
    ]
    for args, lang, words in cases:
        done = run_cli("--lang", lang, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr and len(done.stderr.splitlines()) == 1, (args, done.stderr)
    assert not (tmp_path / "typo.db").exists()
    assert (tmp_path / "notes.db").read_text() == "not a database"


def test_the_league_commands_import_the_library_only_when_they_run() -> None:
    """``eloleague rate --help`` must not pay for SQLAlchemy or Rich tables (issue 3)."""
    source = Path(__file__).parents[2] / "src" / "eloleague" / "cli" / "league.py"
    tree = ast.parse(source.read_text("utf-8"))
    top_level = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            top_level.add(node.module)
        elif isinstance(node, ast.Import):
            top_level.update(alias.name for alias in node.names)
    heavy = {"eloleague.league", "sqlalchemy", "rich.table", "rich.progress", "rich.console"}
    assert top_level & heavy == set()
    assert not any(
        m.startswith(("eloleague.store", "eloleague.io", "eloleague.engine")) for m in top_level
    )


def test_import_problems_of_several_files_are_in_the_user_s_language(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    League.create(str(path), "Club", "adlg")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"date": "2024-13-01", "sides": []}\n', "utf-8")
    (tmp_path / "bad.xlsx").write_text("not a workbook", "utf-8")
    files = [str(bad), str(tmp_path / "nothere.jsonl"), str(tmp_path / "bad.xlsx")]
    done = run_cli("--lang", "fr", "import", *files, "--db", str(path))
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"{bad}\u202f: ligne 1\u202f: champ «\u202fdate\u202f»")
    assert f"{tmp_path / 'nothere.jsonl'}\u202f: fichier introuvable" in lines
    assert (
        f"{tmp_path / 'bad.xlsx'}\u202f: ce fichier n’est pas un classeur Excel (.xlsx)"
        in done.stderr
    )
    assert League.open(str(path)).games() == []


def _side(player: str, outcome: str) -> dict[str, object]:
    return {"players": [player], "outcome": outcome}


def test_a_changed_game_and_a_taken_name_are_refused_with_the_command_line_s_way_out(
    tmp_path: Path,
) -> None:
    """The library says what is wrong; the command line says which of its options fixes it."""
    path = tmp_path / "club.db"
    db = ["--db", str(path)]
    assert run_cli("init", "--rules", "adlg", "--league", "Club", *db).returncode == 0
    taken = run_cli("--lang", "fr", "init", "--rules", "adlg", "--league", "Club", *db)
    assert taken.returncode == 2
    assert taken.stderr.strip().endswith(
        "une ligue nommée «\u202fClub\u202f» existe déjà dans cette base\u202f: ouvrez-la, "
        "ou choisissez un autre nom avec --league"
    )
    game = {"id": "m1", "date": "2026-01-10"}
    first = write_lines(
        tmp_path / "first.jsonl",
        [{**game, "sides": [_side("Ann", "victory"), _side("Bob", "defeat")]}],
    )
    assert run_cli("import", str(first), *db).returncode == 0
    changed = write_lines(
        tmp_path / "changed.jsonl",
        [{**game, "sides": [_side("Ann", "defeat"), _side("Bob", "victory")]}],
    )
    for lang, place, words in (
        ("en", "changed.jsonl: line 1: game", "; use --update to replace it"),
        (
            "fr",
            "changed.jsonl\u202f: ligne 1\u202f: la partie",
            "\u202f; utilisez --update pour la remplacer",
        ),
    ):
        refused = run_cli("--lang", lang, "import", str(changed), *db)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.startswith(place) and refused.stderr.strip().endswith(words)
    replaced = run_cli("import", str(changed), "--update", *db)
    assert replaced.returncode == 0 and "replaced 1" in replaced.stdout


def test_backup_copies_a_database_of_several_leagues_without_choosing_one(
    cli: Run, tmp_path: Path
) -> None:
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    cli("init", "--rules", "bataille-empire", "--league", "Empire", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), "--league", "AdlG", *db)
    cli("import", str(REPLAY / "bataille-empire.jsonl"), "--league", "Empire", *db)
    copy = tmp_path / "copy.db"
    cli("backup", str(copy), *db)
    for name in ("AdlG", "Empire"):
        original = cli("ranking", "--format", "csv", "--league", name, *db).stdout
        copied = cli("ranking", "--format", "csv", "--league", name, "--db", str(copy)).stdout
        assert copied == original and original.count("\n") > 10


def test_log_shows_who_changed_what(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ELOLEAGUE_USER", "Claire")
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    cli("game", "delete", "g5", *db)
    shown = cli("log", *db).stdout
    lines = [line for line in shown.splitlines() if "Claire" in line]
    assert len(lines) == 3
    assert "game g5 deleted" in lines[0] and "adlg.jsonl" in lines[1] and "created" in lines[2]
    french = cli("--lang", "fr", "log", "-n", "1", *db).stdout
    assert "partie g5 supprimée" in french and "adlg.jsonl" not in french


def test_log_shows_a_run_of_imports_as_one_line(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Imports of one source by one user within a UTC hour are one entry, a run
    (docs/league.md, "The journal"); its players are its imports' added up, so not shown."""
    monkeypatch.setenv("ELOLEAGUE_USER", "Claire")
    clock = iter(dt.datetime(2026, 11, 28, 9, m, tzinfo=dt.UTC) for m in (12, 40, 59))
    monkeypatch.setattr("eloleague.league.utc_now", lambda: next(clock))
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    lines = read_lines(REPLAY / "adlg.jsonl")
    for n, part in enumerate((lines[:30], lines[30:50])):  # the same file name, twice
        (tmp_path / str(n)).mkdir()
        cli("import", str(write_lines(tmp_path / str(n) / "results.jsonl", part)), *db)
    shown = cli("log", *db).stdout
    (run,) = [line for line in shown.splitlines() if "results.jsonl" in line]
    assert "2026-11-28 09:40 UTC" in run and "50 games added, 0 replaced" in run
    assert "(2 imports since 09:12 UTC)" in run
    assert [cell.strip() for cell in run.split("│")][-3:-1] == ["50", "—"]  # games, players
    french = cli("--lang", "fr", "log", "-n", "1", *db).stdout
    assert "50 parties ajoutées, 0 remplacée (2 imports depuis 09:12 UTC)" in french


def test_import_maps_a_misspelt_name_to_the_registered_player(cli: Run, tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    name = League.open(str(tmp_path / "club.db")).players()[0]
    typo = name.lower()  # differs only by case: reported as a look-alike
    other = League.open(str(tmp_path / "club.db")).players()[1]
    sheet = write_lines(
        tmp_path / "sheet.jsonl",
        [
            {
                "id": "m1",
                "date": "2026-01-10",
                "sides": [
                    {"players": [typo], "outcome": "victory"},
                    {"players": [other], "outcome": "defeat"},
                ],
            }
        ],
    )
    dry = cli("import", str(sheet), "--dry-run", *db)
    assert f'--map "{typo}={name}"' in dry.stderr
    cli("import", str(sheet), "--map", f"{typo}={name}", *db)
    league = League.open(str(tmp_path / "club.db"))
    assert typo not in league.players() and league.aliases() == {typo: name}
    bad = usage_error("import", str(sheet), "--map", "no equals sign", *db)
    assert "is not SPELLING=PLAYER" in bad


def test_the_suggested_map_options_come_whole_on_one_line(tmp_path: Path) -> None:
    """The hint a dry run prints is a line to copy, in a log (a file: rich's 80 columns) as in a
    terminal: names long enough to pass 80 columns are not cut by a newline, and the options as
    printed map every look-alike."""
    db = ["--db", str(tmp_path / "club.db")]
    narrow = {"COLUMNS": ""}  # not a terminal: rich would wrap at 80
    assert run_cli("init", "--rules", "adlg", *db).returncode == 0
    assert run_cli("import", str(REPLAY / "adlg.jsonl"), *db).returncode == 0
    names = League.open(str(tmp_path / "club.db")).players()[:4]
    typos = [name.lower() for name in names]  # each differs only by case: a look-alike
    sheet = write_lines(
        tmp_path / "sheet.jsonl",
        [
            {
                "id": f"m{i}",
                "date": "2026-01-10",
                "sides": [
                    {"players": [typos[2 * i]], "outcome": "victory"},
                    {"players": [typos[2 * i + 1]], "outcome": "defeat"},
                ],
            }
            for i in range(2)
        ],
    )
    dry = run_cli("import", str(sheet), "--dry-run", *db, env=narrow)
    assert dry.returncode == 0, dry.stderr
    hint = "to import a name as the player it looks like, add: "
    line = next(line for line in dry.stderr.splitlines() if line.startswith(hint))
    assert len(line) > 80
    for typo in typos:  # each warning whole on its line too
        assert any(f'new player "{typo}" looks like' in w for w in dry.stderr.splitlines())
    done = run_cli("import", str(sheet), *shlex.split(line.removeprefix(hint)), *db, env=narrow)
    assert done.returncode == 0, done.stderr
    league = League.open(str(tmp_path / "club.db"))
    assert league.aliases() == dict(zip(typos[:3], names[:3], strict=True))  # the first three


def test_a_league_without_events_says_how_a_game_joins_one(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "club.db")]
    assert run_cli("init", "--rules", "adlg", *db).returncode == 0
    said = run_cli("events", *db)
    assert said.returncode == 0 and said.stdout.startswith("no event yet: a game names its event")
    french = run_cli("--lang", "fr", "events", *db)
    assert french.stdout.startswith("aucune manifestation pour le moment\u202f: une partie")


def test_diplomacy_s_tables_and_workbooks_call_its_roles_countries(
    cli: Run, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    someone = League.open(str(tmp_path / "club.db"), "diplomacy").ranking(top=1)[0].player
    table = cli("--lang", "fr", "player", someone, *db).output
    assert "┃ Pays " in table and "Rôle" not in table
    book = tmp_path / "classement.xlsx"
    cli("--lang", "en", "ranking", "-o", str(book), *db)
    sheet = load_workbook(book).active
    assert sheet is not None
    headers = next(row for row in sheet.iter_rows(values_only=True) if row[0] == "#")
    assert "Country" in headers and "Role" not in headers


def test_a_ranking_of_several_modes_and_countries_is_a_table_each(cli: Run, tmp_path: Path) -> None:
    """Diplomacy's ranking on a terminal: a table a mode and country (and a mode's global rows),
    each titled and ranked from 1 (one table read « 1 classique, 1 blitz, 2 classique, … », each
    row ranked in its own pool). ``--top 2``: each ranking's two first, in every format."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"), "diplomacy")
    rows = league.ranking()
    groups = {(r.mode, r.role) for r in rows}
    assert len({m for m, _ in groups}) == 2 and len(groups) == 16
    table = cli("--lang", "fr", "ranking", "--format", "table", "--top", "2", *db).output
    titles = [line for line in table.splitlines() if " · " in line]
    rules = league.rules
    want = {
        f"{rules.label(m, 'fr')} · {'global' if r == '*' else rules.label(r, 'fr')}"
        for m, r in groups
    }
    assert len(titles) == 16 and set(titles) == want
    assert titles[0].endswith(" · global") and titles[8].endswith(" · global")
    ranks = [line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│")]
    assert ranks == ["1", "2"] * 16
    assert "┃ Mode " not in table and "┃ Pays " not in table  # the title names them
    top = json.loads(cli("ranking", "--format", "json", "--top", "2", *db).stdout)
    assert len(top) == 32 and {(r["mode"], r["role"]) for r in top} == groups
    assert [(r.player, r.mode, r.role) for r in league.ranking(top=2)] == [
        (r["player"], r["mode"], r["role"]) for r in top
    ]
    one = cli("ranking", "--format", "table", "--mode", "classic", "--role", "*", *db).output
    assert " · " not in one and "┃ Mode " in one  # one ranking: one table, as before


def test_an_empty_ranking_and_an_unknown_event_say_so(cli: Run, tmp_path: Path) -> None:
    """A ranking with no row drew an empty table, and ``games --event`` of a mistyped event an
    empty list, as if the event had no games: each now says why, in the user's language."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "Club", *db)
    empty = cli("--lang", "fr", "ranking", "--format", "table", *db).stdout
    assert empty.strip() == (
        "aucun joueur n’est encore classé\u202f: importez des parties avec eloleague import FICHIER"
    )
    assert cli("ranking", "--format", "csv", *db).stdout == "player,mode,role,rating,games,title\n"
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    nobody = cli("--lang", "en", "ranking", "--format", "table", "--club", "Nowhere", *db).stdout
    assert nobody.strip() == "no player is ranked with these options"
    league = League.open(str(tmp_path / "club.db"), "Club")
    event = league.events()[0].name
    assert cli("games", "--event", event, "--format", "jsonl", *db).stdout.strip()
    wrong = cli("--lang", "fr", "games", "--event", event + "x", *db, fails=True)
    assert _error(wrong, "fr") == (
        f"aucune manifestation nommée «\u202f{event}x\u202f» dans la ligue «\u202fClub\u202f»"
    )
    with pytest.raises(EloleagueError):
        league.games(event="\x00")  # what no event can be called: the same refusal


def _in_a_terminal(*args: str, columns: int = 100) -> str:
    """What ``eloleague ARGS`` prints in a terminal (a pseudo-terminal: the command draws its
    tables for one, and prints plain lines into a pipe)."""
    import os
    import pty
    import sys

    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command, as typed
        env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "ELOLEAGUE_LANG": "en"}
        os.execve(sys.executable, [sys.executable, "-m", "eloleague", *args], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child has ended
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return re.sub(r"\x1b\[[0-9;]*m", "", out.decode()).replace("\r\n", "\n")


def test_leagues_in_a_terminal_say_what_each_holds(cli: Run, tmp_path: Path) -> None:
    """``eloleague leagues`` in a terminal: each league's rule set, games, players and last
    game (it gave the names alone, as it still does into a pipe, for scripts)."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "Club", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    cli("init", "--rules", "diplomacy", "--league", "Diplo", *db)
    games, people, last = League.open(str(tmp_path / "club.db"), "Club").totals()
    assert games == len(read_lines(REPLAY / "adlg.jsonl")) and people > 10 and last is not None
    assert cli("leagues", *db).stdout == "Club\nDiplo\n"
    shown = _in_a_terminal("leagues", *db)
    assert "┃ League" in shown and "Rule set" in shown, shown
    club = next(line for line in shown.splitlines() if line.startswith("│ Club"))
    cells = [c.strip() for c in club.strip("│").split("│")]
    assert cells == ["Club", "adlg", f"{games:,}", str(people), last.isoformat()]
    diplo = next(line for line in shown.splitlines() if line.startswith("│ Diplo"))
    assert [c.strip() for c in diplo.strip("│").split("│")] == ["Diplo", "diplomacy", "0", "0", ""]


def test_games_in_a_terminal_are_the_last_hundred(cli: Run, tmp_path: Path) -> None:
    """``eloleague games`` in a terminal shows the league's last 100 games and says how to get
    more (on a million-game league it drew every game, for minutes); ``--last N`` the last N in
    any format; a file or a pipe gets every game."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    everything = [g.id for g in League.open(str(tmp_path / "club.db")).games()]
    assert len(everything) > 100
    shown = _in_a_terminal("games", *db, columns=120)
    ids = [line.split("│")[1].strip() for line in shown.splitlines() if line.startswith("│")]
    assert [i for i in ids if i] == everything[-100:]
    assert "the last 100 games: --last N for more, --format csv for every game" in shown
    few = _in_a_terminal("games", "--last", "3", *db, columns=120)
    assert [line.split("│")[1].strip() for line in few.splitlines() if line.startswith("│")] == (
        everything[-3:]
    )
    assert "the last" not in few  # asked for: nothing to say
    lines = cli("games", "--format", "jsonl", *db).stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == everything
    last = cli("games", "--format", "jsonl", "--last", "2", *db).stdout.splitlines()
    assert [json.loads(line)["id"] for line in last] == everything[-2:]
    assert len(_rows(cli("games", *db).stdout)) >= len(everything)  # a pipe: every game


def test_a_player_of_many_pools_gets_a_history_line_per_pool(cli: Run, tmp_path: Path) -> None:
    """Each line of ``eloleague player``'s history is one pool's: its name, its ratings, where
    it started and where it stands (a Diplomacy player's sixteen pools drawn as one line mixed a
    2,000 of one country with a 1,300 of another); the most played pools first, the others
    counted."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    name = max(league.players(), key=lambda n: len({e.key for e in league.player(n).history}))
    report = league.player(name)
    by_pool: dict[Any, list[float]] = {}
    for entry, rating in zip(report.history, report.ratings, strict=True):
        by_pool.setdefault(entry.key, []).append(rating)
    assert len(by_pool) > 3
    most = sorted(by_pool, key=lambda k: -len(by_pool[k]))[:3]
    shown = cli("--lang", "fr", "player", name, *db).output
    lines = [line for line in shown.splitlines() if line.startswith("Historique")]
    assert len(lines) == 3, shown
    for key, line in zip(most, lines, strict=True):
        pool = f"{league.rules.label(key.mode, 'fr')} · {league.rules.label(key.role, 'fr')}"
        assert line.startswith(f"Historique ({pool})\u202f: "), line
        drawn = line.split(": ", 1)[1].split()[0]
        assert len(drawn) == len(by_pool[key])  # her games in this pool, not in every pool
        assert line.endswith(f"→ {by_pool[key][-1]:.1f}".replace(".", ",")), line
    rest = len(by_pool) - 3
    assert f"et {rest} autres classements" in shown
    one = cli("--lang", "en", "player", league.players()[0], *db).output  # English too
    assert "History (" in one


def _rows(table: str) -> list[list[str]]:
    """The cells of each row of a table the command line drew (``│ a │ b │``)."""
    return [
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in table.splitlines()
        if line.startswith("│")
    ]


def test_a_player_s_pools_read_as_on_her_page_and_her_changes_name_theirs(
    cli: Run, tmp_path: Path
) -> None:
    """``eloleague player`` lists a Diplomacy player's pools as her page on the site does (by
    mode, the global rating first, "global" and not ``*``), and each of her last changes names
    its pool (one after the other, a 1,233 of one country and a 1,740 of another read as a
    jump). A ranking of global rows alone has no column saying so; the CSV keeps ``*``."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    rules = league.rules
    name = max(league.players(), key=lambda n: len({e.key for e in league.player(n).history}))
    shown = cli("--lang", "fr", "player", name, *db).output
    ratings, changes = shown.split("Dernières variations")
    rows = _rows(ratings)  # rank, mode, country, rating, games: her name is above, not in each
    assert name not in {cell for row in rows for cell in row}
    assert "*" not in {row[2] for row in rows}
    modes = [row[1] for row in rows]
    assert modes == sorted(modes)  # by mode
    for mode in set(modes):
        own = [row for row in rows if row[1] == mode]
        assert own[0][2] == "global" and all(row[2] != "global" for row in own[1:]), own
        played = [int(row[4]) for row in own[1:]]
        assert played == sorted(played, reverse=True)  # the most played country first
    last = league.player(name).history[-10:]
    assert len({e.key for e in last}) > 1
    pools = [row[2] for row in _rows(changes)]
    assert pools == [
        f"{rules.label(e.key.mode, 'fr')} · {rules.label(e.key.role, 'fr')}" for e in last
    ]
    # how each game went, as on her page: her place (a duel's: its outcome, below)
    assert [row[3] for row in _rows(changes)] == [f"place {e.rank}" for e in last]
    everyone = cli("--lang", "en", "ranking", "--format", "table", *db).output.splitlines()
    assert {"classic · global", "classic · Germany"} <= set(everyone)  # a table each
    alone = cli("--lang", "en", "ranking", "--role", "*", "--format", "table", *db).output
    assert "Country" not in alone and all(len(row) == 4 for row in _rows(alone)), alone
    assert {"classic · global", "blitz · global"} <= set(alone.splitlines())
    csv_rows = cli("ranking", "--role", "*", "--format", "csv", *db).output.splitlines()[1:]
    assert csv_rows and all(row.split(",")[2] == "*" for row in csv_rows)


def test_the_ranking_s_filters_take_roles_and_modes_as_the_tables_show_them(
    cli: Run, tmp_path: Path
) -> None:
    """``--mode classique --role Turquie`` (what the French tables show) ranks the rule file's
    classic and Turkey: it ranked nobody, silently. A word that is no role is refused, the roles
    listed in the user's language."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    named = cli("ranking", "--mode", "classic", "--role", "Turkey", "--format", "csv", *db)
    shown = cli("ranking", "--mode", "classique", "--role", "turquie", "--format", "csv", *db)
    assert len(named.output.splitlines()) > 2
    assert shown.output == named.output
    wrong = run_cli("ranking", "--role", "Turkie", *db, env={"ELOLEAGUE_LANG": "fr"})
    assert wrong.returncode == 2 and not wrong.stdout
    said = " ".join(wrong.stderr.replace("│", " ").split())
    assert "« Turkie » n’est pas un rôle du jeu de règles (parmi : Angleterre, France" in said, said


def test_a_diplomacy_game_names_its_mode_and_countries_in_the_games_and_explain(
    cli: Run, tmp_path: Path
) -> None:
    """``eloleague games`` of a Diplomacy league gives each game's mode and each player's country
    (``Ana (Turquie)``), as ``explain`` does, whose first line names the mode (the pools the game
    counts for: it was missing); a league whose games have no event has no event column."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    rules = league.rules
    game = league.games()[-1]
    assert game.mode and not any(g.event for g in league.games())
    listed = cli("--lang", "fr", "games", *db).output
    assert "┃ Mode " in listed and "Manifestation" not in listed
    said = " ".join(listed.replace("│", " ").split())
    for side in game.sides:
        (player,) = side.players
        assert f"{player.name} ({rules.label(player.role, 'fr')})" in said
    assert f"{game.id} {game.date.isoformat()} {rules.label(game.mode, 'fr')} " in said
    explained = cli("--lang", "fr", "explain", game.id or "", *db).output.splitlines()
    assert (
        explained[0] == f"{game.id}  {game.date.isoformat()}  mode {rules.label(game.mode, 'fr')}"
    )
    (first,) = max(game.sides, key=lambda s: s.score or 0).players  # by place: the top score
    assert f"{first.name} ({rules.label(first.role, 'fr')})" in explained[1]


def test_a_diplomacy_game_s_sides_come_by_place_in_explain_and_the_games(
    cli: Run, tmp_path: Path
) -> None:
    """A Diplomacy game's sides, given in any order, come by place in ``explain`` (1., 2., tied
    sides sharing the better place) and in ``eloleague games``, as on the game's page (one
    computation): numbered « camp 1 … 7 » in the order given, they read as places they were not.
    A duel's sides keep their numbers, by which a correction names them."""
    from eloleague.web import views

    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    countries = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]
    scores = [3, 1, 10, 2, -1, 9, -1]
    given = [f"P{n}" for n in range(7)]
    sides = [
        {"players": [{"name": name, "role": country}], "score": score}
        for name, country, score in zip(given, countries, scores, strict=True)
    ]
    game = {"id": "d1", "date": "2025-03-01", "mode": "classic", "sides": sides}
    cli("import", str(write_lines(tmp_path / "d.jsonl", [game])), *db)
    explained = cli("--lang", "fr", "explain", "d1", *db).output.splitlines()
    listed = [line.strip() for line in explained[1:8]]
    # by score: 10, 9, 3, 2, 1, then the two at -1 sharing 6th place, in the order given
    want = [(1, "P2"), (2, "P5"), (3, "P0"), (4, "P3"), (5, "P1"), (6, "P4"), (6, "P6")]
    assert [line.split(" (")[0] for line in listed] == [f"{n}. {p}" for n, p in want], listed
    assert "camp" not in " ".join(explained)
    table = [row.split("│")[1].strip() for row in explained if row.startswith("│")]
    assert [row.split(" (")[0] for row in table] == [p for _, p in want]  # changes too
    page = views.explain(League.open(str(tmp_path / "club.db")), "d1")["game"]["sides"]
    on_page = sorted(page, key=lambda s: s["place"])
    assert [(s["place"], s["players"][0]["name"]) for s in on_page] == want
    games = " ".join(cli("--lang", "en", "games", *db).output.replace("│", " ").split())
    at = [games.index(f"{p} (") for _, p in want]
    assert at == sorted(at), games

    cli("init", "--rules", "adlg", "--league", "duels", *db)
    lost = duel("g1", "2025-03-01", "Ana", "Ben", ("defeat", "victory"))
    cli("import", str(write_lines(tmp_path / "g.jsonl", [lost])), "--league", "duels", *db)
    shown = cli("--lang", "en", "explain", "g1", "--league", "duels", *db).output.splitlines()
    assert shown[1].strip().startswith("side 1: Ana") and shown[2].strip().startswith("side 2: Ben")


def test_an_event_s_report_begins_with_its_standings_as_its_page_gives_them(
    cli: Run, tmp_path: Path
) -> None:
    """``eloleague events NAME`` gives the event's standings before its games, the same as its
    page on the site (rank, games, points, performance, change; one computation): the report
    began with the first game, who won the event was for the reader to add up."""
    from eloleague.web import views

    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    (event,) = league.events(newest_first=True, limit=1)
    page = views.event(league, event.name)["standings"]
    shown = cli("--lang", "en", "events", event.name, *db).output
    assert shown.splitlines()[1] == "Standings", shown
    rows = _rows(shown.split("Standings", 1)[1].split("┘", 1)[0])
    assert len(rows) == len(page) > 2
    for row, line in zip(rows, page, strict=True):
        delta = f"{line['delta']:+}" if line["delta"] else "0"  # unsigned, as on the page
        want = [str(line["rank"]), line["player"], str(line["games"]), f"{line['points']:g}"]
        assert row[:4] == want and row[4] == f"{line['performance']}" and row[5] == delta, row


def test_ledger_tables_have_the_rules_fired_only_where_a_rule_fired(
    cli: Run, tmp_path: Path
) -> None:
    """An event whose changes are exact (every player at 1,000, K 50: ±25) fires no rule: its
    games' tables have no empty « rules fired » column, which took the width a name needed; a
    later game whose change is rounded has it."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", *db)

    games = [
        duel("o1", "2025-03-01", "Ana", "Ben", event="Open"),
        duel("o2", "2025-03-01", "Cléo", "Dan", event="Open"),
        duel("c1", "2025-04-01", "Ana", "Dan", event="Cup"),
    ]
    cli("import", str(write_lines(tmp_path / "g.jsonl", games)), *db)
    league = League.open(str(tmp_path / "club.db"))
    assert not any(e.fired for e in league.event("Open").games[0].entries)
    assert any(e.fired for e in league.explain("c1").entries)  # 1025 against 975: rounded
    opened = cli("--lang", "en", "events", "Open", *db).output
    assert "o1" in opened and "Rules fired" not in opened
    assert "Rules fired" in cli("--lang", "en", "explain", "c1", *db).output
    assert "Rules fired" not in cli("--lang", "en", "explain", "o1", *db).output


def test_explain_reads_k_and_s_to_three_places_as_p(cli: Run, tmp_path: Path) -> None:
    """A score a formula computed (a Diplomacy player's share of the points) is shown to three
    places as P is, not as 0.057564855141071763, which pushed the names into three lines; the
    ledger's export keeps it exact."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "diplomacy", *db)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    game = next(
        g.id
        for g in reversed(league.games())
        if g.id and any(len(repr(e.score)) > 8 for e in league.explain(g.id).entries)
    )
    entries = league.explain(game).entries
    shown = cli("--lang", "en", "explain", game, *db).output
    for e in entries:
        assert e.score is not None and e.k is not None
        assert f" {round(e.score, 3):g} " in shown, (e.score, shown)
        assert repr(e.score) not in shown or len(repr(e.score)) <= 5
        assert f" {e.expected:.3f} " in shown


NNBSP_COLON = "\u202f: "


@pytest.mark.parametrize(
    "command", ["explain", "event", "games", "events", "log", "ranking", "evaluate"]
)
def test_tables_in_a_narrow_terminal_become_lines(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """In a terminal too narrow for a table even with its names wrapped (a phone's, 36
    columns), each row comes as its first cell alone on a line, then every other cell with its
    heading (``Avant : 969 · P : 0,221 · K : 30``): squeezed, the tables cut names and numbers
    to ``Ali…``, ``0,3…``, or shrank the names' column to nothing. A wide terminal keeps the
    table."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    event = league.events(newest_first=True, limit=1)[0]
    games = league.games(event=event.name)
    game = games[0]
    args = {
        "explain": ("explain", game.id or ""),
        "event": ("events", event.name),
        "games": ("games", "--event", event.name),
        "events": ("events",),
        "log": ("log",),
        "ranking": ("ranking", "--format", "table", "--top", "5"),
        "evaluate": ("evaluate",),
    }[command]
    monkeypatch.setenv("COLUMNS", "36")
    lines = cli("--lang", "fr", *args, *db).output.splitlines()
    # no table squeezed (the terminal folds a long line of prose itself: soft wrap)
    assert not any(line[:1] in "┏┃┡│└" for line in lines) and not any("…" in x for x in lines)

    def after(first: str) -> str:  # the line of headings and values under a row's first cell
        return lines[lines.index(first) + 1]

    if command in ("explain", "event"):
        for e in league.explain(game.id or "").entries:
            shown = after(e.key.player)
            assert shown.startswith(f"  Avant{NNBSP_COLON}{e.before:.0f} · P{NNBSP_COLON}"), shown
            assert f"P{NNBSP_COLON}{e.expected:.3f}".replace(".", ",") in shown
            assert (
                f"Variation{NNBSP_COLON}{e.delta:+.0f} · Après{NNBSP_COLON}{e.after:.0f}" in shown
            )
    elif command == "games":
        for g in games:
            shown = after(g.id or "")
            assert shown.startswith(f"  Date{NNBSP_COLON}{g.date.isoformat()} · "), shown
            assert all(p.name in shown for side in g.sides for p in side.players), shown
    elif command == "events":
        shown = after(event.name)
        assert f"Parties{NNBSP_COLON}{event.games} · Joueurs{NNBSP_COLON}{event.players}" in shown
    elif command == "log":
        assert any(f"Quoi{NNBSP_COLON}" in line for line in lines), lines
    elif command == "evaluate":  # each model, then its measures named
        shown = after("Glicko-2")
        assert f"score de Brier{NNBSP_COLON}0," in shown and "exactitude" in shown, shown
    else:  # a rank and a name, then the rest (no ties among the first five here)
        for rank, row in enumerate(league.ranking(top=5), start=1):
            shown = after(f"{rank}  {row.player}")
            assert shown.startswith(f"  Elo{NNBSP_COLON}{row.rating:.0f} · Parties"), shown
    monkeypatch.setenv("COLUMNS", "160")
    wide = cli("--lang", "fr", *args, *db).output
    assert any(line[:1] == "┏" for line in wide.splitlines()), wide


def test_names_and_warnings_in_brackets_are_printed_as_written(cli: Run, tmp_path: Path) -> None:
    """Rich reads ``[...]`` in a table's text as markup: a player named ``[ab] Alice`` (a clan's
    tag) printed as `` Alice``, and Diplomacy's warnings, written ``[...]`` after the rules fired,
    vanished from ``explain``. Every table and heading shows them as written."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "bataille-empire", *db)
    games = [
        {
            "id": f"g{n}",
            "date": f"2025-01-0{n}",
            "sides": [
                {"players": ["[ab] Alice"], "outcome": "decisive_victory"},
                {"players": ["Bob [x]"], "outcome": "defeat"},
            ],
        }
        for n in (1, 2)
    ]
    cli("import", str(write_lines(tmp_path / "clan.jsonl", games)), *db)
    for args in (
        ("ranking", "--format", "table"),
        ("player", "[ab] Alice"),
        ("explain", "g1"),
        ("games",),
        ("predict", "[ab] Alice", "Bob [x]"),
        ("balance", "[ab] Alice", "Bob [x]"),
    ):
        shown = cli(*args, *db).output
        assert "[ab] Alice" in shown and ("Bob [x]" in shown or args[0] == "player"), shown
    assert cli("player", "Bob [x]", *db).output.startswith("Bob [x]")

    dip = ["--db", str(tmp_path / "dip.db")]
    cli("init", "--rules", "diplomacy", *dip)
    cli("import", str(REPLAY / "diplomacy.jsonl"), *dip)
    league = League.open(str(tmp_path / "dip.db"))
    warned = next(
        (g.id, e)
        for g in league.games()
        if g.id
        for e in league.explain(g.id).entries
        if e.warning and e.warning not in e.fired
    )
    game, entry = warned
    word = render(Text.in_domain("web", entry.warning), "fr")
    shown = cli("--lang", "fr", "explain", game, *dip).output
    assert f"[{word}]" in shown, shown


def test_init_from_a_published_list(cli: Run, tmp_path: Path) -> None:
    listing = tmp_path / "classement.csv"
    listing.write_text(
        "player,mode,role,rating,games,title\nAlice Martin,,,1420,31,\nJean Dupont,,,980,4,\n",
        "utf-8",
    )
    db = ["--db", str(tmp_path / "club.db")]
    done = cli("init", "--rules", "bataille-empire", "--initial", str(listing), *db)
    assert "2 players start from the ratings of classement.csv" in done.stdout
    shown = cli("ranking", "--format", "csv", *db).stdout.splitlines()
    assert shown[1:] == [
        "Alice Martin,,,1420,31,Maréchal d'Empire",
        "Jean Dupont,,,980,4,Chef de bataillon",
    ]


@pytest.mark.parametrize("width", [120, 80, 60])
def test_a_players_history_fits_a_terminal_of_80_columns_or_a_phones(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """In French, a game with a long id among them: every line of the table whole (nothing
    cropped at the right, no heading cut, every date and number in full). At 120 columns every
    column of the ledger, the long id folded; at 80 and at 60 (a phone's terminal) the columns
    would not fit: the table leaves out P, K, S and the rules fired, and says where they are."""
    db = ["--db", str(tmp_path / "club.db")]
    cli("init", "--rules", "adlg", "--league", "AdlG", *db)
    cli("import", str(REPLAY / "adlg.jsonl"), *db)
    league = League.open(str(tmp_path / "club.db"))
    name, other = league.players()[:2]
    late: dict[str, Any] = {  # a JSON Lines record
        "id": "open-de-lyon-2026-ronde-3-table-12",
        "date": "2026-01-10",
        "sides": [
            {"players": [name], "outcome": "victory"},
            {"players": [other], "outcome": "defeat"},
        ],
    }
    cli("import", str(write_lines(tmp_path / "late.jsonl", [late])), *db)
    history = League.open(str(tmp_path / "club.db")).player(name).history[-10:]
    monkeypatch.setenv("COLUMNS", str(width))
    shown = cli("--lang", "fr", "player", name, "--last", "10", *db).output
    table = [line for line in shown.splitlines() if line[:1] in "┏┃┡│└"]
    assert len(table) >= len(history)
    assert all(len(line) <= width and line.rstrip()[-1] in "┓┃┩│┘" for line in table), table
    assert not any("…" in line for line in table), table
    for entry in history:
        assert entry.date.isoformat() in shown
        assert f"{entry.after:.0f}" in shown
        if entry.game != late["id"]:  # a short id whole on its row
            assert any(f"│ {entry.game} " in line for line in table), entry.game
    # each game's result in the reader's words (the long id's row: its first piece); a phone's
    # terminal leaves the results out with P, K and S, to keep the table
    row = next(line for line in table if line.startswith("│ open-de"))
    won = league.rules.label("victory", "fr")
    if width == 60:
        assert "Résultat" not in shown
    else:
        assert won != "victory" and row.split("│")[3].strip() == won
    assert "Historique\u202f: " in shown
    pointer = "P, K, S et règles appliquées\u202f: eloleague explain PARTIE"
    assert ("Règles" in shown, pointer in shown) == (width == 120, width != 120)
    if width == 120:  # the long id folded within its column, its pieces in order
        ids = "".join(line.split("│")[1].strip() for line in table if line.startswith("│"))
        assert late["id"] in ids and late["id"] not in shown


def test_a_dry_run_past_a_seasons_end_shows_the_seasons_adjustments_apart(
    cli: Run, tmp_path: Path
) -> None:
    """`import --dry-run` of the first game of a new season: the table of changes has an
    Adjustment column holding the season's penalties; a game within the season has none."""
    lines = read_lines(REPLAY / "bataille-empire.jsonl")
    db = ("--db", str(tmp_path / "club.db"))
    cli("init", "--rules", "bataille-empire", "--league", "be", *db)
    cli(
        "import",
        str(write_lines(tmp_path / "old.jsonl", [o for o in lines if o["date"] < "2024"])),
        *db,
    )
    later = [o for o in lines if o["date"] >= "2024"]
    first = str(write_lines(tmp_path / "first.jsonl", later[:1]))
    rows = cli("--lang", "fr", "import", first, "--dry-run", *db).stdout.splitlines()
    header = next(r for r in rows if r.startswith("┃"))
    assert "Ajustement" in header
    cells = [[c.strip() for c in r.split("│")[1:-1]] for r in rows if r.startswith("│")]
    column = header.replace("┃", "│").split("│")[1:-1]
    at = [c.strip() for c in column].index("Ajustement")
    adjusted = [c for c in cells if c[at]]
    assert adjusted and all(c[at] == c[at - 1] and c[at].startswith("-") for c in adjusted)
    played = {p for side in later[0]["sides"] for p in side["players"]}
    assert {c[0] for c in cells if not c[at]} >= played - {c[0] for c in adjusted}
    cli("import", first, *db)
    second = str(write_lines(tmp_path / "second.jsonl", later[1:2]))
    assert "Ajustement" not in cli("--lang", "fr", "import", second, "--dry-run", *db).stdout


def test_a_database_that_cannot_be_reached_is_said_so_with_the_driver_s_words() -> None:
    """The command line tells the operator what failed and where (not the site's "send the
    request again in a moment": a wrong port or name is not cured by waiting)."""
    done = run_cli("--lang", "fr", "ranking", "--db", "postgresql://nobody@127.0.0.1:1/club")
    assert done.returncode == 2
    first, *rest = done.stderr.splitlines()
    assert first == "la base de données est injoignable\u202f; rien n’a été modifié"
    assert "127.0.0.1" in "\n".join(rest) and "Traceback" not in done.stderr
