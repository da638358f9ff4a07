"""Several players' current ratings in one request (``GET /api/v1/leagues/{league}/ratings``,
docs/web.md): what a game shows in a lobby or weighs to pair players. Each player's pools are
those of her own page, read for the players named alone; names that are no rated player's are
listed apart; the query is checked as every query of the API is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app

URL = "/api/v1/leagues/Arène/ratings"
GAMES = [
    {"id": f"g{n}", "date": f"2026-03-{1 + n:02}",
     "sides": [{"players": [a], "outcome": "3-1"}, {"players": [b], "outcome": "1-3"}]}
    for n, (a, b) in enumerate([("Ana", "Ben"), ("Ben", "Chloé"), ("Chloé", "Ana"), ("Dan", "Ana")])
]  # fmt: skip


@pytest.fixture
def arena(tmp_path: Path) -> tuple[TestClient, League]:
    db = tmp_path / "arena.db"
    league = League.create(str(db), "Arène", "card-battle")
    source = tmp_path / "games.jsonl"
    source.write_text("".join(json.dumps(g) + "\n" for g in GAMES), "utf-8")
    league.import_file(source)
    league.rename_player("Ben", "Benoît")
    app = create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32))
    return TestClient(app, raise_server_exceptions=False), league


def _asked(client: TestClient, *names: str, lang: str = "en") -> Any:
    return client.get(URL, params=[("player", n) for n in names], headers={"Accept-Language": lang})


def test_the_players_ratings_are_those_of_their_pages(
    arena: tuple[TestClient, League], monkeypatch: pytest.MonkeyPatch
) -> None:
    web, league = arena

    def every_pool(self: League) -> None:
        raise AssertionError("the whole league's pools were read")

    pages = {n: web.get(f"/api/v1/leagues/Arène/players/{n}").json() for n in ("Chloé", "Benoît")}
    monkeypatch.setattr(League, "current_pools", every_pool)
    got = _asked(web, "Chloé", " Ben ", "Zoé", "Benoît")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["league"] == "Arène" and body["as_of"] == "2026-03-04"
    assert body["start_rating"] == league.rules.start_rating
    # as asked: an alias gives the player once, under her name; the unknown apart
    assert [(p["player"], p["asked"]) for p in body["players"]] == [
        ("Chloé", "Chloé"),
        ("Benoît", "Ben"),
    ]
    assert body["unknown"] == ["Zoé"]
    for found in body["players"]:
        page = pages[found["player"]]["pools"]
        assert found["pools"] == [
            {k: v for k, v in pool.items() if k not in ("rank", "of")} for pool in page
        ]
        assert all(p["games"] > 0 for p in found["pools"])


def test_the_query_is_checked(arena: tuple[TestClient, League]) -> None:
    web, _ = arena
    for names, words in (
        ((), "give at least one"),
        (("",), "expected a name, not an empty text"),
        (("Ana\x00",), "without control characters"),
        (("Ana",) * 101, "at most 100 in one request"),
    ):
        got = _asked(web, *names)
        assert got.status_code == 422, (names, got.text)
        (problem,) = got.json()["error"]["problems"]
        assert problem["location"] == "query parameter player" and words in problem["message"]
    french = _asked(web, lang="fr").json()["error"]["problems"][0]
    assert french == {"location": "paramètre player", "message": "en donner au moins un"}
    assert web.get("/api/v1/leagues/Nulle/ratings", params={"player": "Ana"}).status_code == 404
    assert _asked(web, *["Ana"] * 100).json()["players"][0]["player"] == "Ana"
