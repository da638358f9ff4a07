"""Server-side sessions (docs/web.md, "Sessions"): a sign-out, a new password or "sign out
everywhere" ends a session at once on every worker; idle and absolute timeouts; the cookie holds
only a random id; the sign-in throttle counts in the database. Real HTTP where it matters (two
Uvicorn servers on one database), an injected clock for the timeouts."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import itsdangerous
import pytest
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.league import League, engine_for
from eloleague.web import Settings, create_app
from eloleague.web.security import SignInThrottle
from tests.conftest import run_cli
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)
from tests.web.conftest import BE, PASSWORD, LiveServer, Site

SECRET = "test-secret-" + "x" * 32
COOKIE = "eloleague_session"


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def _sign_in(client: httpx.Client | TestClient, name: str = "Claire") -> str:
    """Sign in; the session's CSRF token (read from a page of the signed-in session)."""
    token = _csrf(client.get("/login").text)
    got = client.post(
        "/login",
        data={"name": name, "password": PASSWORD, "csrf_token": token},
        follow_redirects=False,
    )
    assert got.status_code == 303, got.text
    return _csrf(client.get("/admin").text)


def _games(site: Site) -> int:
    return len(League.open(str(site.db), BE).games())


def _cookie_data(value: str) -> dict[str, object]:
    data = itsdangerous.TimestampSigner(SECRET).unsign(value.encode())
    loaded: dict[str, object] = json.loads(base64.b64decode(data))
    return loaded


