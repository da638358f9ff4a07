"""The readers' trial, kept in the suite: valid files (the demo leagues, the preset replay streams,
a filled referee workbook, the preset rule files) are mutated byte by byte and value by value, then
given to ``rate`` and to ``import`` through the library entry points the command line uses.

Whatever happens, it is a success or an :class:`InputError` / :class:`RuleSetError` with located
problems (never another exception), within a bounded time; whatever ``rate`` accepts, ``import``
stores, and what ``import`` refuses leaves the league untouched. A few examples run in the normal
suite; ``make fuzz-long`` runs many more (``ELOLEAGUE_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json
import os
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from eloleague.batch import rate_file
from eloleague.errors import EloleagueError, InputError, RuleSetError
from eloleague.i18n import render
from eloleague.io import parse_jsonl, read_games
from eloleague.io.long_csv import COLUMNS
from eloleague.league import League
from eloleague.records import GameRecord
from eloleague.rules import load_rules
from tests.pg.server import db_url, pg_server  # noqa: F401 - fixtures
from tests.sheets.fill import filled_workbook, to_bytes

ROOT = Path(__file__).parents[2]
DEMO = ROOT / "src" / "eloleague" / "data" / "demo"
REPLAY = ROOT / "tests" / "data" / "replay"
PRESETS = ROOT / "src" / "eloleague" / "rules" / "presets"
RULES = ["adlg", "bataille-empire", "bataille-empire-en", "card-battle", "diplomacy"]
GAMES_PER_SEED = 12

EXAMPLES = int(os.environ.get("ELOLEAGUE_FUZZ_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=dt.timedelta(seconds=10),  # the trial's "hang": more than 10 s for one file
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize="ELOLEAGUE_FUZZ_EXAMPLES" not in os.environ,  # the normal suite is repeatable
)


def _head(path: Path, lines: int = GAMES_PER_SEED) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:lines])


JSONL_SEEDS = [(r, _head(DEMO / f"{r}.jsonl")) for r in RULES] + [
    (r, _head(REPLAY / f"{r}.jsonl")) for r in RULES
]


def _long_csv(games: list[GameRecord]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for n, game in enumerate(games):
        for s, side in enumerate(game.sides, start=1):
            for p in side.players:
                score = "" if side.score is None else side.score
                rated = "yes" if game.rated else "no"
                game_id = game.id or f"g{n}"
                event, round_no = game.event or "", game.round or ""
                outcome = side.outcome or ""
                row = [game_id, game.date.isoformat(), event, round_no, game.mode, rated, s]
                writer.writerow([*row, p.name, p.role, outcome, score])
    return out.getvalue().encode()


def _records(data: bytes) -> list[GameRecord]:
    games, problems = parse_jsonl(data)
    assert not problems
    return games


CSV_SEEDS = [(r, _long_csv(_records(data))) for r, data in JSONL_SEEDS[: len(RULES)]]
WORKBOOK_SEEDS = [
    (r, to_bytes(filled_workbook(load_rules(r), _records(data)[:6], event="Open de printemps")))
    for r, data in JSONL_SEEDS[: len(RULES)]
    if r != "diplomacy"  # one free-for-all workbook is enough (card-battle's)
]

# What the trial put into files: values at and past every bound, control characters, look-alike
# digits, numbers no store holds.
INTERESTING_BYTES = [
    b"\x00",
    b"\xff",
    b"\x85",
    b"\t",
    b"\n",
    b'"',
    b",",
    b";",
    b"{",
    b"]",
    b"\\u0000",
    b"\\ud800",
    b"9999-12-31",
    b"0001-01-01",
    b"9223372036854775808",
    b"2147483648",
    b"99999999999999999999999999999999",
    b"-1",
    b"1e999",
    b"NaN",
    b"#\xc2\xb2",
    b"#12",
    b"\xef\xbb\xbf",
    b"x" * 300,
]
INTERESTING_VALUES: list[object] = [
    "9999-12-31",
    "0999-12-31",
    "2024-02-30",
    2**63,
    2**31,
    2**31 - 1,
    -1,
    10**40,
    1e308,
    -1e300,
    "#²",
    "#1",
    "#",
    "a\u0000b",
    "tab\there",
    "\u0085",
    "x" * 201,
    "y" * 5000,
    "",
    " ",
    None,
    True,
    [],
    {},
    [[]],
]


@st.composite
def byte_mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few bytes flipped, deleted, doubled or replaced by interesting ones."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        if not out:
            out += draw(st.sampled_from(INTERESTING_BYTES))
            continue
        at = draw(st.integers(0, len(out) - 1))
        kind = draw(st.sampled_from(["flip", "delete", "insert", "replace", "cut", "double"]))
        if kind == "flip":
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "delete":
            del out[at : at + draw(st.integers(1, 16))]
        elif kind == "insert":
            out[at:at] = draw(st.sampled_from(INTERESTING_BYTES))
        elif kind == "replace":
            piece = draw(st.sampled_from(INTERESTING_BYTES))
            out[at : at + len(piece)] = piece
        elif kind == "cut":
            del out[at:]
        else:
            out[at:at] = out[at : at + draw(st.integers(1, 200))]
    return bytes(out)


def _set_somewhere(obj: object, value: object, path: list[int]) -> object:
    """``obj`` (decoded JSON) with one value, chosen by ``path``, replaced by ``value``."""
    if isinstance(obj, dict) and obj:
        key = sorted(obj)[path[0] % len(obj)]
        if len(path) > 1 and isinstance(obj[key], dict | list) and obj[key]:
            obj[key] = _set_somewhere(obj[key], value, path[1:])
        else:
            obj[key] = value
        return obj
    if isinstance(obj, list) and obj:
        i = path[0] % len(obj)
        if len(path) > 1 and isinstance(obj[i], dict | list) and obj[i]:
            obj[i] = _set_somewhere(obj[i], value, path[1:])
        else:
            obj[i] = value
        return obj
    return value


@st.composite
def jsonl_value_mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` (JSON Lines) with values of some lines replaced by interesting ones."""
    lines = data.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(0, len(lines) - 1))
        obj = json.loads(lines[n])
        path = draw(st.lists(st.integers(0, 50), min_size=1, max_size=5))
        value = draw(st.sampled_from(INTERESTING_VALUES))
        lines[n] = json.dumps(_set_somewhere(obj, value, path)).encode()
    return b"\n".join(lines) + b"\n"


