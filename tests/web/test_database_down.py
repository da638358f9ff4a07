"""PostgreSQL restarting under a live site: every request gets 503 with ``Retry-After`` (a game
server sends its result again; a 400 would have told it the result was wrong), nothing is half
stored, and the site serves again as soon as the server is back (docs/web.md, "Errors")."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine.interfaces import DBAPIConnection

from eloleague import accounts
from eloleague.errors import UnavailableError
from eloleague.league import League
from eloleague.store import db as store_db
from eloleague.store.db import unreachable
from eloleague.web import Settings, create_app, errors
from tests.conftest import run_cli
from tests.engine.helpers import duel
from tests.pg.server import PgServer, pg_server, start_server  # noqa: F401  (fixture)
from tests.store.helpers import assert_equals_full_replay


def _game(n: int) -> bytes:
    return json.dumps(
        {
            "id": f"g{n}",
            "date": "2026-03-01",
            "sides": [
                {"players": ["Ana"], "outcome": "decisive_victory"},
                {"players": ["Ben"], "outcome": "defeat"},
            ],
        }
    ).encode()


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A server of this test's own, which it stops and starts (not the session's)."""
    for server in start_server():
        if not server.controlled:
            pytest.skip("a server given by ELOLEAGUE_TEST_PG_URL is not stopped by the tests")
        yield server


@pytest.mark.pg
def test_a_restarting_database_gets_503_and_the_site_serves_again(own_server: PgServer) -> None:
    url = own_server.new_database()
    league = League.create(url, "L", "bataille-empire")
    accounts.add_user(league.engine, "Claire", "password-123", "officer")
    token = accounts.create_token(league.engine, "Claire")
    site = TestClient(create_app(Settings(db=url, secret="s" * 40)), raise_server_exceptions=False)
    post = {"Authorization": f"Bearer {token}", "Accept-Language": "fr"}
    assert site.post("/api/v1/leagues/L/games", content=_game(1), headers=post).status_code == 201

    own_server.stop()
    refused = site.post("/api/v1/leagues/L/games", content=_game(2), headers=post)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    error = refused.json()["error"]
    assert error["code"] == "unavailable"
    assert error["message"].startswith("la base de données est injoignable pour le moment")
    assert "127.0.0.1" not in refused.text  # the driver's words name the host: the log only
    read = site.get("/api/v1/leagues/L", headers={"Accept-Language": "en"})
    assert read.status_code == 503 and read.json()["error"]["code"] == "unavailable"
    page = site.get("/leagues/L", headers={"Accept-Language": "en"})
    assert page.status_code == 503 and "cannot be reached" in page.text
    cli = run_cli("ranking", "--db", url, "--league", "L")
    assert cli.returncode == 2 and "cannot be reached" in cli.stderr
    assert "Connection refused" in cli.stderr  # the operator sees why
    assert "Traceback" not in cli.stderr
    serve = run_cli("serve", "--db", url, "--lang", "fr")  # its own --lang: the same detail
    assert serve.returncode == 2 and "la base de données est injoignable" in serve.stderr
    assert "Connection refused" in serve.stderr

    own_server.start()
    again = site.post("/api/v1/leagues/L/games", content=_game(2), headers=post)
    assert again.status_code == 201 and again.json()["added"] == 1
    league = League.open(url, "L")
    assert [g.id for g in league.games()] == ["g1", "g2"]
    assert_equals_full_replay(league)


def test_only_a_lost_connection_counts_as_unreachable() -> None:
    assert unreachable(psycopg.OperationalError("connection failed: Connection refused"))
    assert unreachable(psycopg.errors.AdminShutdown())  # 57P01: the server shutting down
    assert not unreachable(psycopg.errors.UniqueViolation())  # the statement's own fault
    assert not unreachable(psycopg.errors.LockNotAvailable())  # busy: the league's lock
    assert not unreachable(sqlite3.OperationalError("database is locked"))


def test_an_outage_is_logged_once_in_a_while_with_the_count_of_refused_requests(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(errors._Outage, "logged", float("-inf"))  # as in a fresh process
    monkeypatch.setattr(errors._Outage, "refused", 0)
    down = UnavailableError("unavailable", "connection refused on db.example:5432")
    with caplog.at_level(logging.WARNING, logger="eloleague.web"):
        answers = [errors.as_web_error(down) for _ in range(50)]
        assert {(a.status, a.code) for a in answers} == {(503, "unavailable")}
        assert len(caplog.records) == 1  # not fifty identical lines
        assert "db.example:5432" in caplog.text  # the operator sees why
        monkeypatch.setattr(errors, "UNREACHABLE_LOG_EVERY", 0.0)  # the next line is due
        errors.as_web_error(down)
    assert len(caplog.records) == 2
    assert "(1 request refused since the last such line)" in caplog.records[0].getMessage()
    assert "(50 requests refused since the last such line)" in caplog.records[1].getMessage()


@pytest.mark.pg
def test_a_restart_while_the_site_was_quiet_costs_no_request_an_error(
    own_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = own_server.new_database()
    League.create(url, "L", "bataille-empire")
    site = TestClient(create_app(Settings(db=url, secret="s" * 40)), raise_server_exceptions=False)
    assert site.get("/api/v1/leagues/L").status_code == 200  # the pool now holds a connection
    own_server.stop()
    own_server.start()  # nobody asked meanwhile: the pooled connection is dead, and unknown
    monkeypatch.setattr(store_db, "PING_IDLE_SECONDS", 0.0)  # however quick the restart was
    assert site.get("/api/v1/leagues/L").status_code == 200


@pytest.mark.pg
def test_a_connection_back_in_the_pool_a_moment_ago_is_lent_without_a_ping(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = pg_server.new_database()
    league = League.create(url, "L", "bataille-empire")
    pings: list[object] = []
    real_ping = league.engine.dialect.do_ping

    def counted(dbapi_conn: DBAPIConnection) -> bool:
        pings.append(dbapi_conn)
        return real_ping(dbapi_conn)

    monkeypatch.setattr(league.engine.dialect, "do_ping", counted)
    league.import_games(
        [duel("2026-03-01", "Ana", "decisive_victory", "Ben", "defeat", gid="g1")], source="a"
    )
    league.ranking()
    assert pings == []  # a game server's posts, one after the other: no round trip for a ping
    monkeypatch.setattr(store_db, "PING_IDLE_SECONDS", 0.0)  # as if idle for a while
    league.ranking()
    assert len(pings) == 1
