"""Live results counted in instructions: what an appended game costs, whatever the machine's speed
of the moment (docs/benchmarks.md, "Live results", "In instructions").

    .venv/bin/python benchmarks/live_instructions.py [--players 10000] [--games 1000000]
        [--few 50] [--many 450] [--posts-few 1] [--posts-many 5] [--server-posts 300]
        [--server-only]

This machine's speed moves by up to three times within an hour, and the timed figures of
``benchmarks/live_api.py`` with it: a change worth 2 % of a post cannot be told from the noise
there. Valgrind's callgrind counts the instructions a process runs: a process's count moves by
about 0.1 % from one run to the next, a game's below 1 %. Each measurement runs twice, each time
in a fresh process under callgrind, on a fresh copy of the benchmark's league
(``live_api.build_sqlite``): once with ``--few`` games after the uncounted warming, once with
``--many``; the difference of the two counts over the games between them is one game's, start-up
and warming left out. Measured:

- ``League.import_games`` of one appended game, in-process, the log copied in the background
  (as ``live_api``'s in-process figure), and the floor on the same data
  (``live_api.floor_in_league``: one SQLite transaction a game storing it and its two ratings);
- a post of 1,000 games in-process as the API takes it (the body parsed and checked, the games
  imported, the answer built and encoded: ``web/uploads.py``), and the floor of their rows
  (``live_api.floor_posts_in_league``), likewise;
- a single-game post over HTTP, in ``eloleague serve``'s process (``live_api.serve``, one client
  of ``http.client``): the server runs under callgrind with its counting turned on for the
  counted posts only (``--server-posts``, after uncounted ones), so nothing is subtracted:
  everything the process does meanwhile is the posts' (its threads included; ``--server-only``
  measures only that, in about a minute).

Instructions are not time: the kernel's work (the log's writes, its syncs) is not counted, nor
what a cache miss costs. A floor's time is mostly its commits, so its instructions over a path's
are no reading of the issue's targets (one game: about 0.10 in instructions where the timed share
is about 0.24); the timed figures stay those of ``live_api.py``. What this counts is eloleague's
own work, for comparing two versions of it. Needs ``valgrind`` (Debian: ``apt-get install
valgrind``); the compiled rating kernel is loaded once without it first, so that numba's
compilation, cached on disk, is never counted. About ten minutes on the million-game league.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec

from eloleague.league import League
from eloleague.web import uploads

sys.path.insert(0, str(Path(__file__).parent))

import live_api as B  # the league and the floors of the timed benchmark

KINDS = {
    "game": "League.import_games of one appended game, in-process",
    "floor": "floor on the same data: one SQLite transaction per game",
    "post": "a post of 1,000 games, in-process (parse, import, answer)",
    "floor-post": "floor of posts of 1,000 games: their rows alone",
}
WARM = {"game": 100, "floor": 100, "post": 2, "floor-post": 1}
"""Uncounted games (posts for the posts) before the counted ones, in both runs."""


def inner(kind: str, count: int, players: int, games: int) -> None:
    """The work one process does under callgrind: ``WARM[kind]`` then ``count`` more."""
    db = B.build_sqlite(players, games)
    poster = B.Poster(players, B.last_day(games), "C")
    if kind == "floor":
        B.floor_in_league(db, poster, WARM[kind] + count, 1e9)
    elif kind == "floor-post":
        B.floor_posts_in_league(db, poster, WARM[kind] + count, 1e9)
    else:
        _league_path(kind, count, db, poster)
    for leftover in B.DATA.glob("run-*"):
        leftover.unlink(missing_ok=True)


def _league_path(kind: str, count: int, db: Path, poster: B.Poster) -> None:
    league = League.open("sqlite:///" + B.sqlite_copy(db, "instructions"), B.LEAGUE)
    copier = league.copy_log_in_background()
    try:
        if kind == "game":
            for _ in range(WARM[kind] + count):
                league.import_games([B.record(poster.game())], source="bench")
            return
        bodies = [
            json.dumps([poster.game() for _ in range(1000)]).encode()
            for _ in range(WARM[kind] + count)
        ]
        for body in bodies:
            records = uploads.games_from_body(league, body)
            report = league.import_games(records, source="api", _checked=True, content_hash=None)
            msgspec.json.encode({"status": "imported", **uploads.report_dict(league, report, "en")})
    finally:
        copier.close()


def counted(kind: str, count: int, args: argparse.Namespace) -> int:
    """The instructions of a fresh process doing :func:`inner`, counted by callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--inner",
        kind,
        str(count),
        "--players",
        str(args.players),
        "--games",
        str(args.games),
    ]
    env = {**os.environ, **SAME_RUNS}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : ([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


SAME_RUNS = {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
"""The same hashes in every run; OpenBLAS's idle threads (numpy's) spin, and would be counted."""

SERVER_WARM = 100
"""Single-game posts the server answers before its instructions are counted."""


def served_post(posts: int, args: argparse.Namespace) -> float:
    """The instructions of ``eloleague serve``'s process (one worker, its threads included) per
    single-game post from one ``http.client`` client, as ``live_api.py`` posts them: the server
    runs under callgrind with its counting off, turned on (``callgrind_control``) for ``posts``
    posts after :data:`SERVER_WARM` uncounted ones, then off; start-up and stop left out."""
    db = B.build_sqlite(args.players, args.games)
    url = "sqlite:///" + B.sqlite_copy(db, "instructions-serve")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        valgrind = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            f"--log-file={Path(scratch) / 'valgrind.log'}",
        ]
        server, base, auth = B.serve(url, under=valgrind, env=SAME_RUNS, start_seconds=900)
        try:
            poster = B.Poster(args.players, B.last_day(args.games), "S")
            B.posts(base, auth, poster, 1, 1, SERVER_WARM, 3600)
            _counting(server.pid, "on")
            answered, *_ = B.posts(base, auth, poster, 1, 1, posts, 3600)
            _counting(server.pid, "off")
        finally:
            server.terminate()
            server.wait(timeout=300)
            for leftover in B.DATA.glob("run-*"):
                leftover.unlink(missing_ok=True)
        found = re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)
    if found is None or answered != posts:
        raise SystemExit(f"callgrind counted no server posts ({answered} of {posts} answered)")
    return int(found.group(1)) / posts


def _counting(pid: int, state: str) -> None:
    """Turn callgrind's counting in process ``pid`` on or off."""
    subprocess.run(["callgrind_control", "-i", state, str(pid)], check=True, capture_output=True)


def per_game(kind: str, args: argparse.Namespace) -> float:
    """One game's instructions (a post's, for the posts, over its 1,000 games)."""
    few, many = (args.posts_few, args.posts_many) if "post" in kind else (args.few, args.many)
    games_each = 1000 if "post" in kind else 1
    difference = counted(kind, many, args) - counted(kind, few, args)
    return difference / ((many - few) * games_each)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Instructions per appended game and per game of a post of 1,000, beside "
        "their floors, and per single-game post in the server's process, counted by callgrind "
        '(docs/benchmarks.md, "Live results").'
    )
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--few", type=int, default=50, help="counted games, first run")
    parser.add_argument("--many", type=int, default=450, help="counted games, second run")
    parser.add_argument("--posts-few", type=int, default=1, help="counted posts, first run")
    parser.add_argument("--posts-many", type=int, default=5, help="counted posts, second run")
    parser.add_argument(
        "--server-posts",
        type=int,
        default=300,
        help="single-game posts counted in the server's process (0: not measured)",
    )
    parser.add_argument(
        "--server-only", action="store_true", help="only the server's posts (about a minute)"
    )
    parser.add_argument("--inner", nargs=2, metavar=("KIND", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args.inner[0], int(args.inner[1]), args.players, args.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (Debian: apt-get install valgrind)")
    print(
        f"{platform.machine()}, Python {platform.python_version()}, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, league of {args.games:,} games",
        flush=True,
    )
    inner("post", 0, args.players, args.games)  # numba's compilation cached, never counted
    if not args.server_only:
        counts = {}
        for kind, label in KINDS.items():
            counts[kind] = per_game(kind, args)
            print(f"{label}: {counts[kind] / 1e3:,.0f} thousand instructions a game", flush=True)
        # not the timed shares: the floors' time is mostly the kernel's (their commits), uncounted
        print(
            f"floors' instructions over the paths': one game "
            f"{counts['floor'] / counts['game']:.3f}, "
            f"posts of 1,000 games {counts['floor-post'] / counts['post']:.3f}",
            flush=True,
        )
    if args.server_posts > 0:
        served = served_post(args.server_posts, args)
        print(
            "a single-game post to eloleague serve, one client (http.client), the server's "
            f"process: {served / 1e3:,.0f} thousand instructions a post"
        )


if __name__ == "__main__":
    main()
