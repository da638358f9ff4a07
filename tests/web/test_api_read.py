"""The JSON API's reads: the ranking equals `eloleague ranking --format csv`, the other pages'
twins carry the explanation numbers, and every error has the one shape."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import run_cli
from tests.web.conftest import BE, DIPLO, Site


def _all_rows(client: TestClient, league: str, **params: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    page = 1
    while True:
        got = client.get(
            f"/api/v1/leagues/{league}/ranking",
            params={**params, "page": str(page), "per_page": "100"},
        )
        assert got.status_code == 200, got.text
        body = got.json()
        rows += body["rows"]
        if page >= body["pages"]:
            assert len(rows) == body["total"]
            return rows
        page += 1


@pytest.mark.parametrize(
    ("league", "pool"),
    [
        (BE, {}),
        (BE, {"role": "*"}),  # no roles: every row, in the CLI as on the site
        (DIPLO, {}),
        (DIPLO, {"role": "*"}),
        (DIPLO, {"mode": "blitz"}),
        (DIPLO, {"role": "France"}),
    ],
)
def test_api_ranking_equals_the_cli_csv(
    read_client: TestClient, built_site: Site, league: str, pool: dict[str, str]
) -> None:
    args = [f"--{k}={v}" for k, v in pool.items()]
    done = run_cli(
        "ranking", "--db", str(built_site.db), "--league", league, "--format", "csv", *args
    )
    assert done.returncode == 0, done.stderr
    expected = list(csv.DictReader(io.StringIO(done.stdout)))
    got = _all_rows(read_client, league, **pool)
    assert len(got) == len(expected) > 10
    for row, want in zip(got, expected, strict=True):
        assert (row["player"], row["mode"], row["role"], row["games"], row["title"]) == (
            want["player"],
            want["mode"],
            want["role"],
            int(want["games"]),
            want["title"],
        )
        assert isinstance(row["rating"], int | float)
        assert row["rating"] == pytest.approx(float(want["rating"]), abs=1e-9)
        if league == BE:  # a rounded rule set: whole numbers, exactly
            assert row["rating"] == int(want["rating"]) and isinstance(row["rating"], int)


def test_ranking_search_pagination_and_active_filter(read_client: TestClient) -> None:
    first = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "5"}).json()
    second = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "5", "page": "2"}).json()
    rows = first["rows"] + second["rows"]
    # standard competition ranks: a tie shares the rank, the next one skips (1, 2, 2, 4)
    want = [1]
    for n in range(1, 10):
        want.append(want[-1] if rows[n]["rating"] == rows[n - 1]["rating"] else n + 1)
    assert [r["rank"] for r in rows] == want
    assert len(set(want)) < 10  # the sample has a tie within its first ten rows
    assert {r["player"] for r in first["rows"]}.isdisjoint(r["player"] for r in second["rows"])
    name = second["rows"][0]["player"]
    found = read_client.get(f"/api/v1/leagues/{BE}", params={"q": name[:6]}).json()
    assert name in [r["player"] for r in found["rows"]]
    assert all(name[:6].lower() in r["player"].lower() for r in found["rows"])
    everyone = first["total"]
    since = first["trend_since"]  # the last event: not everyone played in it
    active = read_client.get(f"/api/v1/leagues/{BE}", params={"active_since": since}).json()
    assert 0 < active["total"] < everyone
    assert first["trend_since"] is not None
    assert any(r["trend"] for r in first["rows"] + second["rows"])


def test_api_query_mistakes_are_422_with_every_problem(read_client: TestClient) -> None:
    """Pages fall back to defaults; a program gets told (a typo must not be a silent filter)."""
    got = read_client.get(
        f"/api/v1/leagues/{BE}",
        params={"active_since": "notadate", "page": "abc", "per_page": "0"},
        headers={"Accept-Language": "en"},
    )
    assert got.status_code == 422 and got.json()["error"]["code"] == "invalid_request"
    problems = {p["location"]: p["message"] for p in got.json()["error"]["problems"]}
    assert problems == {
        "query parameter active_since": "'notadate' is not a date (expected YYYY-MM-DD)",
        "query parameter page": "'abc' is not a whole number",
        "query parameter per_page": "expected 1 or more",
    }
    events = read_client.get(f"/api/v1/leagues/{BE}/events", params={"page": "x"})
    assert events.status_code == 422
    page = read_client.get(f"/leagues/{BE}", params={"active_since": "notadate", "page": "abc"})
    assert page.status_code == 200  # the page shows the default view
    big = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "100000"}).json()
    assert big["per_page"] < 100000  # past the most a page holds: that most


def test_player_history_and_explanation(read_client: TestClient) -> None:
    top = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    player = read_client.get(f"/api/v1/leagues/{BE}/players/{top['player']}").json()
    assert player["player"] == top["player"]
    assert player["pools"][0]["rating"] == top["rating"]
    assert player["title"] == top["title"]
    game = next(c for c in player["changes"] if not c["season"])
    for key in ("before", "expected", "k", "score", "delta", "after", "fired"):
        assert key in game
    assert 0 < game["expected"] < 1 and game["k"] in (30, 60)
    history = read_client.get(f"/api/v1/leagues/{BE}/history/{top['player']}").json()
    points = history["series"][0]["points"]
    assert points[-1]["rating"] == top["rating"]
    assert len(points) == len(player["changes"])
    explained = read_client.get(f"/api/v1/leagues/{BE}/games/{game['game']}").json()
    mine = [e for e in explained["entries"] if e["player"] == top["player"]]
    assert mine and mine[0]["delta"] == game["delta"] and mine[0]["k"] == game["k"]


def test_a_player_s_newest_changes_only(read_client: TestClient) -> None:
    """``?recent=N``: a game showing a player's profile after each match asks for a few changes;
    ``changes_total`` still counts them all. A count that is not a whole number from 1 is a 422,
    located."""
    top = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    url = f"/api/v1/leagues/{BE}/players/{top['player']}"
    every = read_client.get(url).json()
    newest = read_client.get(url, params={"recent": "3"}).json()
    assert len(every["changes"]) == every["changes_total"] > 3
    assert newest["changes"] == every["changes"][:3]
    assert newest["changes_total"] == every["changes_total"]
    assert {k: v for k, v in newest.items() if k != "changes"} == {
        k: v for k, v in every.items() if k != "changes"
    }
    for bad in ("0", "-2", "3.5", "", "trois"):
        got = read_client.get(url, params={"recent": bad})
        assert got.status_code == 422, (bad, got.text)
        assert [p["location"] for p in got.json()["error"]["problems"]] == ["paramètre recent"]


def test_season_adjustments_are_in_the_history(read_client: TestClient) -> None:
    rows = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "100"}).json()["rows"]
    seasons = 0
    for r in rows[:15]:
        h = read_client.get(f"/api/v1/leagues/{BE}/history/{r['player']}").json()
        seasons += sum(p["season"] for s in h["series"] for p in s["points"])
    assert seasons > 0


def test_event_rules_titles(read_client: TestClient) -> None:
    listed = read_client.get(f"/api/v1/leagues/{BE}/events").json()
    events = listed["events"]
    assert events and listed["total"] == len(events) > 2
    assert events[0]["first"] >= events[-1]["first"]  # newest first
    paged = read_client.get(f"/api/v1/leagues/{BE}/events", params={"per_page": 2, "page": 2})
    assert paged.json()["events"] == events[2:4] and paged.json()["pages"] > 1
    event = read_client.get(f"/api/v1/leagues/{BE}/events/{events[0]['name']}").json()
    assert event["games"] and event["players"]
    assert any(g["entries"] for g in event["games"])
    rules = read_client.get(f"/api/v1/leagues/{BE}/rules", params={"lang": "en"}).json()
    assert any("K = 30 for fewer than 8 games" in s for s in rules["rules"]["k"])
    assert rules["rules"]["titles"][0]["title"] == "Maréchal d'Empire"
    french = read_client.get(f"/api/v1/leagues/{BE}/rules", params={"lang": "fr"}).json()
    assert any("K = 30 pour moins de 8 parties" in s for s in french["rules"]["k"])
    titles = read_client.get(f"/api/v1/leagues/{BE}/titles").json()["titles"]
    ranking = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()
    assert sum(t["count"] for t in titles) == ranking["total"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/leagues/Nowhere",
        f"/api/v1/leagues/{BE}/players/Nobody At All",
        f"/api/v1/leagues/{BE}/games/no-such-game",
        f"/api/v1/leagues/{BE}/events/No Such Event",
        "/api/v1/nothing-here",
    ],
)
def test_not_found_has_the_error_shape(read_client: TestClient, path: str) -> None:
    got = read_client.get(path)
    assert got.status_code == 404
    body = got.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "not_found"
    assert body["error"]["message"]
    assert body["error"]["problems"] == []


def test_openapi_documents_the_api(read_client: TestClient) -> None:
    spec = read_client.get("/api/v1/openapi.json").json()
    paths = spec["paths"]
    assert "/api/v1/leagues/{league}/ranking" in paths
    assert "post" in paths["/api/v1/leagues/{league}/games"]
    assert "post" in paths["/api/v1/leagues/{league}/games/preview"]
    ranking = paths["/api/v1/leagues/{league}/ranking"]["get"]
    named = {p["name"]: p for p in ranking["parameters"]}
    assert {"league", "mode", "role", "q", "active_since", "page", "per_page"} <= set(named)
    assert named["active_since"]["schema"]["format"] == "date"
    post = paths["/api/v1/leagues/{league}/games"]["post"]
    assert [p["name"] for p in post["parameters"] if p["in"] == "query"] == ["update"]
    assert "requestBody" in post and post["security"] == [{"HTTPBearer": []}]
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert "security" not in ranking  # reads are public
    docs = read_client.get("/api/v1/docs")
    assert docs.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert len(assets) >= 3 and all(a.startswith("/static/") for a in assets), assets
    for asset in assets:  # vendored: served by the site itself
        assert read_client.get(asset).status_code == 200, asset


def test_answers_vary_with_the_language_and_the_session(read_client: TestClient) -> None:
    for path in (f"/leagues/{BE}", f"/api/v1/leagues/{BE}"):
        vary = read_client.get(path).headers.get("vary", "")
        assert "Accept-Language" in vary and "Cookie" in vary, (path, vary)
