"""Every change recomputes from the earliest date it touches, and the result equals a full replay
(issue 3 §2). Checkpoints are taken every few games here so that resuming is exercised."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
from sqlalchemy import func, select

from eloleague.errors import EloleagueError, InputError
from eloleague.league import League
from eloleague.store import checkpoints
from eloleague.store.tables import checkpoints as checkpoint_table
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    rate_csv,
    read_lines,
    replay_file,
    write_lines,
)


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 60)


@pytest.mark.parametrize("preset", ["adlg", "bataille-empire", "diplomacy"])
def test_random_changes_always_equal_a_full_replay(
    db_url: str, preset: str, tmp_path: Path
) -> None:
    rng = random.Random(preset)
    lines = read_lines(replay_file(preset))
    # Pieces arrive out of date order: a late sheet for an old event, then the rest.
    pieces = [lines[300:500], lines[:300], lines[500:]]
    league = League.create(db_url, preset, preset)
    for n, piece in enumerate(pieces):
        league.import_file(write_lines(tmp_path / f"piece{n}.jsonl", piece))
        assert_equals_full_replay(league)

    for step in range(2):
        victim = rng.choice(league.games())
        assert victim.id is not None
        league.delete_game(victim.id)
        assert_equals_full_replay(league)
        if preset != "diplomacy":
            game = rng.choice(read_lines(replay_file(preset)))
            game = dict(game, id=f"extra{step}", date="2023-05-0" + str(step + 1))
            league.import_file(write_lines(tmp_path / f"extra{step}.jsonl", [game]))
            assert_equals_full_replay(league)


def test_merge_rename_and_rule_change_equal_rate_of_the_corrected_file(
    db_url: str, tmp_path: Path
) -> None:
    lines = read_lines(replay_file("bataille-empire"))
    real, typo = "Marie P002", "Marie P002x"
    # The typo appears only in games where the real name does not.
    renamed = []
    for n, obj in enumerate(lines):
        names = [p for s in obj["sides"] for p in s["players"]]
        if n % 3 == 0 and real in names:
            for side in obj["sides"]:
                side["players"] = [typo if p == real else p for p in side["players"]]
        renamed.append(obj)
    league = League.create(db_url, "be", "bataille-empire")
    league.import_file(write_lines(tmp_path / "typo.jsonl", renamed))
    assert typo in league.players()

    league.merge_players(typo, real)
    assert typo not in league.players()
    assert ranking_csv(league) == rate_csv(replay_file("bataille-empire"), "bataille-empire")
    assert_equals_full_replay(league)
    assert league.import_file(tmp_path / "typo.jsonl").added == 0  # the alias is known now

    league.rename_player(real, "Marie Dupont")
    assert league.player("Marie Dupont").standings[0].games > 0
    assert league.player(real).name == "Marie Dupont"  # the old name is an alias
    with pytest.raises(EloleagueError, match="merge"):
        league.rename_player("Marie Dupont", "Anne P039")

    with pytest.raises(InputError) as refused:  # adlg has no graded victories: refused
        league.change_rules("adlg")
    assert refused.value.render("fr").startswith(f"ligue {league.name} sous adlg\u202f: ")
    league.change_rules("bataille-empire-en")
    fixed = [
        {
            **o,
            "sides": [
                {**s, "players": ["Marie Dupont" if p in (real, typo) else p for p in s["players"]]}
                for s in o["sides"]
            ],
        }
        for o in renamed
    ]
    expected = write_lines(tmp_path / "fixed.jsonl", fixed)
    assert ranking_csv(league) == rate_csv(expected, "bataille-empire-en")
    assert_equals_full_replay(league)


def test_merging_two_players_of_one_game_is_refused(db_url: str) -> None:
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(replay_file("adlg"))
    game = league.games()[0]
    a, b = (s.players[0].name for s in game.sides)
    with pytest.raises(EloleagueError, match="played in the same game"):
        league.merge_players(a, b)


def test_season_close_applies_the_inactivity_of_a_finished_season(
    db_url: str, tmp_path: Path
) -> None:
    lines = [o for o in read_lines(replay_file("bataille-empire")) if o["date"] < "2024-01-01"]
    path = write_lines(tmp_path / "to2023.jsonl", lines)
    league = League.create(db_url, "be", "bataille-empire")
    league.import_file(path)
    before = ranking_csv(league)
    with pytest.raises(EloleagueError, match="not the last day of a season"):
        league.close_season(dt.date(2024, 6, 30))
    with pytest.raises(EloleagueError, match=r"has not ended yet \(today is 2024-12-30\)"):
        league.close_season(dt.date(2024, 12, 31), today=dt.date(2024, 12, 30))
    assert ranking_csv(league) == before  # a refused closing changes nothing
    league.close_season(dt.date(2024, 12, 31), today=dt.date(2024, 12, 31))
    after = ranking_csv(league)
    assert after != before
    assert after == rate_csv(path, "bataille-empire", dt.date(2025, 1, 1))
    assert league.ledger()[-1].warning == "inactivity"
    assert_equals_full_replay(league)
    with pytest.raises(EloleagueError, match="already closed"):
        league.close_season(dt.date(2024, 12, 31))


def test_an_event_after_the_others_replays_only_its_own_games(db_url: str, tmp_path: Path) -> None:
    lines = read_lines(replay_file("adlg"))
    last_day = max(o["date"] for o in lines)
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(write_lines(tmp_path / "all.jsonl", lines))
    for n in range(1, 6):  # five events, each dated after everything stored
        event = [
            dict(o, id=f"late{n}-{i}", date=f"2026-0{n}-1{i % 3}", event=f"Late {n}")
            for i, o in enumerate(lines[:7])
        ]
        report = league.import_file(write_lines(tmp_path / f"late{n}.jsonl", event))
        assert (report.added, report.replayed) == (7, 7)
        assert_equals_full_replay(league)
    with league.engine.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(checkpoint_table)).scalar()
    # 60 games apart (this file's CHECKPOINT_EVERY), plus the one after the last game.
    assert stored is not None and stored <= len(lines) // 60 + 2
    assert last_day < "2026-01-01"


def _variant(tmp_path: Path, name: str) -> Path:
    """bataille-empire with monthly batches, or with time decay instead of season penalties."""
    from eloleague.rules import preset_text

    text = preset_text("bataille-empire").replace('name = "bataille-empire"', f'name = "{name}"')
    if name == "monthly":
        text = text.replace('updates = "per_game"', 'updates = "per_period"\nperiod = "month"')
    else:
        start = text.index("[season]")
        text = text[:start] + text[text.index("[[titles]]") :]
        text += "\n[decay]\nidle_days = 60\npoints = 5\nevery_days = 30\ncap_percent = 20\n"
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("variant", ["monthly", "decay"])
def test_batches_by_month_and_time_decay_resume_exactly(variant: str, tmp_path: Path) -> None:
    """Checkpoints (every 60 games here, and after the last game) under the two rule features
    that carry state across games: open monthly batches and idle spells."""
    lines = read_lines(replay_file("bataille-empire"))
    league = League.create(str(tmp_path / "v.db"), variant, _variant(tmp_path, variant))
    cut = len(lines) // 2
    for n, piece in enumerate([lines[:cut], lines[cut : cut + 5], lines[cut + 5 :]]):
        league.import_file(write_lines(tmp_path / f"piece{n}.jsonl", piece))
        assert_equals_full_replay(league)
    late = [
        dict(o, id=f"late{i}", date="2026-03-0" + str(1 + i % 2)) for i, o in enumerate(lines[:6])
    ]
    report = league.import_file(write_lines(tmp_path / "late.jsonl", late))
    assert_equals_full_replay(league)
    # After the last game nothing else is replayed.
    assert report.replayed == 6
    league.delete_game(lines[cut]["id"])
    assert_equals_full_replay(league)