@pytest.fixture
def two_workers(site: Site) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two real servers (two workers, two processes' worth of state) on one database."""
    with LiveServer(site) as one, LiveServer(site) as two:
        yield one, two


def test_a_replayed_cookie_is_refused_after_signing_out(live: LiveServer, site: Site) -> None:
    # The trial of docs/web.md: keep the cookie and a CSRF token, sign out, replay them.
    with httpx.Client(base_url=live.base) as browser:
        token = _sign_in(browser)
        kept = browser.cookies[COOKIE]
        assert browser.get("/admin", follow_redirects=False).status_code == 200
        out = browser.post("/logout", data={"csrf_token": token}, follow_redirects=False)
        assert out.status_code == 303
    before = _games(site)
    with httpx.Client(base_url=live.base, cookies={COOKIE: kept}) as replay:
        deleted = replay.post(
            f"/leagues/{BE}/games/g1/delete",
            data={"csrf_token": token, "confirm": "yes"},
            follow_redirects=False,
        )
        assert deleted.status_code == 401
        assert replay.get("/admin", follow_redirects=False).status_code == 303
        assert replay.get(f"/api/v1/leagues/{BE}/games/g1").status_code == 200
    assert _games(site) == before


def test_two_workers_share_sessions_and_sign_outs(
    two_workers: tuple[LiveServer, LiveServer], site: Site
) -> None:
    one, two = two_workers
    with httpx.Client(base_url=one.base) as first:
        token = _sign_in(first)
        cookie = first.cookies[COOKIE]
    with httpx.Client(base_url=two.base, cookies={COOKIE: cookie}) as second:
        assert second.get("/admin", follow_redirects=False).status_code == 200
        assert _csrf(second.get("/admin").text) == token  # one session, one CSRF token
        assert (
            second.post("/logout", data={"csrf_token": token}, follow_redirects=False).status_code
            == 303
        )
    with httpx.Client(base_url=one.base, cookies={COOKIE: cookie}) as replay:
        assert replay.get("/admin", follow_redirects=False).status_code == 303
        refused = replay.post(
            f"/leagues/{BE}/games/g1/delete",
            data={"csrf_token": token, "confirm": "yes"},
            follow_redirects=False,
        )
        assert refused.status_code == 401
    assert League.open(str(site.db), BE).games()  # nothing was deleted


def test_the_cookie_holds_only_a_random_id_and_the_database_only_its_digest(
    client: TestClient, site: Site
) -> None:
    _sign_in(client)
    data = _cookie_data(client.cookies[COOKIE])
    assert set(data) == {"sid"}
    session_id = data["sid"]
    assert isinstance(session_id, str) and len(session_id) >= 40
    with sqlite3.connect(site.db) as conn:
        rows = conn.execute("SELECT token_hash, csrf_token FROM web_sessions").fetchall()
    assert len(rows) == 1
    assert rows[0][0] != session_id and len(rows[0][0]) == 64
    assert session_id not in repr(rows)


def test_a_cookie_of_the_old_signed_kind_is_no_session(client: TestClient, site: Site) -> None:
    old = {"uid": 1, "stamp": "0" * 32, "csrf": "token-of-the-old-kind"}
    payload = base64.b64encode(json.dumps(old).encode())
    client.cookies.set(COOKIE, itsdangerous.TimestampSigner(SECRET).sign(payload).decode())
    assert client.get("/admin", follow_redirects=False).status_code == 303
    refused = client.post(
        f"/leagues/{BE}/games/g1/delete",
        data={"csrf_token": "token-of-the-old-kind", "confirm": "yes"},
        follow_redirects=False,
    )
    assert refused.status_code == 401
    assert client.get(f"/api/v1/leagues/{BE}/games/g1").status_code == 200


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 23, 8, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def _clocked(site: Site, **settings: Any) -> tuple[TestClient, Clock]:  # more of Settings' fields
    app = create_app(Settings(db=str(site.db), secret=SECRET, **settings))
    clock = Clock()
    app.state.clock = clock
    return TestClient(app, raise_server_exceptions=False), clock


def test_an_idle_session_ends(site: Site) -> None:
    client, clock = _clocked(site, session_idle_timeout=3600)
    _sign_in(client)
    clock.advance(minutes=59)
    assert client.get("/admin", follow_redirects=False).status_code == 200  # activity noted
    clock.advance(minutes=59)
    assert client.get("/admin", follow_redirects=False).status_code == 200  # 59 min after
    clock.advance(minutes=61)
    assert client.get("/admin", follow_redirects=False).status_code == 303  # 61 min idle
    with sqlite3.connect(site.db) as conn:
        assert conn.execute("SELECT count(*) FROM web_sessions").fetchone() == (0,)


def test_a_session_ends_after_its_absolute_lifetime_even_when_active(site: Site) -> None:
    client, clock = _clocked(site, session_idle_timeout=2 * 3600, session_max_age=24 * 3600)
    _sign_in(client)
    for _ in range(23):  # active every hour: never idle
        clock.advance(hours=1)
        assert client.get("/admin", follow_redirects=False).status_code == 200
    clock.advance(hours=1, seconds=1)
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_expired_sessions_are_purged_when_someone_signs_in(site: Site) -> None:
    first, clock = _clocked(site, session_idle_timeout=3600)
    _sign_in(first)
    clock.advance(hours=2)  # the first session is over, but nobody asked yet
    second = TestClient(first.app)
    _sign_in(second, "Rémi")
    with sqlite3.connect(site.db) as conn:
        users = conn.execute(
            "SELECT u.name FROM web_sessions s JOIN users u ON u.id = s.user_id"
        ).fetchall()
    assert users == [("Rémi",)]


def test_a_new_password_ends_every_session_of_the_account(client: TestClient, site: Site) -> None:
    other = TestClient(client.app)
    _sign_in(client)
    _sign_in(other)
    referee = TestClient(client.app)
    _sign_in(referee, "Rémi")
    done = run_cli(
        "user",
        "password",
        "Claire",
        "--password-stdin",
        "--db",
        str(site.db),
        stdin="new one 1234\n",
    )
    assert done.returncode == 0, done.stderr
    assert client.get("/admin", follow_redirects=False).status_code == 303
    assert other.get("/admin", follow_redirects=False).status_code == 303
    assert referee.get("/admin", follow_redirects=False).status_code == 200  # not Rémi's


def test_sign_out_everywhere_from_the_officers_page(client: TestClient) -> None:
    token = _sign_in(client)
    phone = TestClient(client.app)
    _sign_in(phone)
    page = client.get("/admin").text
    assert "Se déconnecter partout" in page and "connecté sur 2 navigateurs." in page
    assert "Rôle\u202f: " in page  # French typography after a label
    done = client.post(
        "/admin/sign-out-everywhere", data={"csrf_token": token}, follow_redirects=False
    )
    assert done.status_code == 303 and done.headers["location"] == "/login"
    assert client.get("/admin", follow_redirects=False).status_code == 303
    assert phone.get("/admin", follow_redirects=False).status_code == 303


def test_an_officer_signs_a_referee_out_everywhere(client: TestClient) -> None:
    referee = TestClient(client.app)
    referee_token = _sign_in(referee, "Rémi")
    token = _sign_in(client)
    assert 'action="/admin/users/R%C3%A9mi/sign-out"' in client.get("/admin").text
    refused = referee.post(  # a referee may not sign others out
        "/admin/users/Claire/sign-out", data={"csrf_token": referee_token}, follow_redirects=False
    )
    assert refused.status_code == 403
    no_token = client.post("/admin/users/Rémi/sign-out", follow_redirects=False)
    assert no_token.status_code == 403  # CSRF
    assert referee.get("/admin", follow_redirects=False).status_code == 200
    done = client.post("/admin/users/Rémi/sign-out", data={"csrf_token": token})
    assert done.status_code == 200 and "Rémi est déconnecté partout (1 session fermée)" in done.text
    assert referee.get("/admin", follow_redirects=False).status_code == 303
    assert client.get("/admin", follow_redirects=False).status_code == 200  # the officer stays
    missing = client.post("/admin/users/Nobody/sign-out", data={"csrf_token": token})
    assert missing.status_code == 404


def test_sign_out_everywhere_from_the_command_line(client: TestClient, site: Site) -> None:
    _sign_in(client)
    done = run_cli("user", "sign-out", "Claire", "--db", str(site.db))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Claire signed out everywhere (1 session ended)"
    assert client.get("/admin", follow_redirects=False).status_code == 303
    french = run_cli(
        "user", "sign-out", "Claire", "--db", str(site.db), env={"ELOLEAGUE_LANG": "fr"}
    )
    assert french.stdout.strip() == "Claire est déconnecté partout (0 session fermée)"
    missing = run_cli("user", "sign-out", "Nobody", "--db", str(site.db))
    assert missing.returncode == 2 and "no user named 'Nobody'" in missing.stderr


# The sign-in throttle, shared by every worker -----------------------------------------------------


def _attempt(
    client: httpx.Client | TestClient, password: str
) -> httpx.Response | httpx2.Response:  # TestClient is an httpx2 client
    token = _csrf(client.get("/login").text)
    data = {"name": "Claire", "password": password, "csrf_token": token}
    return client.post("/login", data=data, follow_redirects=False)


def test_wrong_passwords_count_on_every_worker(two_workers: tuple[LiveServer, LiveServer]) -> None:
    one, two = two_workers
    with httpx.Client(base_url=one.base) as a, httpx.Client(base_url=two.base) as b:
        codes = [_attempt(a if n % 2 else b, f"guess {n}").status_code for n in range(5)]
        assert codes == [401] * 5
        for browser in (a, b):
            held = _attempt(browser, PASSWORD)
            assert held.status_code == 429
            assert 0 < int(held.headers["retry-after"]) <= 15 * 60


def test_the_throttle_forgets_after_its_window_and_after_a_success(site: Site) -> None:
    client, clock = _clocked(site)
    assert [_attempt(client, f"guess {n}").status_code for n in range(5)] == [401] * 5
    key = SignInThrottle._key("testclient", "Claire")
    with sqlite3.connect(site.db) as conn:  # five rows, and not the name that was typed
        rows = conn.execute("SELECT * FROM sign_in_failures WHERE key = ?", (key,)).fetchall()
        everything = conn.execute("SELECT * FROM sign_in_failures").fetchall()
    assert len(rows) == 5 and "Claire" not in repr(everything)
    clock.advance(minutes=10)
    held = _attempt(client, PASSWORD)
    assert held.status_code == 429 and held.headers["retry-after"] == str(5 * 60)
    clock.advance(minutes=5, seconds=1)
    assert _attempt(client, PASSWORD).status_code == 303  # the window has passed
    with sqlite3.connect(site.db) as conn:
        left = conn.execute("SELECT count(*) FROM sign_in_failures WHERE key = ?", (key,))
        assert left.fetchone() == (0,)


def test_noting_activity_never_waits_for_a_busy_database(site: Site) -> None:
    client, clock = _clocked(site)
    _sign_in(client)

    def seen() -> str:
        with sqlite3.connect(site.db) as conn:
            (value,) = conn.execute("SELECT seen_at FROM web_sessions").fetchone()
        return str(value)

    first = seen()
    clock.advance(minutes=5)
    holder = sqlite3.connect(site.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a long import holds the write lock
    try:
        assert client.get("/admin", follow_redirects=False).status_code == 200
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert seen() == first  # skipped, not waited for
    assert client.get("/admin", follow_redirects=False).status_code == 200
    assert seen() > first  # noted by the next request


@pytest.mark.pg
def test_sessions_and_the_throttle_on_postgresql(pg_server: PgServer) -> None:  # noqa: F811
    url = pg_server.new_database()
    League.create(url, BE, "bataille-empire")
    accounts.add_user(engine_for(url), "Claire", PASSWORD, "officer")
    app = create_app(Settings(db=url, secret=SECRET, session_idle_timeout=3600))
    clock = Clock()
    app.state.clock = clock
    client = TestClient(app, raise_server_exceptions=False)
    token = _sign_in(client)
    clock.advance(minutes=50)
    assert client.get("/admin", follow_redirects=False).status_code == 200
    clock.advance(minutes=50)
    assert client.get("/admin", follow_redirects=False).status_code == 200  # activity noted
    kept = client.cookies[COOKIE]
    assert client.post("/logout", data={"csrf_token": token}).status_code == 200
    replay = TestClient(app, cookies={COOKIE: kept})
    assert replay.get("/admin", follow_redirects=False).status_code == 303
    _sign_in(client)
    clock.advance(minutes=61)
    assert client.get("/admin", follow_redirects=False).status_code == 303  # idle
    assert [_attempt(client, f"guess {n}").status_code for n in range(5)] == [401] * 5
    assert _attempt(client, PASSWORD).status_code == 429
