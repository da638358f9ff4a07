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


def test_a_title_counts_every_holder_and_shows_the_first_of_the_ranking(tmp_path: Path) -> None:
    """The page lists the ``limit`` best holders of each title and counts them all (the holders
    past the limit are counted, not formatted)."""
    url = str(tmp_path / "club.db")
    league = League.create(url, "Club", "bataille-empire")
    league.import_file(replay_file("bataille-empire"))
    whole = views.titles(league)["titles"]
    crowded = max(whole, key=lambda t: t["count"])
    assert crowded["count"] >= 3
    assert crowded["count"] == len(crowded["holders"])  # under the default limit: all shown
    cut = {t["title"]: t for t in views.titles(league, limit=2)["titles"]}
    for title in whole:
        shown = cut[title["title"]]
        assert shown["count"] == title["count"]
        assert shown["holders"] == title["holders"][:2]
    ranked = [r.player for r in league.ranking() if r.title == crowded["title"]]
    assert [h["player"] for h in cut[crowded["title"]]["holders"]] == ranked[:2]
