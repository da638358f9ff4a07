"""Results posted as an online game's servers post them (docs/web.md, "Posting results from a game
server"): writers queue per league, a post that waits too long gets 503 with Retry-After (never a
500), a retried post gets the same answer and adds nothing, and a game answered 201 survives a
kill -9 of the server. The server runs in its own process, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Coroutine, Iterator
from typing import TYPE_CHECKING, Any

import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.league import League, engine_for
from eloleague.store import db as store_db
from eloleague.web import Settings, create_app, live_posts, views
from tests.pg.server import PgServer, db_url, pg_server  # noqa: F401 - fixtures
from tests.store.helpers import assert_equals_full_replay
from tests.web.conftest import in_a_loop_of_its_own, serving

if TYPE_CHECKING:
    import psycopg

LEAGUE = "Live"


def game(n: int, day: str = "2026-03-01") -> dict[str, Any]:  # a JSON Lines record
    names = ["Ana", "Bob", "Chloé", "Dan", "Eve"]
    return {
        "id": f"live-{n}",
        "date": day,
        "sides": [
            {"players": [names[n % 5]], "outcome": "marginal_victory"},
            {"players": [names[(n + 1 + (n // 5) % 4) % 5]], "outcome": "defeat"},
        ],
    }


def setup(url: str) -> tuple[League, str]:
    league = League.create(url, LEAGUE, "bataille-empire")
    engine = engine_for(url)
    accounts.add_user(engine, "Server", "a long password", "officer")
    return league, accounts.create_token(engine, "Server")


def post(
    client: httpx.Client | TestClient, body: object, token: str, **headers: str
) -> httpx.Response | httpx2.Response:  # TestClient is an httpx2 client
    return client.post(
        f"/api/v1/leagues/{LEAGUE}/games",
        content=json.dumps(body),
        headers={"Authorization": f"Bearer {token}", **headers},
    )


def stored_ids(league: League) -> Counter[str]:
    return Counter(g.id for g in league.games() if g.id is not None)


def test_a_post_that_waits_too_long_gets_503_with_retry_after(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    league, token = setup(db_url)
    client = TestClient(
        create_app(Settings(db=db_url, secret="s" * 40)), raise_server_exceptions=False
    )
    assert post(client, game(0), token).status_code == 201
    monkeypatch.setattr(views, "WRITE_WAIT", 0.3)
    with hold_the_league(db_url, league.id):
        started = time.monotonic()
        busy = post(client, game(1), token, **{"Accept-Language": "fr"})
        assert time.monotonic() - started < 5  # bounded, not the database's minute
        assert busy.status_code == 503, busy.text
        assert busy.headers["Retry-After"] == "1"
        assert busy.json()["error"]["code"] == "busy"
        assert "la base de données est occupée" in busy.json()["error"]["message"]
    assert stored_ids(league) == {"live-0": 1}  # nothing of the refused post
    again = post(client, game(1), token)
    assert again.status_code == 201
    assert stored_ids(league) == {"live-0": 1, "live-1": 1}
    assert_equals_full_replay(league)


class hold_the_league:
    """Another writer holding the league's lock (SQLite: the write lock; PostgreSQL: the
    league's advisory lock), from its own connection."""

    conn: sqlite3.Connection | psycopg.Connection[Any]

    def __init__(self, url: str, league_id: int) -> None:
        self.url, self.league_id = url, league_id

    def __enter__(self) -> None:
        if self.url.startswith("sqlite"):
            self.conn = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")
        else:
            import psycopg

            self.conn = psycopg.connect(
                self.url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
            )
            self.conn.execute(
                "SELECT pg_advisory_lock(%s, %s)", (store_db.LEAGUE_LOCK, self.league_id)
            )

    def __exit__(self, *exc: object) -> None:
        if self.url.startswith("sqlite"):
            self.conn.execute("ROLLBACK")
        self.conn.close()


