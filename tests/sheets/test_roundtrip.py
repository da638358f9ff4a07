"""A template filled by a script with each replay stream, read back, gives `eloleague rate`'s ratings.

The replay streams span many events while a workbook holds one event, so each stream is written as
one workbook per event (games without an event: workbooks of at most the template's capacity),
read back in order and rated together (docs/sheets.md, "One event per workbook").
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
from collections.abc import Iterator, Sequence

import pytest

from eloleague.engine import replay
from eloleague.engine.methods import ranked
from eloleague.io import parse_jsonl
from eloleague.io.sheets import parse_sheet_csv, parse_workbook, workbook_to_csv
from eloleague.io.sheets.template import DUEL_ROWS, FFA_BLOCKS
from eloleague.records import GameRecord
from eloleague.rules import load_rules
from eloleague.rules.model import RuleSet
from tests.conftest import AS_OF, PRESETS, REPLAY
from tests.sheets.fill import filled_workbook, to_bytes


def stream(preset: str) -> list[GameRecord]:
    games, problems = parse_jsonl((REPLAY / f"{preset}.jsonl").read_bytes())
    assert not problems
    return games


def chunks(
    rules: RuleSet, games: Sequence[GameRecord]
) -> Iterator[tuple[str | None, list[GameRecord]]]:
    """Consecutive games of one event, at most one template's capacity each."""
    size = FFA_BLOCKS if ranked(rules) else DUEL_ROWS
    for event, group in itertools.groupby(games, key=lambda g: g.event):
        items = list(group)
        for start in range(0, len(items), size):
            yield event, items[start : start + size]


def expected_rows(preset: str) -> list[dict[str, str]]:
    text = (REPLAY / f"{preset}.csv").read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def assert_same_ratings(preset: str, games: list[GameRecord]) -> None:
    rules = load_rules(preset)
    as_of = dt.date.fromisoformat(AS_OF[preset]) if preset in AS_OF else None
    rows = replay(rules, games, as_of=as_of).standings()
    expected = expected_rows(preset)
    assert len(rows) == len(expected)
    for got, want in zip(rows, expected, strict=True):
        assert (got.player, got.mode, got.role, str(got.games)) == (
            want["player"],
            want["mode"],
            want["role"],
            want["games"],
        )
        assert got.rating == pytest.approx(float(want["rating"]), abs=1e-6)
        assert got.title == want["title"]


def comparable(game: GameRecord) -> tuple[object, ...]:
    """A game without its id and origin; free-for-all sides in role order (as the sheet lists them)."""
    sides = tuple(sorted(game.sides, key=repr)) if len(game.sides) > 2 else game.sides
    return (game.date, sides, game.event, game.round, game.mode, game.rated)


@pytest.mark.parametrize("preset", PRESETS)
def test_filled_templates_give_the_rate_ratings(preset: str) -> None:
    rules = load_rules(preset)
    original = stream(preset)
    read: list[GameRecord] = []
    for n, (event, games) in enumerate(chunks(rules, original)):
        lang = "fr" if n % 2 == 0 else "en"
        data = to_bytes(filled_workbook(rules, games, lang, event))
        got, problems, _warnings = parse_workbook(data, rules)
        assert problems == []
        assert [comparable(g) for g in got] == [comparable(g) for g in games]
        read += got
    assert_same_ratings(preset, read)


def test_a_roles_column_headed_the_reader_s_way_still_reads() -> None:
    """Diplomacy's template heads its roles' column « Pays » (its role_heading); a workbook
    written before, or by a referee, that heads it « Rôle » or "Role" reads the same."""
    rules = load_rules("diplomacy")
    event, games = next(chunks(rules, stream("diplomacy")))
    for lang, older in (("fr", "Rôle"), ("en", "Role")):
        book = filled_workbook(rules, games, lang, event)
        sheet = book["Résultats" if lang == "fr" else "Results"]
        header = next(row for row in sheet.iter_rows(max_row=5) if row[4].value)
        assert header[4].value == rules.roles_heading(lang)  # « Pays », "Country"
        expected, problems, _ = parse_workbook(to_bytes(book), rules)
        assert problems == [] and len(expected) == len(games)
        header[4].value = older
        got, problems, _ = parse_workbook(to_bytes(book), rules)
        assert problems == []
        assert [comparable(g) for g in got] == [comparable(g) for g in expected]


@pytest.mark.parametrize("preset", ["adlg", "diplomacy"])
def test_the_same_layout_saved_as_csv_gives_the_same_games(preset: str) -> None:
    rules = load_rules(preset)
    original = stream(preset)
    read: list[GameRecord] = []
    for n, (event, games) in enumerate(chunks(rules, original)):
        data = to_bytes(filled_workbook(rules, games, "fr", event))
        text = workbook_to_csv(data, delimiter=";" if n % 2 else ",")
        got, problems, _warnings = parse_sheet_csv(text.encode("utf-8"), rules)
        assert problems == []
        assert [comparable(g) for g in got] == [comparable(g) for g in games]
        read += got
    assert_same_ratings(preset, read)
