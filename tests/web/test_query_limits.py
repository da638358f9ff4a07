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
from tests.web.conftest import BE, PASSWORD
from tests.web.test_writes import _csrf

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
    for value in BAD:  # a league of that name: none
        assert client.get(f"/api/v1/leagues/{quote(value)}").status_code == 404
        assert client.get(f"/leagues/{quote(value)}").status_code == 404
    for value in BAD:  # signing in with such a name: refused like any unknown name
        token = _csrf(client.get("/login").text)
        got = client.post(
            "/login",
            data={"name": value, "password": PASSWORD, "csrf_token": token},
            follow_redirects=False,
        )
        assert got.status_code in (200, 400, 401, 422, 429), (value[:10], got.status_code)


def test_control_characters_in_queries_and_paths_on_sqlite(client: TestClient) -> None:
    _check(client, BE)  # a private copy: the wrong sign-ins are written down


@pytest.mark.pg
def test_control_characters_in_queries_and_paths_on_postgresql(
    pg_server: PgServer,  # noqa: F811
) -> None:
    url = pg_server.new_database()
    League.create(url, BE, "bataille-empire").import_file(REPLAY / "bataille-empire.jsonl")
    client = TestClient(create_app(Settings(db=url, secret="pg-" + "s" * 40)))
    _check(client, BE)


@pytest.mark.pg
def test_account_names_no_database_holds_find_no_account_on_postgresql(
    pg_server: PgServer,  # noqa: F811
) -> None:
    from eloleague import accounts
    from eloleague.errors import EloleagueError
    from eloleague.league import engine_for

    url = pg_server.new_database()
    League.create(url, BE, "bataille-empire")
    engine = engine_for(url)
    accounts.add_user(engine, "Claire", PASSWORD, "officer")
    for value in BAD:
        assert accounts.find_user(engine, value) is None
        assert accounts.authenticate(engine, value, PASSWORD) is None
        with pytest.raises(EloleagueError, match="no control character"):
            accounts.add_user(engine, value, PASSWORD, "referee")
        with pytest.raises(EloleagueError, match="no user"):
            accounts.set_password(engine, value, PASSWORD)
    assert accounts.authenticate(engine, "Claire", PASSWORD) is not None
