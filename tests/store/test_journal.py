"""The league's journal: each change, with who, what and how many games and players' ratings it
changed, written in the change's own transaction (docs/league.md, "The journal")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.errors import EloleagueError, InputError
from eloleague.i18n import render
from eloleague.league import League
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
