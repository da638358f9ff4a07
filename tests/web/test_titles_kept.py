"""Who holds which title is read from the whole ranking, so a server keeps the answer while the
league is unchanged (League.kept, its revision) and computes it again after any write, from
whatever process."""

from __future__ import annotations

from pathlib import Path

from eloleague.league import League
from eloleague.web import views
from tests.store.helpers import replay_file, write_lines


def test_the_titles_are_kept_until_the_league_changes(tmp_path: Path) -> None:
    url = str(tmp_path / "club.db")
    League.create(url, "Club", "bataille-empire")
    kept = League.open(url, "Club")  # the server's object
    writer = League.open(url, "Club")  # the command line's, or another worker's
    writer.import_file(replay_file("bataille-empire"))
    first = views.titles(kept)
    assert views.titles(kept) is first  # kept: not read again
    holder = next(h["player"] for t in first["titles"] for h in t["holders"])
    game = {
        "id": "kept-title",
        "date": "2026-01-02",
        "sides": [
            {"players": [holder], "outcome": "defeat"},
            {"players": ["Zoé Neuve"], "outcome": "overwhelming_victory"},
        ],
    }
    writer.import_file(write_lines(tmp_path / "one.jsonl", [game]))
    after = views.titles(kept)
    assert after != first
    assert after == views.titles(League.open(url, "Club"))  # what a fresh process reads
