"""Imports: idempotent, all-or-nothing, --update, --dry-run, name warnings (issue 3 §3)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from eloleague.errors import InputError, StoredConflict
from eloleague.io import parse_jsonl
from eloleague.league import League, utc_today
from eloleague.records import GameRecord, replace
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    rate_csv,
    read_lines,
    replay_file,
    write_lines,
)


def record(obj: dict[str, Any]) -> GameRecord:
    """One game of the interchange format as a record."""
    records, problems = parse_jsonl(json.dumps(obj).encode())
    assert not problems
    return records[0]


@pytest.fixture
def adlg(db_url: str) -> League:
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(replay_file("adlg"))
    return league


def test_importing_the_same_file_again_adds_nothing(adlg: League) -> None:
    before = ranking_csv(adlg)
    report = adlg.import_file(replay_file("adlg"))
    assert (report.added, report.replaced, report.unchanged) == (0, 0, 991)
    assert report.already_imported is not None
    assert not report.changed and report.new_players == []
    assert ranking_csv(adlg) == before
    assert len(adlg.games()) == 991


def test_games_without_ids_are_recognised_by_content(db_url: str, tmp_path: Path) -> None:
    lines = read_lines(replay_file("bataille-empire"))[:100]
    for obj in lines:
        del obj["id"]
    lines.append(dict(lines[-1]))  # the same game twice (a rematch with the same result)
    path = write_lines(tmp_path / "noid.jsonl", lines)
    league = League.create(db_url, "be", "bataille-empire")
    assert league.import_file(path).added == 101
    again = league.import_file(path)
    assert (again.added, again.unchanged) == (0, 101)
    assert ranking_csv(league) == rate_csv(path, "bataille-empire")
    assert league.ledger()[0].game == "#1"


def test_a_file_with_one_bad_line_is_refused_whole(adlg: League, tmp_path: Path) -> None:
    before = ranking_csv(adlg)
    lines = read_lines(replay_file("adlg"))[:5]
    new = [dict(o, id=f"new{n}", date="2026-01-10") for n, o in enumerate(lines)]
    new[3]["sides"][0]["outcome"] = "victroy"
    path = write_lines(tmp_path / "bad.jsonl", new)
    with pytest.raises(InputError) as caught:
        adlg.import_file(path)
    assert 'line 4: side 1: unknown outcome "victroy"' in str(caught.value)
    assert len(adlg.games()) == 991
    assert ranking_csv(adlg) == before


def test_a_changed_game_needs_update_then_equals_rate_of_the_corrected_file(
    adlg: League, tmp_path: Path
) -> None:
    lines = read_lines(replay_file("adlg"))
    target = lines[500]
    a, b = target["sides"][0]["outcome"], target["sides"][1]["outcome"]
    target["sides"][0]["outcome"], target["sides"][1]["outcome"] = b, a
    corrected = write_lines(tmp_path / "corrected.jsonl", lines)
    with pytest.raises(InputError) as caught:
        adlg.import_file(corrected)
    assert f'game "{target["id"]}" is already in the league with different content' in str(
        caught.value
    )
    # the library says what; how to replace it is each shell's (the command line's --update)
    (conflict,) = caught.value.problems
    assert isinstance(conflict, StoredConflict) and conflict.game == target["id"]
    assert "--update" not in str(caught.value)

    report = adlg.import_file(corrected, update=True)
    assert (report.added, report.replaced, report.unchanged) == (0, 1, 990)
    assert ranking_csv(adlg) == rate_csv(corrected, "adlg")
    assert_equals_full_replay(adlg)

    del lines[200]
    deleted_id = read_lines(replay_file("adlg"))[200]["id"]
    adlg.delete_game(deleted_id)
    smaller = write_lines(tmp_path / "smaller.jsonl", lines)
    assert ranking_csv(adlg) == rate_csv(smaller, "adlg")
    assert_equals_full_replay(adlg)


def test_an_update_of_the_last_arrived_game_with_a_new_game_numbers_them_apart(
    adlg: League, tmp_path: Path
) -> None:
    """The replaced game keeps its arrival number; the new one comes after it (it was given the
    replaced game's number, and the import failed on the unique arrival number)."""
    lines = read_lines(replay_file("adlg"))
    last = lines[-1]
    a, b = last["sides"][0]["outcome"], last["sides"][1]["outcome"]
    last["sides"][0]["outcome"], last["sides"][1]["outcome"] = b, a
    lines.append(dict(lines[0], id="one-more", date=last["date"]))
    both = write_lines(tmp_path / "both.jsonl", lines)

    report = adlg.import_file(both, update=True)
    assert (report.added, report.replaced, report.unchanged) == (1, 1, 990)
    assert [g.id for g in adlg.games()][-2:] == [last["id"], "one-more"]
    assert ranking_csv(adlg) == rate_csv(both, "adlg")
    assert_equals_full_replay(adlg)


def test_dry_run_reports_without_writing(adlg: League, tmp_path: Path) -> None:
    before = ranking_csv(adlg)
    lines = read_lines(replay_file("adlg"))[:4]
    new = [dict(o, id=f"dry{n}", date="2026-02-01", event="Dry 2026") for n, o in enumerate(lines)]
    new[0]["sides"][0]["players"] = ["Zoé Nouvelle"]
    report = adlg.import_file(write_lines(tmp_path / "dry.jsonl", new), dry_run=True)
    assert report.dry_run and report.added == 4
    assert report.new_players == ["Zoé Nouvelle"]
    changed = {c.key.player for c in report.rating_changes}
    assert "Zoé Nouvelle" in changed and len(changed) >= 5
    assert ranking_csv(adlg) == before
    assert len(adlg.games()) == 991 and "Zoé Nouvelle" not in adlg.players()


def test_names_like_an_existing_player_are_warned(db_url: str, tmp_path: Path) -> None:
    league = League.create(db_url, "be", "bataille-empire")
    first = [
        {
            "id": "a",
            "date": "2025-01-05",
            "sides": [
                {"players": ["Alice Martin"], "outcome": "draw"},
                {"players": ["Bruno Petit"], "outcome": "draw"},
            ],
        }
    ]
    league.import_file(write_lines(tmp_path / "one.jsonl", first))
    names = ["alice martin", "Brunö Petit", "Alice  Martin", "Bruno Peti", "Chloé Roux"]
    later = [
        {
            "id": f"b{n}",
            "date": "2025-02-05",
            "sides": [
                {"players": [name], "outcome": "draw"},
                {"players": ["Alice Martin" if n % 2 else "Bruno Petit"], "outcome": "draw"},
            ],
        }
        for n, name in enumerate(names)
    ]
    report = league.import_file(write_lines(tmp_path / "two.jsonl", later))
    found = {w.name: (w.likely, str(w.reason)) for w in report.name_warnings}
    assert found == {
        "alice martin": ("Alice Martin", "differs only by case"),
        "Brunö Petit": ("Bruno Petit", "differs only by accents"),
        "Alice  Martin": ("Alice Martin", "differs only by spacing"),
        "Bruno Peti": ("Bruno Petit", "one letter differs"),
    }
    assert set(report.new_players) == set(names)


def test_python_callers_get_the_same_validation(db_url: str) -> None:
    from eloleague.io import parse_jsonl

    league = League.create(db_url, "dip", "diplomacy")
    data = replay_file("adlg").read_bytes().splitlines()[0] + b"\n"
    games, problems = parse_jsonl(data)
    assert not problems
    with pytest.raises(InputError) as caught:
        league.import_games(games, source="api")
    assert "api: line 1" in str(caught.value)
    assert league.games() == []


def test_a_game_dated_after_tomorrow_is_refused_and_nothing_stored(
    adlg: League, tmp_path: Path
) -> None:
    """A date ahead is a typing error: a league that took it would stand at that date (every
    live game after it a back-dated one). Tomorrow passes (east of Greenwich it is today)."""
    before, games = ranking_csv(adlg), len(adlg.games())
    played = read_lines(replay_file("adlg"))[0]
    adlg.today = lambda: dt.date(2026, 3, 1)
    ahead = [
        {**played, "id": "ahead-1", "date": "2026-03-03"},  # line 1: the day after tomorrow
        {**played, "id": "ahead-2", "date": "2026-03-02", "sides": []},  # line 2: no sides
        {**played, "id": "ahead-3", "date": "2062-03-01"},  # line 3: 2062 for 2026
    ]
    path = write_lines(tmp_path / "ahead.jsonl", ahead)
    with pytest.raises(InputError) as caught:
        adlg.import_file(path)
    assert str(caught.value).splitlines() == [  # with the rules' problems, line after line
        f"{path}: line 1: dated 2026-03-03, a day that has not come yet (today is 2026-03-01)",
        f"{path}: line 2: a game needs at least two sides, this one has 0",
        f"{path}: line 3: dated 2062-03-01, a day that has not come yet (today is 2026-03-01)",
    ]
    assert (ranking_csv(adlg), len(adlg.games())) == (before, games)
    tomorrow = adlg.import_games(
        [replace(record(played), id="ahead-4", date=dt.date(2026, 3, 2))], source="live"
    )
    assert tomorrow.added == 1
    with pytest.raises(InputError, match="a day that has not come yet"):  # a correction too
        adlg.correct_game(
            "ahead-4", replace(record(played), id="ahead-4", date=dt.date(2027, 1, 1))
        )
    assert adlg.explain("ahead-4").game.date == dt.date(2026, 3, 2)
    adlg.today = utc_today  # the league's own clock: the UTC date
    far = replace(record(played), id="ahead-5", date=utc_today() + dt.timedelta(days=3))
    with pytest.raises(InputError, match="a day that has not come yet"):
        adlg.import_games([far], source="live")
    assert_equals_full_replay(adlg)


def test_an_answer_kept_for_retries_is_forgotten_after_a_day(
    adlg: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer of an API post is kept for its retries (``posted_answer``) for a day, then
    forgotten when a later post keeps its own (every answer kept does here; one in
    ``FORGET_EVERY`` in a server): kept for good, they grew the database as fast as the games.
    A retry of the older post adds nothing all the same (its games are there)."""
    from sqlalchemy import update

    from eloleague.store import imports
    from eloleague.store.imports import KEPT_FOR
    from eloleague.store.tables import import_batches

    monkeypatch.setattr(imports, "FORGET_EVERY", 1)

    played = read_lines(replay_file("adlg"))[-1]
    first = replace(record(played), id="kept-1")
    assert adlg.import_games([first], source="api", content_hash="h1", answer=lambda r: "A1").added
    assert adlg.posted_answer("h1") == "A1"
    aged = dt.datetime.now(dt.UTC) - KEPT_FOR - dt.timedelta(minutes=1)
    with adlg.engine.begin() as conn:  # the first post, a day and a minute ago
        conn.execute(
            update(import_batches)
            .where(import_batches.c.content_hash == "h1")
            .values(created_at=aged)
        )
    second = replace(record(played), id="kept-2")
    adlg.import_games([second], source="api", content_hash="h2", answer=lambda r: "A2")
    assert (adlg.posted_answer("h1"), adlg.posted_answer("h2")) == (None, "A2")
    again = adlg.import_games([first], source="api", content_hash="h1", answer=lambda r: "A1'")
    assert (again.added, again.unchanged) == (0, 1)
    assert_equals_full_replay(adlg)
