"""What a league cannot hold is refused by every reader, located, before anything is written
(docs/formats.md, "Limits"): the cases of the readers' trial, one by one."""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

from eloleague.cli import internal_error
from eloleague.errors import EloleagueError, InputError
from eloleague.io import parse_jsonl, parse_long_csv, validate_games
from eloleague.io.limits import NAME_MAX, game_number
from eloleague.io.sheets import parse_workbook
from eloleague.io.sheets.archive import ROWS_MAX
from eloleague.league import League
from eloleague.rules import load_rules
from eloleague.store.players import similar_names
from tests.conftest import run_cli
from tests.pg.server import db_url, pg_server  # noqa: F401 - fixtures
from tests.sheets.fill import filled_workbook, to_bytes

ADLG = load_rules("adlg")


def _game(**fields: object) -> dict[str, Any]:  # a JSON Lines record
    sides = [
        {"players": ["Alice"], "outcome": "victory"},
        {"players": ["Bruno"], "outcome": "defeat"},
    ]
    return {"id": "g1", "date": "2025-01-01", "sides": sides, **fields}


def _problems(*games: dict[str, object]) -> list[str]:
    data = "\n".join(json.dumps(g) for g in games).encode()
    records, problems = parse_jsonl(data)
    return [str(p) for p in problems + validate_games(ADLG, records)]


def _named(name: str, side: int = 1) -> dict[str, object]:
    game = _game()
    game["sides"][side - 1]["players"] = [name]
    return game


def test_json_lines_values_no_store_holds_are_located() -> None:
    assert _problems(_game(date="9999-12-31")) == [
        "line 1: the date 9999-12-31 is out of range (1000-01-01 to 8999-12-31)"
    ]
    assert _problems(_game(round=2**63), _game(id="g2", round=2**31)) == [
        "line 1: round 9223372036854775808 is out of range (0 to 2147483647)",
        "line 2: round 2147483648 is out of range (0 to 2147483647)",
    ]
    assert _problems(_game(round=-1)) == ["line 1: round -1 is out of range (0 to 2147483647)"]
    # a long value is cut to its first characters and an ellipsis (« … », not three dots)
    assert _problems(_game(round=10**40)) == [
        f"line 1: round {'1' + '0' * 28}… is out of range (0 to 2147483647)"
    ]
    shown = json.dumps(list(range(30)), separators=(",", ":"))[:39] + "…"
    assert _problems(_game(id=list(range(30)))) == [
        f'line 1: field "id": expected text, got {shown}'
    ]
    assert _problems(_named("Ali\u0000ce")) == [
        'line 1: side 1: the name of player 1 "Ali\\x00ce" contains a control character '
        "(U+0000): remove it"
    ]
    assert _problems(_named("x" * 201, side=2)) == [
        "line 1: side 2: the name of player 1 is 201 characters long: at most 200 are allowed"
    ]
    assert _problems(_named("x" * NAME_MAX)) == []  # the bound itself is allowed
    assert _problems(_game(id="#²")) == [
        'line 1: the game id "#²" starts with #: #N names a game without id (its arrival '
        "number), so a game id cannot start with #"
    ]
    assert _problems(_game(event="Open\nde Lyon")) == [
        'line 1: the event "Open\\nde Lyon" contains a control character (U+000A): remove it'
    ]
    assert _problems(_game(mode="m" * 101)) == [
        "line 1: the mode is 101 characters long: at most 100 are allowed"
    ]
    assert _problems(_game(), _game()) == ['line 2: game id "g1" is used twice (also at line 1)']


def test_scores_and_sizes_beyond_the_bounds() -> None:
    dip = load_rules("diplomacy")
    roles = list(dip.roles)
    sides = [{"players": [{"name": f"P{i}", "role": r}], "score": 1} for i, r in enumerate(roles)]
    sides[0]["score"] = 1e300
    data = json.dumps({"date": "2025-01-01", "sides": sides}).encode()
    records, _ = parse_jsonl(data)
    assert [str(p) for p in validate_games(dip, records)] == [
        "line 1: side 1: the score 1e+300 is out of range (-1,000,000,000 to 1,000,000,000)"
    ]
    crowd = [{"players": [f"P{i}"], "score": i} for i in range(101)]
    records, _ = parse_jsonl(json.dumps({"date": "2025-01-01", "sides": crowd}).encode())
    assert [str(p) for p in validate_games(dip, records)] == [
        "line 1: 101 sides: at most 100 are allowed"
    ]


def test_long_csv_digits_that_are_not_ascii_are_refused_not_a_crash() -> None:
    header = "game,date,round,side,player,outcome\n"
    rows = "g1,2025-01-01,²,1,Alice,victory\ng1,2025-01-01,²,٢,Bruno,defeat\n"
    games, problems = parse_long_csv((header + rows).encode())
    assert games == []
    assert [str(p) for p in problems] == [
        'line 2, column C (round): "²" is not a round number (a whole number)',
        'line 3, column D (side): "٢" is not a side number (1, 2, ...)',
    ]
    rows = "g1,2025-01-01,1,101,Alice,victory\n"
    assert [str(p) for p in parse_long_csv((header + rows).encode())[1]] == [
        "line 2, column D (side): side 101: a game has at most 100 sides"
    ]