@st.composite
def csv_value_mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` (CSV) with some cells replaced by interesting values."""
    rows = list(csv.reader(io.StringIO(data.decode())))
    for _ in range(draw(st.integers(1, 3))):
        row = rows[draw(st.integers(0, len(rows) - 1))]
        value = draw(st.sampled_from(INTERESTING_VALUES))
        row[draw(st.integers(0, len(row) - 1))] = "" if value is None else str(value)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode()


@st.composite
def workbook_mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """A workbook damaged in its zip, in one of its XML files, or given strange cell values."""
    kind = draw(st.sampled_from(["zip", "member", "cells"]))
    if kind == "zip":
        return draw(byte_mutations(data))
    source = zipfile.ZipFile(io.BytesIO(data))
    names = source.namelist()
    target = draw(st.sampled_from(names))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name in names:
            content = source.read(name)
            if name == target and kind == "member":
                content = draw(byte_mutations(content))
            elif name == target and name.startswith("xl/worksheets/"):
                content = draw(_cell_values(content))
            book.writestr(name, content)
    return out.getvalue()


@st.composite
def _cell_values(draw: st.DrawFn, sheet: bytes) -> bytes:
    """A sheet's XML with inline strings or numbers put into some of its cells."""
    marker = b"<c r="
    spots = [i for i in range(len(sheet)) if sheet.startswith(marker, i)]
    if not spots:
        return sheet
    at = draw(st.sampled_from(spots))
    end = sheet.find(b"</c>", at)
    if end < 0:
        return sheet
    ref = sheet[at + len(marker) : sheet.find(b" ", at + len(marker))].split(b">")[0]
    value = draw(st.sampled_from(INTERESTING_VALUES))
    if isinstance(value, int | float) and not isinstance(value, bool):
        cell = b"<c r=" + ref + b"><v>" + repr(value).encode() + b"</v></c>"
    else:
        text = "" if value is None else str(value)
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").encode("utf-8", "replace")
        cell = b"<c r=" + ref + b' t="inlineStr"><is><t>' + escaped + b"</t></is></c>"
    return sheet[:at] + cell + sheet[end + len(b"</c>") :]


TOML_NUMBERS = [b"0", b"-1", b"1e308", b"-1e308", b"nan", b"inf", b"99999999999", b"2147483648"]


@st.composite
def toml_value_mutations(draw: st.DrawFn, text: bytes) -> bytes:
    """A rule file with some of its numbers replaced by extreme ones."""
    spots = [m.span() for m in re.finditer(rb"(?<=[=\[, ])-?[0-9][0-9_.]*", text)]
    for _ in range(draw(st.integers(1, 3))):
        if not spots:
            break
        start, end = draw(st.sampled_from(spots))
        value = draw(st.sampled_from(TOML_NUMBERS))
        text = text[:start] + value + text[end:]
        spots = [m.span() for m in re.finditer(rb"(?<=[=\[, ])-?[0-9][0-9_.]*", text)]
    return text


# The trial -------------------------------------------------------------------------------------

_names = itertools.count()


def _located(exc: InputError) -> None:
    """Every problem says where and what, in English and in French."""
    assert exc.problems
    for problem in exc.problems:
        assert str(problem.message)
        assert exc.source or problem.location, problem
        assert problem.render("fr") and problem.render("en")
    assert "Traceback" not in exc.render("fr")


def _trial(db: str, rules: str | Path, path: Path) -> None:
    """``rate`` then ``import`` of ``path``: the same answer, the league untouched on refusal."""
    try:
        rated = rate_file(path, rules)
    except InputError as exc:
        _located(exc)
        rated = None
    event("accepted" if rated is not None else "refused")  # --hypothesis-show-statistics
    league = League.create(db, f"trial {next(_names)}", rules)
    try:
        report = league.import_file(path)
    except InputError as exc:
        _located(exc)
        assert rated is None, f"rate accepted what import refused: {exc.render()}"
        assert league.games() == []
        return
    assert rated is not None, "import stored what rate refused"
    assert len(league.games()) == report.added == len(read_games(path, league.rules))
    assert {r.player for r in league.ranking()} == {r.player for r in rated.standings}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'trial.db'}"


def _write(tmp_path: Path, suffix: str, data: bytes) -> Path:
    path = tmp_path / f"games{next(_names)}{suffix}"
    path.write_bytes(data)
    return path


@SETTINGS
@given(st.data())
def test_mutated_json_lines_pass_rate_and_import_alike(
    db_url: str,  # noqa: F811 - SQLite, then PostgreSQL (NUL, 32-bit rounds)
    tmp_path: Path,
    data: st.DataObject,
) -> None:
    rules, seed = data.draw(st.sampled_from(JSONL_SEEDS))
    mutated = data.draw(st.one_of(byte_mutations(seed), jsonl_value_mutations(seed)))
    _trial(db_url, rules, _write(tmp_path, ".jsonl", mutated))


@SETTINGS
@given(st.data())
def test_mutated_long_csv_files_pass_rate_and_import_alike(
    sqlite_url: str, tmp_path: Path, data: st.DataObject
) -> None:
    rules, seed = data.draw(st.sampled_from(CSV_SEEDS))
    mutated = data.draw(st.one_of(byte_mutations(seed), csv_value_mutations(seed)))
    _trial(sqlite_url, rules, _write(tmp_path, ".csv", mutated))


@SETTINGS
@given(st.data())
def test_mutated_workbooks_pass_rate_and_import_alike(
    sqlite_url: str, tmp_path: Path, data: st.DataObject
) -> None:
    rules, seed = data.draw(st.sampled_from(WORKBOOK_SEEDS))
    mutated = data.draw(workbook_mutations(seed))
    _trial(sqlite_url, rules, _write(tmp_path, ".xlsx", mutated))


@SETTINGS
@given(st.data())
def test_mutated_rule_files_pass_rate_and_init_alike(
    sqlite_url: str, tmp_path: Path, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(RULES))
    text = (PRESETS / f"{name}.toml").read_bytes()
    rules_path = _write(
        tmp_path, ".toml", data.draw(st.one_of(byte_mutations(text), toml_value_mutations(text)))
    )
    games = _write(tmp_path, ".jsonl", dict(JSONL_SEEDS)[name])
    try:
        load_rules(rules_path)
    except RuleSetError as exc:
        assert str(exc).startswith(str(rules_path)), exc
        with pytest.raises(RuleSetError):
            League.create(sqlite_url, f"trial {next(_names)}", rules_path)
        with pytest.raises(RuleSetError):
            rate_file(games, rules_path)
        return
    try:
        _trial(sqlite_url, rules_path, games)
    except EloleagueError as exc:  # a rule set the engine refuses says so, in words
        assert not isinstance(exc, InputError) and render(exc.message, "fr")
