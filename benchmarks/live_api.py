"""Live results benchmark: games posted one by one as an online game's servers post them
(docs/benchmarks.md, "Live results").

    .venv/bin/python benchmarks/live_api.py [--players 10000] [--games 1000000]
        [--posts 2000] [--seconds 30] [--pg [--rounds N] [--paired]] [--skip-http] [--lived 20000]
        [--workers 1] [--several-workers 2] [--client http.client] [--client httpx]

A league of ``--players`` players and ``--games`` two-player games (bataille-empire rules: the
compiled engine builds it quickly; seasons and inactivity apply) is built once through the bulk
import into ``benchmarks/data/`` (git-ignored; ``--pg`` also imports it into a throwaway
PostgreSQL server, the test suite's). Each measurement runs on a fresh copy of it (the posts after
:data:`WARM_UP` uncounted ones):

- single-game posts (``POST /api/v1/leagues/{league}/games``, one game each, dated the league's
  last day, as a game server posts a result when its game ends), from 1 client and from 8, to
  ``eloleague serve`` in its own process on 127.0.0.1 (one worker, ``--workers``); from 8 again
  to ``--several-workers`` workers (2: one a core here);
- posts of 1,000 games;
- each of those with two HTTP clients (``--client``): the standard library's ``http.client``
  (about 0.2 ms of CPU a request here) and ``httpx`` (about 0.6 ms); the clients share the
  machine's cores with the server, so the lighter one leaves more of them to it;
- ``League.import_games`` of one appended game, in-process (SQLite's log copied in the background,
  as docs/league.md advises a program posting live results), between registered players, then
  with a new player in each game (the look-alike check of her name);
- the floor: a minimal script storing each game and updating its two players' ratings in one
  SQLite transaction per game (same players, same database settings: WAL, synchronous=NORMAL),
  in a database of its own holding only those ratings and the new games; and the floor on the
  same data, as the issue that asked for this benchmark measured it: the same minimal script on a
  copy of the league's database, its games and ratings tables as the league has them; and the
  floor of posts of 1,000 games: one transaction a post storing only their rows on a copy of the
  league, measured first and, on SQLite, again right after the posts of 1,000 games, whose
  figure over it is printed (``over the floor of their rows``): the share of SQLite's own speed a
  post reaches, whatever the machine's speed of the moment; the floor on the same data, likewise,
  again right after SQLite's ``League.import_games`` of one game (``over the floor on the same
  data``: the issue's "a quarter of the floor's rate");
- on SQLite, right after each run of single-game posts, the floor of such posts over HTTP: the
  same client, clients and bodies posting to a bare ASGI application under Uvicorn
  (``benchmarks/http_floor.py``: it reads the body and answers ``201``), and the posts' figure
  over it (``over the HTTP floor``): this machine's round trip of the moment, beside what a post
  costs above it.

``--lived N`` measures SQLite again on the league after ``N`` more games appended live (built
once too): SQLite builds an index with its pages full, so the first live games after a bulk
import split pages of the indexes by player; a league that has received results live for a
while no longer does.

With ``--pg``, SQLite's measurements are made once PostgreSQL's league is built, each round of
them just before PostgreSQL's (``--rounds N``: N rounds in turn), and each round ends with
SQLite's figure over PostgreSQL's for each measurement: this machine's speed moves by up to a
factor 2 within minutes (docs/benchmarks.md), so a ratio is read from measurements made one
after the other. With ``--paired`` too, each measurement is made on SQLite and at once on
PostgreSQL (PostgreSQL first in every second round), and its ratio printed right away: the two
figures of a ratio are then seconds apart, not a round apart.

Every count and duration is bounded (``--posts``, ``--seconds``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import http.client
import json
import math
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from eloleague import accounts
from eloleague.league import League, engine_for
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import db as store_db
from eloleague.store.bulk import CACHE_KB
from eloleague.store.db import delete_sqlite_files

DATA = Path(__file__).parent / "data"
LEAGUE = "Live"
OFFICER, PASSWORD = "bench-officer", "benchmark-password-1"
OUTCOMES = (
    ("decisive_victory", "defeat"),
    ("marginal_victory", "defeat"),
    ("draw", "draw"),
    ("defeat", "overwhelming_victory"),
    ("defeat", "marginal_victory"),
)
START = dt.date(2012, 1, 7)

Measured = tuple[int, float, list[float]]
"""What a run of posts or a floor gives: (games, wall time, each one's latency)."""


def names(players: int) -> list[str]:
    return [f"Player {n:05d}" for n in range(players)]


def generate(path: Path, games: int, players: int, per_day: int) -> dt.date:
    """Deterministic duels, ``per_day`` a day; returns the last day."""
    rng = random.Random(players * 1_000_003 + games)
    who = names(players)
    with path.open("w", encoding="utf-8") as out:
        for n in range(games):
            a, b = rng.sample(who, 2)
            oa, ob = rng.choice(OUTCOMES)
            obj = {
                "id": f"g{n}",
                "date": (START + dt.timedelta(days=n // per_day)).isoformat(),
                "sides": [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}],
            }
            out.write(json.dumps(obj) + "\n")
    return START + dt.timedelta(days=(games - 1) // per_day)


def per_day(games: int) -> int:
    """About three years of games, whatever the size (same-day appends land in a busy day)."""
    return max(10, games // 1000)


def last_day(games: int) -> dt.date:
    return START + dt.timedelta(days=(games - 1) // per_day(games))


def source(players: int, games: int) -> Path:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"live-{players}x{games}.jsonl"
    if not path.exists():
        print(f"generating {games:,} games of {players:,} players…", flush=True)
        generate(path, games, players, per_day(games))
    return path


def build_sqlite(players: int, games: int) -> Path:
    """The benchmark league in a SQLite file, built once by the bulk import (again when the
    schema changes: the floors read the file as it is, without the migrations)."""
    db = DATA / f"live-{players}x{games}-schema{store_db.HEAD}.db"
    if db.exists():
        return db
    jsonl = source(players, games)
    partial = db.with_suffix(".partial.db")
    delete_sqlite_files(partial)
    t = time.perf_counter()
    league = League.create(str(partial), LEAGUE, "bataille-empire")
    league.import_file(jsonl)
    with league.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    league.engine.dispose()
    print(f"SQLite league built in {time.perf_counter() - t:.0f} s", flush=True)
    partial.rename(db)
    delete_sqlite_files(partial)
    return db


def lived_sqlite(db: Path, players: int, day: dt.date, games: int) -> Path:
    """The benchmark league after ``games`` more games appended live (by 1,000 in-process), built
    once: a league just bulk-imported has its indexes packed full (SQLite builds an index so), and
    its first live games split those pages; a league that has received results live for a while
    has them part-full, as they settle under random inserts."""
    lived = db.with_name(f"{db.stem}-lived{games}.db")
    if lived.exists():
        return lived
    partial = lived.with_suffix(".partial.db")
    delete_sqlite_files(partial)
    shutil.copyfile(db, partial)
    league = League.open(str(partial), LEAGUE)
    poster = Poster(players, day, "l")
    for start in range(0, games, 1000):
        batch = [record(poster.game()) for _ in range(min(1000, games - start))]
        assert league.import_games(batch, source="bench").added == len(batch)
    with league.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    league.engine.dispose()
    partial.rename(lived)
    delete_sqlite_files(partial)
    return lived


def sqlite_copy(db: Path, name: str) -> str:
    copy = DATA / f"run-{name}.db"
    delete_sqlite_files(copy)
    shutil.copyfile(db, copy)
    return str(copy)


class Poster:
    """Makes fresh games: duels between random players dated the league's last day (with
    ``newcomers``, the second player of each game is a new one, as on an online game where new
    players arrive all day)."""

    def __init__(self, players: int, day: dt.date, prefix: str, newcomers: bool = False) -> None:
        self.who = names(players)
        self.day = day
        self.prefix = prefix
        self.newcomers = newcomers
        self.n = 0
        self.rng = random.Random(prefix)
        self.lock = threading.Lock()

    def game(self) -> dict[str, Any]:
        with self.lock:
            self.n += 1
            n = self.n
        a, b = self.rng.sample(self.who, 2)
        if self.newcomers:
            b = f"Newcomer {self.prefix}{n}"
        oa, ob = self.rng.choice(OUTCOMES)
        return {
            "id": f"{self.prefix}{n}",
            "date": self.day.isoformat(),
            "sides": [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}],
        }


def record(obj: dict[str, Any]) -> GameRecord:
    return GameRecord(
        date=dt.date.fromisoformat(obj["date"]),
        sides=tuple(Side((Participant(s["players"][0]),), s["outcome"]) for s in obj["sides"]),
        id=obj["id"],
    )


def summary(
    label: str,
    games: int,
    seconds: float,
    latencies: list[float],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    row: dict[str, Any] = {"what": label, "games": games, "seconds": round(seconds, 2)}
    row["games_per_s"] = round(games / seconds, 1) if seconds else None
    if latencies:
        ordered = sorted(latencies)
        row["p50_ms"] = round(statistics.median(ordered) * 1000, 2)
        # nearest rank: of 20 posts, the 19th; of 2, the slower (not the faster, as before)
        row["p95_ms"] = round(ordered[math.ceil(0.95 * len(ordered)) - 1] * 1000, 2)
    row.update(extra or {})
    print(json.dumps(row), flush=True)
    return row


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process ``pid`` has used so far, from Linux's ``/proc``
    (None elsewhere): with one worker, the server's CPU a post is what eloleague's code costs,
    where games a second also move with what the clients and the machine do."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    url: str,
    workers: int = 1,
    *,
    under: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    start_seconds: float = 120,
) -> tuple[subprocess.Popen[bytes], str, dict[str, str]]:
    """``eloleague serve`` of ``url`` in a process of its own, with an officer's token: (the
    process, its URL, the token's header). ``under``: a command the server runs under (Valgrind,
    for ``live_instructions.py``), ``env`` added to the environment, ``start_seconds`` how long
    it may take to answer."""
    engine = engine_for(url)
    if OFFICER not in {u.name for u in accounts.list_users(engine)}:
        accounts.add_user(engine, OFFICER, PASSWORD, "officer")
    token = accounts.create_token(engine, OFFICER)
    engine.dispose()
    port = free_port()
    server = subprocess.Popen(
        [
            *under,
            sys.executable,
            "-m",
            "eloleague",
            "serve",
            "--db",
            url,
            "--port",
            str(port),
            "--workers",
            str(workers),
        ],
        env={**os.environ, "ELOLEAGUE_SECRET": "benchmark-" + "z" * 40, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    started(server, base + "/api/v1/leagues", 200, start_seconds, "the server")
    return server, base, {"Authorization": f"Bearer {token}"}


def started(
    server: subprocess.Popen[bytes], url: str, status: int, seconds: float, what: str
) -> None:
    """Wait until ``server`` (``what``, for the message) answers a ``GET`` of ``url`` with
    ``status``, at most ``seconds``; past them it is killed and the run stops."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code == status:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.kill()
    raise SystemExit(f"{what} did not start")


def serve_floor() -> tuple[subprocess.Popen[bytes], str]:
    """The bare application of ``benchmarks/http_floor.py`` under Uvicorn, as ``eloleague
    serve`` runs the site (uvloop, httptools; no line per request): (its process, its URL)."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--app-dir",
            str(Path(__file__).parent),
            "http_floor:app",
            "--port",
            str(port),
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    started(server, base, 201, 30, "the bare HTTP server")
    return server, base


def http_floor(poster: Poster, clients: int, limit: int, seconds: float, client: str) -> Measured:
    """The floor of single-game posts over HTTP (:func:`serve_floor`): ``clients`` clients of
    ``client`` posting the same bodies as :func:`posts`, after as many uncounted as the posts'
    warm-up; (games answered, wall time, each request's latency)."""
    server, base = serve_floor()
    try:
        posts(base, {}, poster, clients, 1, WARM_UP, seconds, client)
        n, wall, lat, _statuses = posts(base, {}, poster, clients, 1, limit, seconds, client)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return n, wall, lat


WARM_UP = 200
"""Single-game posts sent before each measured run, uncounted: a server that has just started
answers its first posts in tens of milliseconds (its modules, the league's rules, the database's
pages read into each worker's cache), as a server that has run for a while does not. One post
warmed one worker only; with two workers the other one's first posts were counted, and the
eight clients' figure fell by a quarter (docs/benchmarks.md, "Live results"). As many games are
imported, uncounted, before the in-process measurements, on either database: PostgreSQL's
first run on a copy just made was the slowest of a run (its pages not yet in its cache, where
SQLite's copy was in the system's)."""

CLIENTS = ("http.client", "httpx")
"""The HTTP clients the posts are made with: the standard library's (one keep-alive connection
a client, about 0.2 ms of CPU a request) and httpx (about 0.6 ms). The clients share this
machine's two cores with the server, so the lighter one leaves more of them to it."""


def _sender(kind: str, base: str, auth: dict[str, str]) -> tuple[Any, Callable[[bytes], int]]:
    """A client of ``kind`` (:data:`CLIENTS`) posting JSON bodies to the league's games:
    (the client, to close; a function posting a body and returning the status)."""
    url = f"{base}/api/v1/leagues/{quote(LEAGUE)}/games"
    headers = {**auth, "Content-Type": "application/json"}
    if kind == "httpx":
        client = httpx.Client(headers=headers, timeout=120)

        def send_httpx(body: bytes) -> int:
            got = client.post(url, content=body)
            if got.status_code != 201:
                raise SystemExit(f"HTTP {got.status_code}: {got.text[:300]}")
            return got.status_code

        return client, send_httpx
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=120)

    def send_stdlib(body: bytes) -> int:
        conn.request("POST", parts.path, body, headers)
        got = conn.getresponse()
        text = got.read()
        if got.status != 201:
            raise SystemExit(f"HTTP {got.status}: {text[:300]!r}")
        return got.status

    return conn, send_stdlib


def posts(
    base: str,
    auth: dict[str, str],
    poster: Poster,
    clients: int,
    per_post: int,
    limit: int,
    seconds: float,
    client: str = "http.client",
) -> tuple[int, float, list[float], dict[int, int]]:
    """``clients`` threads posting ``per_post`` games a request with ``client``
    (:data:`CLIENTS`) until ``limit`` games or ``seconds``; (games stored, wall time, each
    request's latency, answers by status)."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stored = [0]
    until = time.monotonic() + seconds

    def work() -> None:
        connection, send = _sender(client, base, auth)
        try:
            while time.monotonic() < until:
                with lock:
                    if stored[0] >= limit:
                        return
                    stored[0] += per_post
                body = json.dumps([poster.game() for _ in range(per_post)]).encode()
                t = time.perf_counter()
                status = send(body)
                took = time.perf_counter() - t
                with lock:
                    latencies.append(took)
                    statuses[status] = statuses.get(status, 0) + 1
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return len(latencies) * per_post, wall, latencies, statuses


def in_process(
    url: str, poster: Poster, limit: int, seconds: float
) -> tuple[int, float, list[float]]:
    league = League.open(url, LEAGUE)
    copier = league.copy_log_in_background()  # as a program posting live results does
    for _ in range(WARM_UP):  # uncounted, as before the posts over HTTP (a fresh copy's pages)
        assert league.import_games([record(poster.game())], source="bench").added == 1
    latencies: list[float] = []
    until = time.monotonic() + seconds
    t0 = time.perf_counter()
    while len(latencies) < limit and time.monotonic() < until:
        game = record(poster.game())
        t = time.perf_counter()
        report = league.import_games([game], source="bench")
        latencies.append(time.perf_counter() - t)
        assert report.added == 1, report
    wall = time.perf_counter() - t0
    if copier is not None:
        copier.close()
    league.engine.dispose()
    return len(latencies), wall, latencies


FLOOR_SCORES = {
    "decisive_victory": 1.0,
    "marginal_victory": 0.75,
    "draw": 0.5,
    "defeat": 0.0,
    "overwhelming_victory": 1.0,
}
"""The floors' score of the first side's outcome (a minimal script's plain Elo)."""


def _floor_connection(path: Path) -> sqlite3.Connection:
    """The floors' connection: the league's database settings (WAL, synchronous=NORMAL)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=60)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _floor_delta(first: float, second: float, outcome: str) -> float:
    """The first side's change, plain Elo with K = 32 (the second side's is its opposite)."""
    expected = 1 / (1 + 10 ** ((second - first) / 400))
    return 32 * (FLOOR_SCORES[outcome] - expected)


def floor(
    players: int, poster: Poster, limit: int, seconds: float
) -> tuple[int, float, list[float]]:
    """One SQLite transaction per game: store it, read and update its two players' ratings."""
    path = DATA / "run-floor.db"
    delete_sqlite_files(path)
    conn = _floor_connection(path)
    conn.execute(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, ext_id TEXT UNIQUE, date TEXT, "
        "a INTEGER, b INTEGER, oa TEXT, ob TEXT)"
    )
    conn.execute(
        "CREATE TABLE ratings (player TEXT PRIMARY KEY, rating REAL, games INTEGER) WITHOUT ROWID"
    )
    conn.executemany("INSERT INTO ratings VALUES (?, 1500, 0)", [(n,) for n in names(players)])
    latencies: list[float] = []
    until = time.monotonic() + seconds
    t0 = time.perf_counter()
    while len(latencies) < limit and time.monotonic() < until:
        g = poster.game()
        a, b = (s["players"][0] for s in g["sides"])
        t = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO games (ext_id, date, a, b, oa, ob) VALUES (?, ?, ?, ?, ?, ?)",
            (g["id"], g["date"], a, b, g["sides"][0]["outcome"], g["sides"][1]["outcome"]),
        )
        (ra, ga), (rb, gb) = (
            conn.execute("SELECT rating, games FROM ratings WHERE player = ?", (p,)).fetchone()
            for p in (a, b)
        )
        delta = _floor_delta(ra, rb, g["sides"][0]["outcome"])
        conn.execute(
            "UPDATE ratings SET rating = ?, games = ? WHERE player = ?", (ra + delta, ga + 1, a)
        )
        conn.execute(
            "UPDATE ratings SET rating = ?, games = ? WHERE player = ?", (rb - delta, gb + 1, b)
        )
        conn.execute("COMMIT")
        latencies.append(time.perf_counter() - t)
    wall = time.perf_counter() - t0
    conn.close()
    return len(latencies), wall, latencies


def floor_in_league(
    db: Path, poster: Poster, limit: int, seconds: float
) -> tuple[int, float, list[float]]:
    """The floor on the same data (the issue's "minimal script ... (same data)"): one SQLite
    transaction per game, in a copy of the league's own database, storing the game and its two
    players (``games``, ``side_players``, their indexes as the league has them), reading and
    updating their two ``ratings`` rows. Players' ids are known beforehand; no ledger, no
    journal, no check."""
    conn = _floor_connection(Path(sqlite_copy(db, "floor-league")))
    ((league_id,),) = conn.execute("SELECT id FROM leagues WHERE name = ?", (LEAGUE,))
    ids = dict(conn.execute("SELECT name, id FROM players WHERE league_id = ?", (league_id,)))
    ((seq,),) = conn.execute("SELECT max(seq) FROM games WHERE league_id = ?", (league_id,))
    latencies: list[float] = []
    until = time.monotonic() + seconds
    t0 = time.perf_counter()
    while len(latencies) < limit and time.monotonic() < until:
        g = poster.game()
        (a, oa), (b, ob) = ((ids[s["players"][0]], s["outcome"]) for s in g["sides"])
        seq += 1
        t = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        game_id = conn.execute(
            "INSERT INTO games (league_id, seq, ext_id, date, mode, rated, content_hash) "
            "VALUES (?, ?, ?, ?, '', 1, ?)",
            (league_id, seq, g["id"], g["date"], g["id"]),
        ).lastrowid
        conn.executemany(
            "INSERT INTO side_players (game_id, side_no, position, player_id, role, outcome) "
            "VALUES (?, ?, 1, ?, '', ?)",
            [(game_id, 1, a, oa), (game_id, 2, b, ob)],
        )
        found = dict(
            (pid, (rating, count))
            for pid, rating, count in conn.execute(
                "SELECT player_id, rating, games FROM ratings WHERE league_id = ? "
                "AND player_id IN (?, ?) AND mode = '' AND role = ''",
                (league_id, a, b),
            )
        )
        (ra, ga), (rb, gb) = found[a], found[b]
        delta = _floor_delta(ra, rb, oa)
        conn.executemany(
            "UPDATE ratings SET rating = ?, games = ? WHERE league_id = ? AND player_id = ? "
            "AND mode = '' AND role = ''",
            [(ra + delta, ga + 1, league_id, a), (rb - delta, gb + 1, league_id, b)],
        )
        conn.execute("COMMIT")
        latencies.append(time.perf_counter() - t)
    wall = time.perf_counter() - t0
    conn.close()
    return len(latencies), wall, latencies


PLAYER_INDEXES = ("ix_side_players_player", "ix_ledger_player")
"""The league's two indexes by player that a post's games touch all over (a player's games and
her rated changes): each new entry lands on its player's page."""


def floor_posts_in_league(
    db: Path, poster: Poster, posts: int, seconds: float, *, drop: Sequence[str] = ()
) -> tuple[int, float, list[float]]:
    """The floor of a post of 1,000 games on the league's own tables: one SQLite transaction a
    post, in a copy of the league's database, with its settings (WAL, ``synchronous=NORMAL``,
    its page cache), storing what an appended post must store and nothing else: the games
    (``games``, ``side_players``), two ledger rows a game (the columns a duel fills), the
    players' ``ratings`` rows read once and updated once; plain Elo computed in between, no
    parse, no check, no answer. The log is copied back between posts, untimed (a server does it
    in a thread of its own); the time is the posts' transactions only (the games are made
    between them). ``drop``: indexes dropped from the copy first (what they cost)."""
    path = Path(sqlite_copy(db, "floor-posts" + "-".join(("", *drop))))
    conn = _floor_connection(path)
    conn.execute(f"PRAGMA cache_size = -{CACHE_KB}")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    for index in drop:
        conn.execute(f"DROP INDEX {index}")
    ((league_id,),) = conn.execute("SELECT id FROM leagues WHERE name = ?", (LEAGUE,))
    ids = dict(conn.execute("SELECT name, id FROM players WHERE league_id = ?", (league_id,)))
    ((seq,),) = conn.execute("SELECT max(seq) FROM games WHERE league_id = ?", (league_id,))
    ((ledger_seq,),) = conn.execute("SELECT max(seq) FROM ledger WHERE league_id = ?", (league_id,))
    ((game_id,),) = conn.execute("SELECT max(id) FROM games")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    latencies: list[float] = []
    until = time.monotonic() + seconds
    while len(latencies) < posts and time.monotonic() < until:
        batch = [poster.game() for _ in range(1000)]
        t = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        wanted = sorted({ids[s["players"][0]] for g in batch for s in g["sides"]})
        pools = {
            pid: [rating, count]
            for pid, rating, count in conn.execute(
                "SELECT player_id, rating, games FROM ratings WHERE league_id = ? AND mode = '' "
                f"AND role = '' AND player_id IN ({','.join('?' * len(wanted))})",
                (league_id, *wanted),
            )
        }
        games_rows, sides, ledger_rows = [], [], []
        for g in batch:
            seq += 1
            game_id += 1
            (a, oa), (b, ob) = ((ids[s["players"][0]], s["outcome"]) for s in g["sides"])
            games_rows.append((game_id, league_id, seq, g["id"], g["date"], g["id"]))
            sides += [(game_id, 1, a, oa), (game_id, 2, b, ob)]
            delta = _floor_delta(pools[a][0], pools[b][0], oa)
            for pid, change, outcome in ((a, delta, oa), (b, -delta, ob)):
                ledger_seq += 1
                before = pools[pid][0]
                ledger_rows.append(
                    (league_id, ledger_seq, game_id, g["date"], pid, before, 32.0, change,
                     before + change, outcome)
                )  # fmt: skip
                pools[pid][0] += change
                pools[pid][1] += 1
        conn.executemany(
            "INSERT INTO games (id, league_id, seq, ext_id, date, mode, rated, content_hash) "
            "VALUES (?, ?, ?, ?, ?, '', 1, ?)",
            games_rows,
        )
        conn.executemany(
            "INSERT INTO side_players (game_id, side_no, position, player_id, role, outcome) "
            "VALUES (?, ?, 1, ?, '', ?)",
            sides,
        )
        conn.executemany(
            'INSERT INTO ledger (league_id, seq, game_id, date, player_id, mode, role, "before", '
            'k, delta, "after", warning, fired, outcome) '
            "VALUES (?, ?, ?, ?, ?, '', '', ?, ?, ?, ?, '', '', ?)",
            ledger_rows,
        )
        conn.executemany(
            "UPDATE ratings SET rating = ?, games = ? WHERE league_id = ? AND player_id = ? "
            "AND mode = '' AND role = ''",
            [(rating, count, league_id, pid) for pid, (rating, count) in pools.items()],
        )
        conn.execute("COMMIT")
        latencies.append(time.perf_counter() - t)
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # untimed: a server's thread copies it
    conn.close()
    delete_sqlite_files(path)
    return len(latencies) * 1000, sum(latencies), latencies


def pg_league(players: int, games: int) -> Iterator[str]:
    """A throwaway PostgreSQL server (the test suite's) holding the benchmark league; yields a
    function making a fresh copy of it (``CREATE DATABASE ... TEMPLATE``)."""
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from tests.pg.server import start_server

    for server in start_server():
        url = server.new_database()
        t = time.perf_counter()
        league = League.create(url, LEAGUE, "bataille-empire")
        league.import_file(source(players, games))
        league.engine.dispose()
        print(f"PostgreSQL league built in {time.perf_counter() - t:.0f} s", flush=True)
        yield url


def pg_copy(template: str, name: str) -> str:
    import psycopg

    from eloleague import league as league_module

    for engine in list(league_module._ENGINES.values()):
        engine.dispose()
    base, db = template.rsplit("/", 1)
    plain = base.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{db}"')
    return f"{base}/{name}"


def measurements(
    kind: str,
    copy: Callable[[str], str],
    args: argparse.Namespace,
    day: dt.date,
    floor_db: Path | None = None,
) -> list[Callable[[], dict[str, Any]]]:
    """Each measurement of one backend (``kind``, its leagues' ``copy``), to run in turn: each
    makes its own copy of the league and prints its summary. With ``floor_db`` (SQLite's league
    file), the posts of 1,000 games are followed at once by the floor of their rows on it and
    their figure over that floor: the two seconds apart, where the run's first floor was minutes
    before (this machine's speed moves within minutes, docs/benchmarks.md)."""

    def beside(row: dict[str, Any], label: str, what: str, measure: Callable[[], Measured]) -> None:
        """``measure`` a floor right after ``row`` and print ``row``'s figure over it."""
        n, wall, lat = measure()
        floor_row = summary(f"{kind}: {label}, right after", n, wall, lat)
        ratio = row["games_per_s"] / floor_row["games_per_s"]
        print(json.dumps({"what": f"{kind}: {what}", "ratio": round(ratio, 2)}), flush=True)

    def in_process_of(name: str, label: str, prefix: str, newcomers: bool) -> dict[str, Any]:
        poster = Poster(args.players, day, prefix, newcomers=newcomers)
        n, wall, lat = in_process(copy(name), poster, args.posts, args.seconds)
        row = summary(f"{kind}: {label}", n, wall, lat)
        if not newcomers and floor_db is not None:
            beside(
                row,
                "floor on the same data",
                f"{label} over the floor on the same data",
                lambda: floor_in_league(
                    floor_db, Poster(args.players, day, "G"), args.posts, args.seconds
                ),
            )
        return row

    steps: list[Callable[[], dict[str, Any]]] = [
        functools.partial(in_process_of, "inproc", "League.import_games, one game", "p", False),
        functools.partial(
            in_process_of,
            "inproc-new",
            "League.import_games, one game with a new player",
            "n",
            True,
        ),
    ]
    if args.skip_http:
        return steps
    kinds = [
        (1, 1, args.workers, "single-game posts, 1 client"),
        (8, 1, args.workers, "single-game posts, 8 clients"),
    ]
    if args.several_workers > 1 and args.several_workers != args.workers:
        several = f"single-game posts, 8 clients, {args.several_workers} workers"
        kinds.append((8, 1, args.several_workers, several))
    kinds.append((1, 1000, args.workers, "posts of 1,000 games, 1 client"))

    def over_http(
        client: str, clients: int, per_post: int, workers: int, label: str
    ) -> dict[str, Any]:
        url = copy(f"http{clients}x{per_post}w{workers}")
        server, base, auth = serve(url, workers)
        try:
            limit = args.posts if per_post == 1 else args.batch_games
            poster = Poster(args.players, day, f"h{clients}x{per_post}-")
            # Uncounted posts warm the server up first (imports, the league's rules, each worker's
            # page cache): WARM_UP games from as many clients (one post of 1,000 games).
            warm = per_post if per_post > 1 else WARM_UP
            posts(base, auth, poster, clients, per_post, warm, args.seconds, client)
            before = cpu_seconds(server.pid) if workers == 1 else None
            n, wall, lat, _statuses = posts(
                base, auth, poster, clients, per_post, limit, args.seconds, client
            )
            after = cpu_seconds(server.pid) if before is not None else None
        finally:
            server.terminate()
            server.wait(timeout=30)
        # one worker: the server's own process (PostgreSQL's work is in its server's processes)
        cpu = {}
        if before is not None and after is not None and lat:
            cpu["server_cpu_ms_a_post"] = round((after - before) * 1000 / len(lat), 3)
        row = summary(f"{kind}: {label} ({client})", n, wall, lat, cpu)
        if floor_db is None:
            return row
        if per_post == 1 and workers == args.workers:
            beside(
                row,
                f"HTTP floor of {label}",
                f"{label} ({client}) over the HTTP floor",
                lambda: http_floor(
                    Poster(args.players, day, f"H{clients}{client}"),
                    clients,
                    limit,
                    args.seconds,
                    client,
                ),
            )
        if per_post > 1:
            beside(
                row,
                "floor of their rows",
                f"{label} ({client}) over the floor of their rows",
                lambda: floor_posts_in_league(
                    floor_db, Poster(args.players, day, f"B{client}"), limit // 1000, 60
                ),
            )
        return row

    steps += [
        functools.partial(over_http, client, *what) for client in args.client for what in kinds
    ]
    return steps


def run_all(
    kind: str,
    copy: Callable[[str], str],
    args: argparse.Namespace,
    day: dt.date,
    floor_db: Path | None = None,
) -> list[dict[str, Any]]:
    """Every measurement of one backend, one after the other (``floor_db``: see
    :func:`measurements`)."""
    return [step() for step in measurements(kind, copy, args, day, floor_db)]


def in_pairs(
    on_file: Sequence[Callable[[], dict[str, Any]]],
    on_server: Sequence[Callable[[], dict[str, Any]]],
    server_first: bool,
) -> None:
    """Each measurement on SQLite and on PostgreSQL one right after the other (PostgreSQL's
    first when ``server_first``), then SQLite's figure over PostgreSQL's: the two figures of a
    ratio taken seconds apart, not a whole round apart (this machine's speed moves within
    minutes, docs/benchmarks.md)."""
    for sqlite_step, pg_step in zip(on_file, on_server, strict=True):
        if server_first:
            on_pg = pg_step()
            on_sqlite = sqlite_step()
        else:
            on_sqlite = sqlite_step()
            on_pg = pg_step()
        ratios([on_sqlite], [on_pg])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--posts", type=int, default=2_000, help="games per single-game run")
    parser.add_argument("--batch-games", type=int, default=20_000, help="games in 1,000s")
    parser.add_argument("--seconds", type=float, default=30, help="bound of each run")
    parser.add_argument("--pg", action="store_true", help="PostgreSQL too")
    parser.add_argument(
        "--rounds", type=int, default=1, help="with --pg: SQLite then PostgreSQL, this many times"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="with --pg: each measurement on SQLite then on PostgreSQL (PostgreSQL first in "
        "every second round), instead of a round of each",
    )
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--workers", type=int, default=1, help="eloleague serve --workers")
    parser.add_argument(
        "--several-workers",
        type=int,
        default=2,
        help="the 8 clients' posts again with this many workers (0: not)",
    )
    parser.add_argument(
        "--client",
        action="append",
        choices=CLIENTS,
        help="the HTTP client of the posts (repeat for both; default: both)",
    )
    parser.add_argument(
        "--lived",
        type=int,
        default=0,
        help="also measure SQLite on the league after this many games appended live",
    )
    args = parser.parse_args()
    args.client = args.client or list(CLIENTS)
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        measure(args)
    finally:  # each measurement's copy of the league (half a gigabyte each on a million games)
        for copy in DATA.glob("run-*"):
            copy.unlink(missing_ok=True)


def measure(args: argparse.Namespace) -> None:
    """Every measurement ``args`` asks for (see the module), each on a copy of the league."""
    db = build_sqlite(args.players, args.games)
    day = last_day(args.games)
    n, wall, lat = floor(args.players, Poster(args.players, day, "f"), args.posts * 5, args.seconds)
    summary("floor: one SQLite transaction per game", n, wall, lat)
    n, wall, lat = floor_in_league(db, Poster(args.players, day, "F"), args.posts, args.seconds)
    summary(
        "floor on the same data: one SQLite transaction per game, the league's tables", n, wall, lat
    )
    posts_of_1000 = args.batch_games // 1000
    n, wall, lat = floor_posts_in_league(db, Poster(args.players, day, "B"), posts_of_1000, 60)
    summary("floor of posts of 1,000 games: their rows alone, the league's tables", n, wall, lat)
    n, wall, lat = floor_posts_in_league(
        db, Poster(args.players, day, "b"), posts_of_1000, 60, drop=PLAYER_INDEXES
    )
    summary("the same without the two indexes by player", n, wall, lat)
    on_sqlite = functools.partial(sqlite_copy, db)
    if not args.pg:
        run_all("SQLite", on_sqlite, args, day, db)
    if args.lived:
        lived = lived_sqlite(db, args.players, day, args.lived)
        label = f"SQLite after {args.lived:,} live games"
        run_all(label, lambda name: sqlite_copy(lived, f"lived-{name}"), args, day, lived)
    if args.pg:
        for template in pg_league(args.players, args.games):
            on_server = functools.partial(pg_run_copy, template)
            for round_no in range(args.rounds):
                if args.paired:  # each ratio from two measurements made one right after the other
                    in_pairs(
                        measurements("SQLite", on_sqlite, args, day, db),
                        measurements("PostgreSQL", on_server, args, day),
                        server_first=round_no % 2 == 1,
                    )
                else:  # a round of SQLite's measurements, then one of PostgreSQL's
                    on_file = run_all("SQLite", on_sqlite, args, day, db)
                    ratios(on_file, run_all("PostgreSQL", on_server, args, day))


def ratios(on_sqlite: Sequence[dict[str, Any]], on_pg: Sequence[dict[str, Any]]) -> None:
    """SQLite's games a second over PostgreSQL's, for each measurement both made (the issue's
    target: within a factor 2)."""
    by_what = {row["what"].split(": ", 1)[1]: row for row in on_sqlite}
    for row in on_pg:
        what = row["what"].split(": ", 1)[1]
        mine, theirs = by_what.get(what, {}).get("games_per_s"), row["games_per_s"]
        if mine and theirs:
            print(
                json.dumps(
                    {"what": f"SQLite over PostgreSQL: {what}", "ratio": round(mine / theirs, 2)}
                ),
                flush=True,
            )


def pg_run_copy(template: str, name: str) -> str:
    return pg_copy(template, f"run_{name}")


if __name__ == "__main__":
    main()
