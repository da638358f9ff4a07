"""The events of a league, listed whole or a page at a time (the web site's events page)."""

from __future__ import annotations

from collections import defaultdict

from eloleague.league import League
from tests.store.helpers import read_lines, replay_file


def test_events_pages_are_slices_of_the_whole_list(db_url: str) -> None:
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(replay_file("adlg"))
    every = league.events()
    lines = read_lines(replay_file("adlg"))
    games: dict[str, int] = defaultdict(int)
    players: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        if line.get("event"):
            games[line["event"]] += 1
            for side in line["sides"]:
                players[line["event"]].update(side["players"])
    assert {e.name: (e.games, e.players) for e in every} == {
        name: (games[name], len(players[name])) for name in games
    }
    assert [e.first for e in every] == sorted(e.first for e in every)
    assert league.event_count() == len(every) > 7
    newest = list(reversed(every))
    assert league.events(newest_first=True, limit=3) == newest[:3]
    assert league.events(newest_first=True, limit=3, offset=3) == newest[3:6]
    assert league.events(limit=2, offset=len(every) - 1) == every[-1:]
