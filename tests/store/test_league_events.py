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


def test_a_players_history_climbs_game_by_game_to_the_rating_an_event_ends_on(
    db_url: str,
) -> None:
    """Per-event updates (RULES §3.4): each game's ledger ``after`` is the event's start plus that
    game's delta alone; the history (chart, API, sparkline) shows the running rating, which ends
    each event on the rating the next event starts from, and ends on the rating held now."""
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(replay_file("adlg"))
    checked = 0
    for name in league.players():
        report = league.player(name)
        games = [e for e in report.history if e.game]
        if len({e.before for e in games}) == len(games):
            continue  # one game per event: nothing to add up
        checked += 1
        for e, nxt, rating in zip(report.history, report.history[1:], report.ratings, strict=False):
            if nxt.before != e.before:  # e is the last change of its batch
                assert rating == nxt.before, (name, e.game)
        current = {(s.mode, s.role): s.rating for s in report.standings}
        assert report.ratings[-1] == current[report.history[-1].key.mode, ""]
    assert checked > 5
