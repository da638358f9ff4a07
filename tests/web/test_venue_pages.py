"""A league with a home advantage on the site: the game page shows the venue and the scores, the
rules page says the rule, the API gives the game's venue (docs/rule-sets.md)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app

RULES = Path(__file__).parent.parent / "data" / "rules" / "world-football.toml"
GAMES = [
    {"id": "opener", "date": "2024-03-01", "mode": "world-cup", "home": 0,
     "sides": [{"players": ["Brazil"], "outcome": "win", "score": 3},
               {"players": ["Croatia"], "outcome": "loss", "score": 1}]},
    {"id": "neutral", "date": "2024-03-05", "mode": "friendly", "neutral": True,
     "sides": [{"players": ["Brazil"], "outcome": "draw", "score": 0},
               {"players": ["Croatia"], "outcome": "draw", "score": 0}]},
]  # fmt: skip


def client(tmp_path: Path) -> TestClient:
    db = tmp_path / "wf.db"
    source = tmp_path / "games.jsonl"
    source.write_text("\n".join(json.dumps(g) for g in GAMES) + "\n", "utf-8")
    League.create(str(db), "WF", str(RULES)).import_file(source)
    app = create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32))
    return TestClient(app, raise_server_exceptions=False)


def test_game_pages_show_the_venue_and_scores(tmp_path: Path) -> None:
    web = client(tmp_path)
    page = web.get("/leagues/WF/games/opener", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "(3) · à domicile" in page.text and "(1)</li>" in page.text.replace("\n", "")
    neutral = web.get("/leagues/WF/games/neutral", headers={"Accept-Language": "en"})
    assert "neutral site" in neutral.text and "at home" not in neutral.text


def test_rules_page_says_the_home_advantage(tmp_path: Path) -> None:
    web = client(tmp_path)
    page = web.get("/leagues/WF/rules", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "Le camp qui reçoit compte 100 points" in page.text
    assert "K = 60 dans les parties du mode world-cup" in page.text


def test_the_api_gives_the_venue_and_the_advantage_used(tmp_path: Path) -> None:
    web = client(tmp_path)
    body = web.get("/api/v1/leagues/WF/games/opener").json()
    assert (body["game"]["home"], body["game"]["neutral"]) == (0, False)
    by_player = {e["player"]: e for e in body["entries"]}
    assert by_player["Brazil"]["home_advantage"] == 100
    assert by_player["Croatia"]["home_advantage"] == -100
    assert by_player["Brazil"]["k_multiplier"] == 1.5
    assert web.get("/api/v1/leagues/WF/games/neutral").json()["game"]["neutral"] is True


def test_a_reversion_reads_in_french_on_the_player_page(tmp_path: Path) -> None:
    db = tmp_path / "nfl.db"
    source = tmp_path / "games.jsonl"
    games = [
        {"date": "2016-10-01", "home": 0,
         "sides": [{"players": ["NE"], "outcome": "win", "score": 27},
                   {"players": ["NYJ"], "outcome": "loss", "score": 3}]},
        {"date": "2017-09-10", "home": 1,
         "sides": [{"players": ["NE"], "outcome": "loss", "score": 27},
                   {"players": ["NYJ"], "outcome": "win", "score": 42}]},
    ]  # fmt: skip
    source.write_text("\n".join(json.dumps(g) for g in games) + "\n", "utf-8")
    rules = Path(__file__).parent.parent / "data" / "rules" / "538-nfl.toml"
    League.create(str(db), "NFL", str(rules)).import_file(source)
    web = TestClient(create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32)))
    page = web.get("/leagues/NFL/players/NE", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "retour vers la moyenne" in page.text
