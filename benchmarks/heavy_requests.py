"""Heavy requests beside the ranking (docs/benchmarks.md, "Heavy requests").

    .venv/bin/python benchmarks/heavy_requests.py [--players 2000] [--games 100000]
        [--readers 8] [--seconds 20] [--workers 1]

The league of ``benchmarks/web_ranking.py`` (built once into ``benchmarks/data/``) is served by
``eloleague serve`` in its own process on 127.0.0.1. ``--readers`` clients read the first page of
the ranking API without pause, first on an idle server (the floor of this run), then while one
officer client sends, one after the other without pause, each kind of heavy request: a 150 KB
JSON Lines dry run, a 5 MB one (about 28,000 games), a workbook of 200,000 rows and an xlsx "zip
bomb" (a sheet that inflates to 1 GB), both refused by the readers' bounds. For each phase: the
readers' median and 95th percentile, and how many heavy requests were answered (with their
statuses). Only the loopback interface is used; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from web_ranking import LEAGUE, build, free_port, wait_up

from eloleague import accounts
from eloleague.league import engine_for

OFFICER = "Bench officer"
PASSWORD = "benchmark password"


def games_body(size: int) -> bytes:
    """Valid JSON Lines games (new players) up to ``size`` bytes."""
    lines, total, n = [], 0, 0
    while total < size:
        game = {
            "id": f"heavy-{n}",
            "date": "2026-01-05",
            "event": f"Heavy {n // 100}",
            "sides": [
                {"players": [f"Heavy {n}"], "outcome": "defeat"},
                {"players": [f"Heavy {n + 1}"], "outcome": "marginal_victory"},
            ],
        }
        line = json.dumps(game)
        lines.append(line)
        total += len(line) + 1
        n += 1
    return "\n".join(lines).encode()


def many_rows_workbook(rows: int) -> bytes:
    """A small workbook (about 1 MB) whose sheet holds ``rows`` rows of one number each."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Résultats")
    for n in range(rows):
        sheet.append([n])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def zip_bomb() -> bytes:
    """A real workbook whose sheet is replaced by one that inflates to 1 GB of blanks (about
    1 MB compressed): every other part of the archive is intact."""
    book = many_rows_workbook(3)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(book)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z,
    ):
        for item in source.infolist():
            if item.filename.startswith("xl/worksheets/"):
                with z.open(item.filename, "w", force_zip64=True) as member:
                    block = b" " * (1 << 20)
                    for _ in range(1024):
                        member.write(block)
            else:
                z.writestr(item, source.read(item.filename))
    return out.getvalue()


def read_ranking(base: str, url: str, until: float, times: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < until:
            t = time.perf_counter()
            got = client.get(url)
            times.append(time.perf_counter() - t)
            if got.status_code != 200:
                raise SystemExit(f"{url}: HTTP {got.status_code}")


def send_heavy(
    base: str, request: dict[str, object], stop: threading.Event, statuses: Counter[int]
) -> None:
    with httpx.Client(base_url=base, timeout=600) as client:
        if "files" in request:  # a page upload: signed in, with the form's CSRF token
            request = {**request, "data": {"csrf_token": sign_in(client)}}
        while not stop.is_set():
            got = client.post(**request)  # type: ignore[arg-type]
            statuses[got.status_code] += 1


def sign_in(client: httpx.Client) -> str:
    """Sign the benchmark's officer in; the session's CSRF token."""

    def csrf(page: str) -> str:
        found = re.search(r'name="csrf_token" value="([^"]+)"', page)
        if found is None:
            raise SystemExit("no CSRF token on the page")
        return found.group(1)

    token = csrf(client.get("/login").text)
    client.post("/login", data={"name": OFFICER, "password": PASSWORD, "csrf_token": token})
    return csrf(client.get(f"/leagues/{quote(LEAGUE)}/upload").text)


def phase(base: str, readers: int, seconds: float, request: dict[str, object] | None) -> str:
    url = f"/api/v1/leagues/{quote(LEAGUE)}/ranking"
    times: list[float] = []
    statuses: Counter[int] = Counter()
    stop = threading.Event()
    heavy = None
    if request is not None:
        heavy = threading.Thread(target=send_heavy, args=(base, request, stop, statuses))
        heavy.start()
        time.sleep(0.5)  # the first heavy request is under way
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=read_ranking, args=(base, url, until, times))
        for _ in range(readers)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    stop.set()
    if heavy is not None:
        heavy.join()
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    answered = ", ".join(f"{n} × {code}" for code, n in sorted(statuses.items())) or "—"
    return f"{len(times)} | {statistics.median(times) * 1000:.1f} | {p95:.1f} | {answered}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=1, help="eloleague serve --workers")
    args = parser.parse_args()
    db = build(args.players, args.games)
    engine = engine_for(str(db))
    if OFFICER not in {u.name for u in accounts.list_users(engine)}:
        accounts.add_user(engine, OFFICER, PASSWORD, "officer")
    token = accounts.create_token(engine, OFFICER)
    engine.dispose()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eloleague",
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
            "--workers",
            str(args.workers),
        ],
        env={**os.environ, "ELOLEAGUE_SECRET": "benchmark-" + "z" * 40},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    auth = {"Authorization": f"Bearer {token}"}
    preview = f"/api/v1/leagues/{quote(LEAGUE)}/games/preview"
    upload = f"/leagues/{quote(LEAGUE)}/upload"
    cases: list[tuple[str, dict[str, object] | None]] = [
        ("idle server (floor)", None),
        (
            "150 KB JSON Lines dry runs",
            {"url": preview, "content": games_body(150_000), "headers": auth},
        ),
        (
            "5 MB JSON Lines dry runs",
            {"url": preview, "content": games_body(4_900_000), "headers": auth},
        ),
        (
            "200,000-row workbook uploads",
            {"url": upload, "files": {"sheet": ("rows.xlsx", many_rows_workbook(200_000))}},
        ),
        ("xlsx zip bomb uploads", {"url": upload, "files": {"sheet": ("bomb.xlsx", zip_bomb())}}),
    ]
    try:
        wait_up(base, time.monotonic() + 60)
        print(
            f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, {dt.date.today().isoformat()}; league: "
            f"{args.players:,} players, {args.games:,} games; {args.readers} readers, "
            f"{args.seconds:.0f} s a phase; {args.workers} server worker(s); "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        print("| beside | ranking reads | median ms | p95 ms | heavy requests answered |")
        print("| --- | --- | --- | --- | --- |")
        for name, request in cases:
            print(f"| {name} | {phase(base, args.readers, args.seconds, request)} |", flush=True)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
