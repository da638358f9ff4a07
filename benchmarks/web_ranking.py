"""Web benchmark: the ranking page and the ranking API under load, a player's page, the events'
page, the leagues' summaries, several players' ratings and a game's odds (docs/benchmarks.md,
"Web site").

    .venv/bin/python benchmarks/web_ranking.py [--players 10000] [--games 1000000]
        [--requests 2000] [--seconds 60] [--concurrency 4]

A league of ``--players`` players and ``--games`` two-player games (bataille-empire rules, events
of 100 games over about fourteen years, so seasons and inactivity apply) is built once into
``benchmarks/data/`` (git-ignored) with the league service. Then ``eloleague serve`` runs in its own
process on 127.0.0.1 and this process sends the requests (bounded in count and in time): for each
URL, a sequential run for latency (median, 95th percentile) and a concurrent run for requests per
second. Only the loopback interface is used.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import httpx

from eloleague.league import League
from eloleague.store.db import delete_sqlite_files

DATA = Path(__file__).parent / "data"
OUTCOMES = (
    ("decisive_victory", "defeat"),
    ("marginal_victory", "defeat"),
    ("draw", "draw"),
    ("defeat", "overwhelming_victory"),
    ("defeat", "marginal_victory"),
)
LEAGUE = "Bench"


def generate(path: Path, games: int, players: int, per_event: int = 200) -> None:
    """Deterministic games: events of ``per_event`` games, one event every ~5 days."""
    rng = random.Random(players * 1_000_003 + games)
    names = [f"Joueur {n:05d}" for n in range(players)]
    start = dt.date(2012, 1, 7)
    with path.open("w", encoding="utf-8") as out:
        for n in range(games):
            event = n // per_event
            a, b = rng.sample(names, 2)
            oa, ob = rng.choice(OUTCOMES)
            obj = {
                "id": f"g{n}",
                "date": (start + dt.timedelta(days=event)).isoformat(),
                "event": f"Event {event}",
                "round": n % per_event // 20 + 1,
                "sides": [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}],
            }
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def build(players: int, games: int) -> Path:
    """The benchmark league's database, built once."""
    DATA.mkdir(parents=True, exist_ok=True)
    db = DATA / f"web-{players}x{games}.db"
    if db.exists():
        return db
    source = DATA / f"web-{players}x{games}.jsonl"
    if not source.exists():
        print(f"generating {games:,} games of {players:,} players…", flush=True)
        generate(source, games, players)
    partial = db.with_suffix(".partial.db")
    delete_sqlite_files(partial)
    print("importing (once)…", flush=True)
    t = time.perf_counter()
    league = League.create(str(partial), LEAGUE, "bataille-empire")
    league.import_file(source)
    with league.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    league.engine.dispose()
    print(f"imported in {time.perf_counter() - t:.0f} s", flush=True)
    partial.rename(db)
    delete_sqlite_files(partial)  # what was left beside it (the writers' turn file)
    return db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(base: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/v1/leagues", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start")


Request = str | tuple[str, dict[str, object]]
"""A URL to get, or a URL and the JSON body to post to it."""


def send(client: httpx.Client, what: Request) -> httpx.Response:
    if isinstance(what, str):
        return client.get(what)
    url, body = what
    return client.post(url, json=body)


def sequential(client: httpx.Client, url: Request, count: int, until: float) -> list[float]:
    out = []
    for _ in range(count):
        if time.monotonic() > until:
            break
        t = time.perf_counter()
        got = send(client, url)
        out.append(time.perf_counter() - t)
        if got.status_code != 200:
            raise SystemExit(f"{url}: HTTP {got.status_code}")
    return out


def concurrent(
    base: str, url: Request, count: int, workers: int, until: float
) -> tuple[int, float]:
    done = [0]
    lock = threading.Lock()

    def work() -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            while time.monotonic() < until:
                with lock:
                    if done[0] >= count:
                        return
                    done[0] += 1
                if send(client, url).status_code != 200:
                    raise SystemExit(f"{url}: error")

    t = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(workers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return done[0], time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000, help="per URL and run")
    parser.add_argument("--seconds", type=float, default=60, help="at most, per URL and run")
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    db = build(args.players, args.games)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "ELOLEAGUE_SECRET": "benchmark-" + "z" * 40}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eloleague",
            "serve",
            "--db",
            str(db),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_up(base, time.monotonic() + 60)
        league = quote(LEAGUE)
        some = "Joueur 00042"
        urls: dict[str, Request] = {
            "ranking page (first page, 50 rows)": f"/leagues/{league}",
            "ranking API (first page, 50 rows)": f"/api/v1/leagues/{league}/ranking",
            "ranking page 100 (rows 4951-5000)": f"/leagues/{league}?page=100",
            "ranking API, name search": f"/api/v1/leagues/{league}/ranking?q=Joueur%200004",
            "player API (200 games, history)": f"/api/v1/leagues/{league}/players/{quote(some)}",
            "player page (200 games, chart, head-to-head)": f"/leagues/{league}/players/"
            + quote(some),
            "events page (5,000 events, newest first)": f"/leagues/{league}/events",
            "leagues API (each league's top and latest event)": "/api/v1/leagues",
            "ratings of eight players (a lobby)": f"/api/v1/leagues/{league}/ratings?"
            + "&".join(f"player=Joueur%20{n:05}" for n in range(42, 50)),
            "odds of a game (predict, two players)": (
                f"/api/v1/leagues/{league}/predict",
                {"sides": [[some], ["Joueur 00043"]]},
            ),
        }
        print(
            f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, {dt.date.today().isoformat()}; "
            f"league: {args.players:,} players, {args.games:,} games (SQLite {db.stat().st_size / 1e6:.0f} MB)"
        )
        print(
            "| request | requests | median ms | p95 ms | requests/s ("
            + str(args.concurrency)
            + " clients) |"
        )
        print("| --- | --- | --- | --- | --- |")
        with httpx.Client(base_url=base, timeout=30) as client:
            for name, url in urls.items():
                send(client, url)  # warm up
                times = sequential(client, url, args.requests, time.monotonic() + args.seconds)
                median = statistics.median(times) * 1000
                p95 = statistics.quantiles(times, n=20)[-1] * 1000
                count, took = concurrent(
                    base, url, args.requests, args.concurrency, time.monotonic() + args.seconds
                )
                print(
                    f"| {name} | {len(times)} | {median:.1f} | {p95:.1f} | {count / took:.0f} |",
                    flush=True,
                )
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
