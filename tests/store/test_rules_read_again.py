"""A write uses the rules as stored when it runs: another process may have changed them since
this one opened the league (docs/league.md, "Live results"; the rules are read with the lock)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import preset_text
from tests.store.helpers import assert_equals_full_replay


def _duel(gid: str, day: dt.date, a: str, b: str) -> GameRecord:
    sides = (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat"))
    return GameRecord(day, sides, id=gid)


def test_a_write_rates_with_the_rules_another_process_changed(db_url: str, tmp_path: Path) -> None:
    day = dt.date(2025, 3, 1)
    here = League.create(db_url, "club", "bataille-empire")
    here.import_games([_duel("g1", day, "Anne", "Bruno")], source="first")
    there = League.open(db_url, "club")  # another process's view of the same league
    higher = tmp_path / "higher-start.toml"
    preset = preset_text("bataille-empire")
    assert "start_rating = 1000\n" in preset
    higher.write_text(preset.replace("start_rating = 1000\n", "start_rating = 1200\n"), "utf-8")
    there.change_rules(higher)

    # Live (appended) and general (back-dated) writes, both from the object that opened first.
    here.import_games([_duel("g2", day + dt.timedelta(days=1), "Anne", "Claire")], source="live")
    here.import_games([_duel("g0", day - dt.timedelta(days=1), "Denis", "Bruno")], source="old")

    assert here.rules_text == there.rules_text
    firsts = {e.key.player: e.before for e in reversed(here.ledger()) if e.game}
    assert firsts["Claire"] == 1200 and firsts["Denis"] == 1200
    assert_equals_full_replay(here)
