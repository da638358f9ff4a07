"""Real HTTP against a real Uvicorn server on loopback: pages, API, a write with a token."""

from __future__ import annotations

import json

import httpx

from tests.web.conftest import BE, LiveServer, Site


def test_real_server_serves_pages_api_and_static(live: LiveServer) -> None:
    with httpx.Client(base_url=live.base, timeout=10) as http:
        home = http.get("/", follow_redirects=False)
        assert home.status_code == 200 and "Bataille Empire" in home.text
        page = http.get(f"/leagues/{BE}", headers={"Accept-Language": "en"})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        css = http.get("/static/style.css")
        assert css.status_code == 200 and "text/css" in css.headers["content-type"]
        api = http.get(f"/api/v1/leagues/{BE}/ranking", params={"per_page": 3})
        assert api.headers["content-type"] == "application/json"
        assert [r["rank"] for r in api.json()["rows"]] == [1, 2, 3]
        missing = http.get("/api/v1/leagues/nope")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_real_server_write_needs_a_token(live: LiveServer, site: Site) -> None:
    game = {
        "id": "live-1",
        "date": "2026-03-01",
        "sides": [
            {"players": ["Live One"], "outcome": "draw"},
            {"players": ["Live Two"], "outcome": "draw"},
        ],
    }
    with httpx.Client(base_url=live.base, timeout=10) as http:
        refused = http.post(f"/api/v1/leagues/{BE}/games", content=json.dumps(game))
        assert refused.status_code == 401
        posted = http.post(
            f"/api/v1/leagues/{BE}/games",
            content=json.dumps(game),
            headers={"Authorization": f"Bearer {site.officer_token}"},
        )
        assert posted.status_code == 201, posted.text
        found = http.get(f"/api/v1/leagues/{BE}", params={"q": "Live"}).json()
        assert {r["player"] for r in found["rows"]} == {"Live One", "Live Two"}


def test_serve_says_clearly_when_the_port_is_taken(live: LiveServer, site: Site) -> None:
    from tests.conftest import run_cli

    done = run_cli("serve", "--db", str(site.db), "--port", str(live.port))
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{live.port}" in done.stderr
    assert "Traceback" not in done.stderr
    french = run_cli("serve", "--db", str(site.db), "--port", str(live.port), "--lang", "fr")
    assert french.returncode == 2
    assert f"impossible d’écouter sur 127.0.0.1:{live.port}\u202f: " in french.stderr
    assert "choisissez un autre --port" in french.stderr
    other = run_cli("serve", "--db", str(site.db), "--port", str(live.port), "--lang", "de")
    assert other.returncode == 2 and "'de': choose fr or en" in other.stderr  # not English quietly
