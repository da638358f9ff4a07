"""Texts no league can hold (a NUL, a control character, 5,000 letters) in a query or a path:
the API answers 422 (query) or 404 (path), the pages ignore the bad value; never a 500, on SQLite
and on PostgreSQL (which refuses a NUL in text outright)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app
from tests.conftest import REPLAY
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)
from tests.web.conftest import BE

EN = {"Accept-Language": "en"}
BAD = ["\u0000", "a\u0000b", "\u001b[31m", "x" * 5000]


def _check(client: TestClient, league: str) -> None:
    base = f"/leagues/{quote(league)}"
    plain = client.get(f"/api/v1{base}").json()["rows"]
    for value in BAD:
        for name in ("q", "mode", "role"):
            api = client.get(f"/api/v1{base}", params={name: value}, headers=EN)
            assert api.status_code == 422, (name, value, api.text)
            (problem,) = api.json()["error"]["problems"]
            assert problem["location"] == f"query parameter {name}"
            assert "control characters" in problem["message"]
            page = client.get(
                base, params={name: value, "role": "*"} if name != "role" else {name: value}
            )
            assert page.status_code in (200, 307), (name, value, page.status_code)
        page = client.get(base, params={"q": value})
        assert page.status_code == 200 and "Traceback" not in page.text
        for path in ("games", "players", "events"):
            api = client.get(f"/api/v1{base}/{path}/{quote(value)}")
            assert api.status_code == 404, (path, value, api.status_code)
            page = client.get(f"{base}/{path}/{quote(value)}")
            assert page.status_code == 404, (path, value, page.status_code)
    french = client.get(f"/api/v1{base}", params={"q": "\u0000"}, headers={"Accept-Language": "fr"})
    assert "sans caractère de contrôle" in french.json()["error"]["problems"][0]["message"]
    assert client.get(f"/api/v1{base}").json()["rows"] == plain  # nothing changed


def test_control_characters_in_queries_and_paths_on_sqlite(read_client: TestClient) -> None:
    _check(read_client, BE)


@pytest.mark.pg
def test_control_characters_in_queries_and_paths_on_postgresql(
    pg_server: PgServer,  # noqa: F811
) -> None:
    url = pg_server.new_database()
    League.create(url, BE, "bataille-empire").import_file(REPLAY / "bataille-empire.jsonl")
    client = TestClient(create_app(Settings(db=url, secret="pg-" + "s" * 40)))
    _check(client, BE)
