"""The league's journal: each change, with who, what and how many games and players' ratings it
changed, written in the change's own transaction (docs/league.md, "The journal")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.errors import EloleagueError, InputError
from eloleague.i18n import render
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.messages import DOMAIN
from tests.store.helpers import read_lines, replay_file, write_lines


def _said(league: League, lang: str = "en") -> list[tuple[str, str | None, str, int, int]]:
    return [
        (e.action, e.user, render(e.text(), lang, DOMAIN), e.games, e.players)
        for e in reversed(league.journal())
    ]


def test_every_change_is_in_the_journal_with_who_and_how_much(db_url: str, tmp_path: Path) -> None:
    lines = [o for o in read_lines(replay_file("bataille-empire")) if o["date"] < "2024-01-01"]
    league = League.create(db_url, "be", "bataille-empire", user="Claire")
    path = write_lines(tmp_path / "games.jsonl", lines)
    league.import_file(path, dry_run=True, user="Claire")  # a dry run changes nothing: no entry
    league.import_file(path, user="Claire")
    league.import_file(path, user="Claire")  # already there: nothing changed, no entry
    with pytest.raises(InputError):  # refused: no entry
        league.import_file(write_lines(tmp_path / "bad.jsonl", [{"date": "nope"}]), user="Rémi")
    first = lines[0]
    a, b = first["sides"][0]["players"][0], first["sides"][1]["players"][0]
    league.delete_game(first["id"], user="Claire")
    league.rename_player(a, a + " bis", user="Rémi")
    league.change_rules("bataille-empire-en", user="Claire")
    adjusted = league.close_season(dt.date(2024, 12, 31), user="Claire")
    league.reopen_season(dt.date(2024, 12, 31), user="Claire")
    with pytest.raises(EloleagueError):
        league.merge_players(a + " bis", a + " bis")  # refused: no entry

    said = _said(league)
    assert [s[0] for s in said] == [
        "create",
        "import",
        "delete",
        "rename",
        "rules",
        "close",
        "reopen",
    ]
    assert said[0][1:3] == ("Claire", "league created with rule set bataille-empire")
    assert said[1][2] == f"games.jsonl: {len(lines)} games added, 0 replaced"
    assert said[1][3] == len(lines) and said[1][4] == len(league.players())
    assert said[2][2:4] == (f"game {first['id']} deleted", 1)
    assert said[2][4] >= 2  # both players of the game, and whoever played them after
    assert said[3][1:5] == ("Rémi", f"{a} renamed {a} bis", 0, 0)
    assert said[4][2] == "rule set bataille-empire replaced by bataille-empire-en"
    assert said[5][4] == len({e.key.player for e in adjusted}) > 0
    assert said[6][2] == "season ending 2024-12-31 reopened"
    assert _said(league, "fr")[5][2] == "saison se terminant le 2024-12-31 close"
    assert b in league.players()


def _duel(gid: str, a: str, b: str, outcome: str = "decisive_victory") -> GameRecord:
    loser = "defeat" if outcome != "draw" else "draw"
    return GameRecord(
        date=dt.date(2026, 11, 2),
        sides=(Side((Participant(a),), outcome), Side((Participant(b),), loser)),
        id=gid,
    )


def test_a_game_servers_posts_are_one_entry_an_hour(db_url: str) -> None:
    """A game server's posts (one user, one source, replacing nothing) within a UTC hour are one
    entry, a run: an officer's other changes are not buried under them (docs/league.md, "The
    journal"). Whatever is not such an import keeps an entry of its own."""
    league = League.create(db_url, "live", "bataille-empire", user="Claire")
    clock = [dt.datetime(2026, 11, 28, 14, 2, 30, tzinfo=dt.UTC)]
    league.now = lambda: clock[0]

    def post(
        *games: GameRecord,
        user: str = "server",
        source: str = "api",
        dry_run: bool = False,
        update: bool = False,
    ) -> None:
        clock[0] += dt.timedelta(minutes=3)
        league.import_games(list(games), source=source, user=user, dry_run=dry_run, update=update)

    post(_duel("g1", "Ana", "Bob"))
    post(_duel("g2", "Ana", "Chloé"), _duel("g3", "Bob", "Dan"))
    post(_duel("g4", "Ana", "Bob"), dry_run=True)  # changes nothing: not in the run
    with pytest.raises(InputError):  # refused: stores nothing, not even in the run
        post(_duel("g5", "Ana", "Ana"))
    post(_duel("g1", "Ana", "Bob"))  # already there: nothing changed
    post(_duel("g6", "Eve", "Bob"), user="other server")  # another user: a run of its own
    post(_duel("g7", "Eve", "Bob"), source="results.jsonl")  # another source
    post(_duel("g1", "Ana", "Bob", "draw"), update=True)  # replaces a game: an entry of its own
    post(_duel("g8", "Chloé", "Dan"))  # the server's run again (this hour's)
    last_of_hour = clock[0]
    clock[0] = dt.datetime(2026, 11, 28, 15, 0, 1, tzinfo=dt.UTC)
    league.import_games([_duel("g9", "Ana", "Dan")], source="api", user="server")  # a new hour

    entries = league.journal()
    assert [(e.action, e.user, e.changes, e.games) for e in entries] == [
        ("import", "server", 1, 1),  # 15:00, the next hour's run
        ("import", "server", 1, 1),  # the replacement
        ("import", "server", 1, 1),  # results.jsonl
        ("import", "other server", 1, 1),
        ("import", "server", 3, 4),  # g1, then g2 and g3, then g8: three imports, four games
        ("create", "Claire", 1, 0),
    ]
    run, alone = entries[4], entries[1]
    first = dt.datetime(2026, 11, 28, 14, 5, 30, tzinfo=dt.UTC)
    assert (run.first_at, run.at) == (first, last_of_hour)
    assert run.detail == {"source": "api", "added": 4, "replaced": 0}
    assert run.players == 2 + 4 + 2  # each import's players, added up
    assert render(run.text(), "en", DOMAIN) == (
        "api: 4 games added, 0 replaced (3 imports since 14:05 UTC)"
    )
    assert render(run.text(), "fr", DOMAIN) == (
        "api\u202f: 4 parties ajoutées, 0 remplacée (3 imports depuis 14:05 UTC)"
    )
    assert alone.detail == {"source": "api", "added": 0, "replaced": 1} and alone.first_at is None
    assert render(alone.text(), "en", DOMAIN) == "api: 0 games added, 1 replaced"
    assert entries[0].first_at is None and entries[0].at.hour == 15