def test_a_retried_post_gets_the_same_answer_and_adds_nothing(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    league, token = setup(db_url)
    client = TestClient(
        create_app(Settings(db=db_url, secret="s" * 40)), raise_server_exceptions=False
    )
    # The leagues the app opens from now on stamp the journal with this clock (the app's own,
    # for sessions, was taken above): the posts below are in one UTC hour whenever the test runs
    # (docs/league.md, "The journal").
    ticks = iter(dt.datetime(2026, 3, 1, 18, m, tzinfo=dt.UTC) for m in range(10, 60))
    monkeypatch.setattr("eloleague.league.utc_now", lambda: next(ticks))
    body = [game(n) for n in range(3)]
    first = post(client, body, token)
    assert first.status_code == 201
    assert first.json()["added"] == 3 and first.json()["rating_changes"]
    again = post(client, body, token)
    assert (again.status_code, again.json()) == (201, first.json())
    assert stored_ids(league) == {f"live-{n}": 1 for n in range(3)}
    assert [(e.action, e.changes) for e in league.journal()] == [("import", 1), ("create", 1)]
    # The same games in another post: nothing added either, and said so.
    other = post(client, body[:2], token)
    assert other.status_code == 200 and other.json()["unchanged"] == 2
    assert stored_ids(league) == {f"live-{n}": 1 for n in range(3)}
    assert_equals_full_replay(league)
    # A new game: the same run of the journal as the first post (docs/league.md, "The journal")
    assert post(client, [game(3)], token).status_code == 201
    entries = client.get(
        f"/api/v1/leagues/{LEAGUE}/journal", headers={"Authorization": f"Bearer {token}"}
    ).json()["entries"]
    (run,) = [e for e in entries if e["action"] == "import"]
    assert (run["changes"], run["games"], run["detail"]["added"]) == (2, 4, 4)
    assert run["first_at"] == "2026-03-01T18:10:00+00:00" < run["at"]
    # the site speaks French first
    assert run["text"] == "api\u202f: 4 parties ajoutées, 0 remplacée (2 imports depuis 18:10 UTC)"


@pytest.fixture
def server(
    request: pytest.FixtureRequest,
    db_url: str,  # noqa: F811
) -> Iterator[tuple[str, str, subprocess.Popen[bytes], str]]:
    """``eloleague serve`` in its own process (``--workers``: the parameter, else 1); (base
    URL, token, process, database URL)."""
    _, token = setup(db_url)
    workers = str(getattr(request, "param", 1))
    with serving(db_url, "--workers", workers, secret="live-" + "k" * 40) as (base, proc):
        yield base, token, proc, db_url


def test_games_answered_201_survive_a_kill_9(
    server: tuple[str, str, subprocess.Popen[bytes], str],
) -> None:
    base, token, proc, url = server
    answered = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for n in range(15):
            got = post(http, game(n, f"2026-03-0{1 + n // 5}"), token)
            assert got.status_code == 201, got.text
            answered.append(f"live-{n}")
    os.kill(proc.pid, signal.SIGKILL)  # right after the last 201
    proc.wait(timeout=20)
    league = League.open(url, LEAGUE)
    assert stored_ids(league) == dict.fromkeys(answered, 1)
    assert_equals_full_replay(league)


@pytest.mark.parametrize("server", [1, 2], indirect=True, ids=["1-worker", "2-workers"])
def test_eight_clients_at_once_lose_and_double_nothing(
    server: tuple[str, str, subprocess.Popen[bytes], str],
) -> None:
    base, token, _, url = server
    per_client, clients = 12, 8
    failures: list[str] = []
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def client(c: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as http:
            for k in range(per_client):
                n = c * per_client + k
                body = game(n, "2026-03-01")
                for _ in range(2 if k % 4 == 0 else 1):  # every fourth post is sent twice
                    got = post(http, body, token)
                    while got.status_code == 503:  # the documented way: wait, send again
                        time.sleep(float(got.headers["Retry-After"]))
                        got = post(http, body, token)
                    with lock:
                        statuses[got.status_code] += 1
                        if got.status_code != 201:
                            failures.append(f"{n}: {got.status_code} {got.text[:200]}")

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert 500 not in statuses
    league = League.open(url, LEAGUE)
    assert stored_ids(league) == {f"live-{n}": 1 for n in range(per_client * clients)}
    assert_equals_full_replay(league)
    # In the journal, one run of the posts that added games (two if the UTC hour turned), made
    # by the workers' processes in turn (docs/league.md, "The journal").
    runs = [e for e in league.journal() if e.action == "import"]
    assert sum(e.changes for e in runs) == sum(e.games for e in runs) == per_client * clients
    assert len(runs) <= 2 and all(e.user == "Server" for e in runs)


@pytest.mark.pg
def test_postgresql_posts_of_a_moment_are_written_by_one_thread(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On PostgreSQL the event loop makes a known officer's small posts ready and hands those of
    a moment to one worker thread, batch after batch (docs/web.md, "Posting results from a game
    server"): eight posts at once go in fewer batches than posts, each answered with its own
    game; a retry gets the same answer; the league is what a fresh replay gives; a token revoked
    meanwhile is refused, nothing stored."""
    url = pg_server.new_database()
    league, token = setup(url)
    batches: list[tuple[bool, int]] = []
    answers = live_posts._answers

    def seen(batch: list[live_posts._ByThread]) -> list[Any]:
        try:
            on_loop = asyncio.get_running_loop() is not None
        except RuntimeError:  # no event loop runs in this thread: a worker thread
            on_loop = False
        batches.append((on_loop, len(batch)))
        return answers(batch)

    monkeypatch.setattr(live_posts, "_answers", seen)
    app = create_app(Settings(db=url, secret="s" * 40))

    async def posts() -> tuple[httpx.Response, list[httpx.Response], httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:

            def one(n: int) -> Coroutine[Any, Any, httpx.Response]:
                return client.post(
                    f"/api/v1/leagues/{LEAGUE}/games",
                    content=json.dumps(game(n)),
                    headers={"Authorization": f"Bearer {token}"},
                )

            first = await one(0)  # its token read in a thread, then known
            many = await asyncio.gather(*(one(n) for n in range(1, 9)))
            return first, list(many), await one(8)

    first, many, again = in_a_loop_of_its_own(posts())
    assert first.status_code == 201
    assert [(r.status_code, r.json()["added"]) for r in many] == [(201, 1)] * 8
    for n, answer in enumerate(many, start=1):  # each its own game's players, none of another
        players = {side["players"][0] for side in game(n)["sides"]}
        assert {c["player"] for c in answer.json()["rating_changes"]} == players
    assert (again.status_code, again.json()) == (201, many[-1].json())
    assert not any(on_loop for on_loop, _ in batches)
    assert sum(size for _, size in batches) == 9 and len(batches) < 9, batches  # not the first
    assert stored_ids(league) == {f"live-{n}": 1 for n in range(9)}
    assert_equals_full_replay(league)

    accounts.revoke_tokens(engine_for(url), "Server")  # as from another process
    refused = in_a_loop_of_its_own(_post_once(app, game(9), token))
    assert refused.status_code == 401
    assert stored_ids(league) == {f"live-{n}": 1 for n in range(9)}


async def _post_once(app: Any, body: object, token: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
        return await client.post(
            f"/api/v1/leagues/{LEAGUE}/games",
            content=json.dumps(body),
            headers={"Authorization": f"Bearer {token}"},
        )


def test_a_posts_answer_speaks_the_servers_language(db_url: str) -> None:  # noqa: F811
    """A game server that sends no language gets the site's own, French; ``Accept-Language:
    en`` or ``?lang=en`` gets English; the figures are the same (docs/web.md, "Posting results
    from a game server"). A refusal too."""
    _league, token = setup(db_url)
    client = TestClient(create_app(Settings(db=db_url, secret="s" * 40)))
    plain = post(client, [game(0)], token)
    assert plain.json()["summary"].startswith("api\u202f: 1 partie ajoutée"), plain.json()
    english = post(client, [game(1)], token, **{"Accept-Language": "en"})
    assert english.json()["summary"].startswith("api: added 1 game"), english.json()
    assert set(english.json()) == set(plain.json())
    asked = client.post(
        f"/api/v1/leagues/{LEAGUE}/games?lang=en",
        content=json.dumps([game(2)]),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert asked.json()["summary"].startswith("api: added 1 game"), asked.json()
    wrong = {**game(3), "sides": [{"players": ["Ana"]}, {"players": ["Bob"]}]}
    refused = post(client, [wrong], token)
    assert refused.status_code == 422
    assert "rien n’a été enregistré" in refused.json()["error"]["message"]
    refused_en = post(client, [wrong], token, **{"Accept-Language": "en"})
    assert "nothing was stored" in refused_en.json()["error"]["message"]
