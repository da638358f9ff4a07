"""Player identity on the site and the API (docs/league.md, "Player identity"): two "Jean
Dupont" with different ids posted in one request are two players in one ranking and one API
answer; the ranking's club and region filters; the player page shows the id, club and region."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.web.conftest import BE, Site


def _posted(client: TestClient, site: Site) -> None:
    def jean(fid: str, club: str, region: str) -> dict[str, str]:
        return {"name": "Jean Dupont", "id": fid, "club": club, "region": region}

    games = [
        {
            "id": "jd1",
            "date": "2026-01-05",
            "sides": [
                {
                    "players": [jean("FR-71", "Cercle de Lyon", "Rhône")],
                    "outcome": "decisive_victory",
                },
                {"players": [jean("FR-72", "Brest Wargame", "Bretagne")], "outcome": "defeat"},
            ],
        }
    ]
    done = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(games).encode(),
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert done.status_code == 201, done.text


def test_two_namesakes_in_one_api_answer(client: TestClient, site: Site) -> None:
    _posted(client, site)
    got = client.get(f"/api/v1/leagues/{BE}/ranking", params={"q": "jean dupont"})
    assert got.status_code == 200, got.text
    rows = {r["player"]: r for r in got.json()["rows"]}
    assert set(rows) == {"Jean Dupont (FR-71)", "Jean Dupont (FR-72)"}
    assert rows["Jean Dupont (FR-71)"]["federation_id"] == "FR-71"
    assert rows["Jean Dupont (FR-72)"]["club"] == "Brest Wargame"
    assert rows["Jean Dupont (FR-71)"]["rating"] > rows["Jean Dupont (FR-72)"]["rating"]
    # The club filter: one row, ranked first among the club's players.
    got = client.get(f"/api/v1/leagues/{BE}/ranking", params={"club": "brest wargame"})
    body = got.json()
    assert body["filters"]["club"] == "brest wargame"
    assert [(r["rank"], r["player"]) for r in body["rows"]] == [(1, "Jean Dupont (FR-72)")]
    # The player's answer carries her identity.
    got = client.get(f"/api/v1/leagues/{BE}/players/Jean Dupont (FR-71)")
    assert got.status_code == 200, got.text
    assert (got.json()["federation_id"], got.json()["region"]) == ("FR-71", "Rhône")
    # The plain name says neither: a 404 naming both, not an error page.
    got = client.get(f"/api/v1/leagues/{BE}/players/Jean Dupont")
    assert got.status_code == 404
    assert "Jean Dupont (FR-72)" in got.text


def test_ranking_page_filters_and_player_page(client: TestClient, site: Site) -> None:
    _posted(client, site)
    page = client.get(f"/leagues/{BE}", params={"region": "Bretagne"})
    assert page.status_code == 200
    assert '<option value="Bretagne" selected>' in page.text
    assert "Jean Dupont (FR-72)" in page.text and "Jean Dupont (FR-71)" not in page.text
    page = client.get(
        f"/leagues/{BE}/players/Jean Dupont (FR-71)", headers={"Accept-Language": "fr"}
    )
    assert page.status_code == 200
    assert (
        "identifiant\u202f: FR-71 · club\u202f: Cercle de Lyon · région\u202f: Rhône" in page.text
    )
