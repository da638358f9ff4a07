"""Heavy requests in the helper process (docs/web.md, "Heavy requests"): the same answers as
in-process, the user's errors crossing back located and translated, and a request past the
time bound stopped with a 503 that stores nothing, the helper started afresh for the next one."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app
from tests.web.conftest import BE, Site, app_of, make_client
from tests.web.test_heavy_requests import GAME, _big_body
from tests.web.test_writes import _csrf, _login


def _helped(site: Site, **settings: Any) -> Iterator[TestClient]:  # more of Settings' fields
    app = create_app(Settings(db=str(site.db), secret="o" * 40, helper_process=True, **settings))
    with TestClient(app, raise_server_exceptions=False) as client:  # the lifespan: helper up
        yield client


@pytest.fixture
def helped(site: Site) -> Iterator[TestClient]:
    yield from _helped(site)


def _preview(client: TestClient, site: Site, body: bytes, lang: str = "en") -> httpx2.Response:
    return client.post(
        f"/api/v1/leagues/{BE}/games/preview",
        content=body,
        headers={"Authorization": f"Bearer {site.officer_token}", "Accept-Language": lang},
    )


def test_the_helper_gives_the_in_process_answers(helped: TestClient, site: Site) -> None:
    helper = app_of(helped).state.offload._process
    assert helper is not None and helper.is_alive() and helper.pid != os.getpid()
    body = json.dumps(GAME).encode()
    there = _preview(helped, site, body)
    here = _preview(make_client(site), site, body)
    assert there.status_code == here.status_code == 200
    assert there.json() == here.json()
    assert set(there.json()["new_players"]) == {"Nom Un", "Nom Deux"}


def test_errors_cross_back_located_and_translated(helped: TestClient, site: Site) -> None:
    bad = b'{"id": "x", "date": "2026-13-01", "sides": []}\nnot json\n'
    there = _preview(helped, site, bad, lang="fr")
    here = _preview(make_client(site), site, bad, lang="fr")
    assert there.status_code == here.status_code == 422
    assert there.json() == here.json()
    locations = [p["location"] for p in there.json()["error"]["problems"]]
    assert any("ligne 2" in where for where in locations), locations
    # The upload page: a workbook that is no workbook, refused in words on the page.
    _login(helped)
    token = _csrf(helped.get(f"/leagues/{BE}/upload").text)
    got = helped.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("feuille.xlsx", b"PK\x03\x04 not a zip", "application/octet-stream")},
        headers={"Accept-Language": "fr"},
    )
    assert got.status_code == 422
    assert "feuille.xlsx" in got.text and "Traceback" not in got.text


def test_a_request_past_the_bound_is_stopped_and_stores_nothing(site: Site) -> None:
    """A 2 MB sheet whose check takes seconds, with a bound of half a second: stopped, a 503
    in words, the upload not held for review; the next request gets a new helper."""
    for client in _helped(site, request_seconds=0.5):
        _login(client)
        token = _csrf(client.get(f"/leagues/{BE}/upload").text)
        slow = client.post(
            f"/leagues/{BE}/upload",
            data={"csrf_token": token},
            files={"sheet": ("big.jsonl", _big_body(2_000_000), "text/plain")},
            headers={"Accept-Language": "en"},
        )
        assert slow.status_code == 503, slow.text
        assert slow.headers["Retry-After"] == "60"
        assert "took more than 0.5 s and was stopped; nothing was stored" in slow.text
        assert League.open(str(site.db), BE).pending_uploads() == []
        first = app_of(client).state.offload._process
        assert first is None  # killed
        fine = _preview(client, site, json.dumps(GAME).encode())
        assert fine.status_code == 200
        assert app_of(client).state.offload._process.is_alive()