def test_french_messages_of_the_bounds() -> None:
    records, _ = parse_jsonl(json.dumps(_named("A\u0007")).encode())
    (problem,) = validate_games(ADLG, records)
    assert problem.render("fr") == (
        'ligne 1\u202f: camp 1\u202f: le nom du joueur 1 "A\\x07" contient un caractère de contrôle '
        "(U+0007)\u202f: retirez-le"
    )


def test_arrival_numbers_are_ascii_digits_only() -> None:
    assert game_number("#12") == 12
    assert game_number("#²") is None
    assert game_number("#١٢") is None
    assert game_number("#") is None
    assert game_number("12") is None


def test_lookups_of_texts_no_league_holds_find_nothing(db_url: str) -> None:  # noqa: F811
    league = League.create(db_url, "L", "adlg")
    records, _ = parse_jsonl(json.dumps({**_game(), "id": None}).encode())
    league.import_games(records, source="test")
    assert league.explain("#1").game.participants[0].name == "Alice"
    for wanted in ("#²", "a\u0000b", "#99999999999999999999", "x" * 5000):
        with pytest.raises(EloleagueError, match="no game"):
            league.explain(wanted)
    with pytest.raises(EloleagueError, match="no event"):
        league.event("Open\u0000")
    with pytest.raises(EloleagueError, match="no event"):
        league.games(event="Open\u0000")
    with pytest.raises(EloleagueError, match="control character"):
        league.rename_player("Alice", "Ali\u0000ce")
    with pytest.raises(EloleagueError, match="at most 200"):
        league.rename_player("Alice", "A" * 201)
    assert league.players() == ["Alice", "Bruno"]


