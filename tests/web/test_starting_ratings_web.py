"""Starting from published ratings on the site and the API (docs/league.md, "Starting from
published ratings"): an officer creates a league from a rule set and a ratings CSV; its ranking is
the list; each player's history starts with her starting rating and its source, and keeps it
after games, a correction and a full recompute."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from eloleague.league import League
from tests.conftest import run_cli
from tests.store.helpers import ranking_csv, read_lines, replay_file, write_lines
from tests.web.conftest import PASSWORD, Site

LISTING = """player,mode,role,rating,games,title,player_id,club
Jean Dupont,,,1210,40,,FR-1,Lyon
Jean Dupont,,,1130,12,,FR-2,Brest
Alice Martin,,,1050,7,,FR-3,Lyon
"""


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def _login(client: TestClient, name: str) -> str:
    page = client.get("/login").text
    client.post("/login", data={"name": name, "password": PASSWORD, "csrf_token": _csrf(page)})
    return _csrf(client.get("/admin").text)


def test_an_officer_creates_a_league_from_a_published_list(client: TestClient, site: Site) -> None:
    token = _login(client, "Claire")
    assert 'href="/admin/leagues/new"' in client.get("/admin").text
    form = client.get("/admin/leagues/new", headers={"Accept-Language": "fr"})
    assert form.status_code == 200 and "bataille-empire" in form.text
    bad = client.post(
        "/admin/leagues/new",
        data={"csrf_token": token, "name": "Fédé", "rules": "bataille-empire"},
        files={"ratings": ("liste.csv", b"player,rating\nAna,abc\n", "text/csv")},
        headers={"Accept-Language": "fr"},
    )
    assert bad.status_code == 422
    assert "liste.csv" in bad.text and "abc" in bad.text and "Traceback" not in bad.text
    assert "Fédé" not in League.names(site.url)  # nothing stored
    done = client.post(
        "/admin/leagues/new",
        data={"csrf_token": token, "name": "Fédé", "rules": "bataille-empire"},
        files={"ratings": ("liste.csv", ("\ufeff" + LISTING).encode(), "text/csv")},
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text
    league = League.open(site.url, "Fédé")
    assert [(r.player, r.rating) for r in league.ranking()] == [
        ("Jean Dupont (FR-1)", 1210),
        ("Jean Dupont (FR-2)", 1130),
        ("Alice Martin", 1050),
    ]
    assert league.identity("FR-3").club == "Lyon"
    page = client.get("/leagues/Fédé/players/Alice Martin", headers={"Accept-Language": "fr"})
    assert "classement de départ, d’après liste.csv" in page.text
    history = client.get("/api/v1/leagues/Fédé/history/Alice Martin").json()
    (series,) = history["series"]
    assert (series["points"][0]["kind"], series["points"][0]["rating"]) == ("initial", 1050)
    # A referee cannot create a league.
    referee = TestClient(client.app)
    _login(referee, "Rémi")
    assert referee.get("/admin/leagues/new").status_code == 403


def test_the_api_creates_a_league_from_a_published_list(client: TestClient, site: Site) -> None:
    auth = {"Authorization": f"Bearer {site.officer_token}", "Accept-Language": "en"}
    body = {"name": "Fédé API", "rules": "bataille-empire", "initial": LISTING}
    done = client.post("/api/v1/leagues", content=json.dumps(body).encode(), headers=auth)
    assert done.status_code == 201, done.text
    rows = done.json()["rows"]
    assert [(r["player"], r["rating"], r["federation_id"]) for r in rows] == [
        ("Jean Dupont (FR-1)", 1210, "FR-1"),
        ("Jean Dupont (FR-2)", 1130, "FR-2"),
        ("Alice Martin", 1050, "FR-3"),
    ]
    again = client.post("/api/v1/leagues", content=json.dumps(body).encode(), headers=auth)
    assert again.status_code in (400, 409, 422) and "already exists" in again.text
    assert "--league" not in again.text  # the command line's option means nothing here
    referee = {"Authorization": f"Bearer {site.referee_token}"}
    other = {**body, "name": "Autre"}
    refused = client.post("/api/v1/leagues", content=json.dumps(other).encode(), headers=referee)
    assert refused.status_code == 403
    wrong = {**other, "rules": "../../etc/passwd"}
    refused = client.post("/api/v1/leagues", content=json.dumps(wrong).encode(), headers=auth)
    assert refused.status_code in (400, 422) and "presets" in refused.text


def test_starting_ratings_stay_in_the_history(tmp_path: Path) -> None:
    lines = read_lines(replay_file("bataille-empire"))
    first = write_lines(tmp_path / "past.jsonl", lines[:200])
    listing = tmp_path / "classement.csv"
    listing.write_text(run_cli("rate", str(first), "--rules", "bataille-empire").stdout, "utf-8")
    season = write_lines(tmp_path / "season.jsonl", lines[200:260])
    league = League.create(str(tmp_path / "f.db"), "Fédé", "bataille-empire", initial=listing)
    league.import_file(season)
    someone = league.games()[0].participants[0].name
    published = {r["player"]: r for r in _csv_rows(listing.read_text("utf-8"))}

    def start_of(name: str) -> tuple[float, str | None, str]:
        report = league.player(name)
        entry = report.history[0]
        assert entry.game == "" and entry.fired == ("initial",)
        return entry.after, report.starting_source, entry.key.player

    expected = (float(published[someone]["rating"]), "classement.csv", someone)
    assert start_of(someone) == expected
    game = league.games(player=someone)[0]
    assert game.id is not None
    league.correct_game(game.id, game)  # the same game again: a correction that changes nothing
    league.delete_game(league.games()[-1].id or "")
    league.recompute()
    assert start_of(someone) == expected
    assert ranking_csv(league)  # still a ranking


def _csv_rows(text: str) -> list[dict[str, str]]:
    import csv
    import io

    return list(csv.DictReader(io.StringIO(text)))
