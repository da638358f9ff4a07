"""A League object kept by a server answers the ranking from what it computed while the league is
unchanged, and never after a write, wherever the write came from (another League object, as
another process or the command line would be): the league's revision (docs/web.md, "Several
workers")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from eloleague.league import League
from eloleague.store import db as store_db
from eloleague.store.ranking import RankingFilter
from eloleague.store.revisions import revision_of
from tests.store.helpers import replay_file, write_lines

EVERYONE = RankingFilter()  # no filter: the whole ranking


def _page(league: League, wanted: RankingFilter = EVERYONE) -> list[tuple[int, str, float, int]]:
    found = league.ranking_page(wanted, 1, 500)
    return [(r.rank, r.player, r.rating, r.games) for r in found.rows]


def _revision(league: League) -> int:
    with store_db.read(league.engine) as conn:
        return revision_of(conn, league.id)


def _game(n: int, winner: str, loser: str, day: str) -> dict[str, object]:
    return {
        "id": f"kept-{n}",
        "date": day,
        "sides": [
            {"players": [winner], "outcome": "overwhelming_victory"},
            {"players": [loser], "outcome": "defeat"},
        ],
    }


def test_every_write_elsewhere_renews_the_kept_ranking(db_url: str, tmp_path: Path) -> None:
    League.create(db_url, "Club", "bataille-empire")
    kept = League.open(db_url, "Club")  # the server's object
    writer = League.open(db_url, "Club")  # the command line's, or another worker's
    writer.import_file(replay_file("bataille-empire"))
    first = _page(kept)
    assert first == _page(League.open(db_url, "Club"))
    assert _page(kept) is not None and _page(kept) == first

    before = _revision(kept)
    writer.import_file(
        write_lines(tmp_path / "one.jsonl", [_game(1, "Zoé Neuve", "Yann Neuf", "2026-01-02")]),
        dry_run=True,
    )
    assert _revision(kept) == before  # a dry run writes nothing
    assert _page(kept) == first

    steps: list[Callable[[], object]] = [
        lambda: writer.import_file(
            write_lines(tmp_path / "a.jsonl", [_game(2, "Zoé Neuve", "Yann Neuf", "2026-01-03")])
        ),
        lambda: writer.rename_player("Zoé Neuve", "Zoé Nouvelle"),
        lambda: writer.delete_game("kept-2"),
        lambda: writer.close_season(dt.date(2026, 12, 31), today=dt.date(2027, 1, 1)),
    ]
    for step in steps:
        seen = _revision(kept)
        step()
        assert _revision(kept) != seen
        fresh = _page(League.open(db_url, "Club"))
        assert _page(kept) == fresh
    # The filters are questions of their own: a search is not answered with the whole ranking.
    assert _page(kept, RankingFilter(search="zoe")) != _page(kept)