def test_a_rejected_import_stores_nothing_on_either_database(
    db_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    league = League.create(db_url, "L", "adlg")
    path = tmp_path / "games.jsonl"
    lines = [_game(id="ok"), _named("Zoé\u0000"), _game(id="r", round=2**31)]
    path.write_text("\n".join(json.dumps(g) for g in lines))
    with pytest.raises(InputError) as caught:
        league.import_file(path)
    assert [str(p.location) for p in caught.value.problems] == ["line 2", "line 3"]
    assert league.games() == [] and league.players() == []


# The look-alike check -------------------------------------------------------------------------


def _one_removal(text: str) -> set[str]:
    return {text} | {text[:i] + text[i + 1 :] for i in range(len(text))}


@settings(max_examples=300, deadline=None)
@given(
    st.text("abcé ", min_size=5, max_size=8),
    st.lists(st.text("abcé ", min_size=4, max_size=9), max_size=6),
)
def test_one_typo_is_what_removing_a_letter_from_each_makes_equal(
    new: str, existing: list[str]
) -> None:
    """The rapidfuzz check finds exactly the names the earlier symmetric-deletion index found."""
    from eloleague.store.players import _folded

    warnings = similar_names([new], existing)
    folded = _folded(new)
    if any(_folded(e) == folded for e in existing) or len(folded) < 5:
        return  # case, accents, spacing: another reason; short names: never a typo
    expected = any(
        len(_folded(e)) >= 5 and _one_removal(folded) & _one_removal(_folded(e)) for e in existing
    )
    assert bool(warnings) == expected, (new, existing, warnings)


def test_a_very_long_stored_name_does_not_slow_down_ordinary_names() -> None:
    long = "x" * 60_000
    warnings = similar_names(["Bruno Peti", "y" * 59_999 + "x"], ["Bruno Petit", long])
    assert [(w.name, w.likely, str(w.reason)) for w in warnings] == [
        ("Bruno Peti", "Bruno Petit", "one letter differs")
    ]
    assert [w.likely for w in similar_names(["x" * 59_999 + "y"], [long])] == [long]


# Workbooks ------------------------------------------------------------------------------------


def _workbook() -> bytes:
    records, _ = parse_jsonl(json.dumps(_game()).encode())
    return to_bytes(filled_workbook(ADLG, records, event="Open"))


def _messages(data: bytes) -> list[str]:
    games, problems, _ = parse_workbook(data, ADLG, "en")
    assert games == [] or not problems
    return [str(p) for p in problems]


def test_a_zip_bomb_is_refused_before_it_is_inflated() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("[Content_Types].xml", b"<Types/>")
        bomb.writestr("xl/worksheets/sheet1.xml", b" " * 50_000_000)
    assert len(out.getvalue()) < 100_000
    assert _messages(out.getvalue()) == [
        "the workbook inflates to more than 40 MB: it is not a referee's sheet"
    ]


def test_a_sheet_of_too_many_rows_is_refused() -> None:
    rows = b"".join(b'<row r="%d"/>' % n for n in range(1, ROWS_MAX + 2))
    source = zipfile.ZipFile(io.BytesIO(_workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name in source.namelist():
            content = source.read(name)
            if name == "xl/worksheets/sheet3.xml":
                content = content.replace(b"</sheetData>", rows + b"</sheetData>")
            book.writestr(name, content)
    assert _messages(out.getvalue()) == [
        "a sheet has more than 10000 rows: a referee's sheet has far fewer"
    ]


def test_damaged_workbooks_are_one_located_message() -> None:
    good = _workbook()
    assert parse_workbook(good, ADLG, "en")[0]
    source = zipfile.ZipFile(io.BytesIO(good))
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w", zipfile.ZIP_DEFLATED) as book:
        for name in source.namelist():
            content = source.read(name)
            if name == "xl/workbook.xml":
                content = content[: len(content) // 2]  # cut in the middle of an element
            book.writestr(name, content)
    assert _messages(damaged.getvalue()) == [
        "this workbook is damaged (ParseError): open it in Excel or LibreOffice and save it "
        "again as .xlsx"
    ]
    rng = random.Random(11)
    for _ in range(40):  # bytes changed anywhere: a message, never an exception
        data = bytearray(good)
        for _ in range(3):
            data[rng.randrange(len(data))] = rng.randrange(256)
        assert isinstance(_messages(bytes(data)), list)


def test_every_unreadable_workbook_message_is_in_the_french_catalogue() -> None:
    import ast

    from eloleague.i18n import _catalogue
    from eloleague.io.sheets import archive, reader

    french = _catalogue("fr", "sheets")
    wanted: set[str] = set()
    for module in (archive, reader):
        for node in ast.walk(ast.parse(Path(str(module.__file__)).read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DamagedWorkbook":
                message = node.args[0]
                assert isinstance(message, ast.Constant), ast.dump(message)
                assert isinstance(message.value, str), ast.dump(message)
                wanted.add(message.value)
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", "") == "unreadable"
                and isinstance(node.args[1], ast.Constant)
            ):
                text = node.args[1].value
                assert isinstance(text, str), text
                wanted.add(text)
    assert len(wanted) >= 6
    assert sorted(m for m in wanted if m not in french) == []


# The command line -------------------------------------------------------------------------------


def test_internal_errors_never_show_sql_or_parameters() -> None:
    engine = create_engine("sqlite://")
    with pytest.raises(SQLAlchemyError) as caught, engine.connect() as conn:
        conn.execute(text("SELECT secret FROM nowhere WHERE name = :n"), {"n": "Alice Martin"})
    assert "Alice Martin" in str(caught.value) and "SELECT" in str(caught.value)
    shown = internal_error(caught.value)
    assert shown == "OperationalError (database)"
    assert internal_error(ValueError("bad")) == "ValueError: bad"


def test_the_trial_files_through_the_real_command_line(tmp_path: Path) -> None:
    cases = {
        "round.jsonl": json.dumps(_game(round=2**63)),
        "date.jsonl": json.dumps(_game(date="9999-12-31")),
        "nul.jsonl": json.dumps(_named("Zo\u0000é")),
        "hash.jsonl": json.dumps(_game(id="#²")),
    }
    for name, content in cases.items():
        (tmp_path / name).write_text(content + "\n")
    (tmp_path / "damaged.xlsx").write_bytes(_workbook()[:-300])
    db = str(tmp_path / "league.db")
    assert run_cli("init", "--db", db, "--rules", "adlg").returncode == 0
    for name in [*cases, "damaged.xlsx"]:
        for command in (["rate", str(tmp_path / name), "--rules", "adlg"], ["import", "--db", db]):
            args = command if command[0] == "rate" else [*command, str(tmp_path / name)]
            done = run_cli(*args)
            assert done.returncode == 2, (name, command, done.stderr)
            assert "internal error" not in done.stderr and name in done.stderr
    done = run_cli("explain", "--db", db, "#²")
    assert done.returncode == 2 and "no game" in done.stderr, done.stderr
    done = run_cli("ranking", "--db", db, "--as-of", "9999-12-31")
    assert done.returncode == 2 and "out of range" in done.stderr, done.stderr


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text("abcé 1", min_size=1, max_size=8), max_size=6),
    st.lists(st.text("abcé 1", min_size=1, max_size=9), max_size=12),
    st.lists(st.integers(1, 4), max_size=12),
)
def test_names_registered_in_parts_warn_as_if_read_at_once(
    new: list[str], existing: list[str], steps: list[int]
) -> None:
    """A league's names kept in parts (players registered since, added at each write) give the
    same warnings, and the same look-alike of several, as the names read at once."""
    from eloleague.store.players import _extended, lookalikes

    registered: tuple[Any, ...] = ()
    start = 0
    for step in [*steps, len(existing)]:
        rows = list(enumerate(existing))[start : start + step]
        if rows:
            registered = _extended(registered, rows)
        start += step
    assert sum(len(part.rows) for part in registered) == len(existing)
    assert lookalikes(new, registered) == similar_names(new, existing)
