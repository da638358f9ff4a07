"""Checking a league benchmark: ``League.verify`` and ``League.recompute`` on the live results
benchmark's league (docs/benchmarks.md, "Checking a league").

    .venv/bin/python benchmarks/verify_league.py [--players 10000] [--games 1000000]

On a copy of ``benchmarks/live_api.py``'s league (built there once, git-ignored), in turn: the
floor, a full replay of the league's games as ``League.replay_result`` makes it (what a
verification is made of: reading the games and rating them); ``League.verify`` (the same replay,
then the stored history, ratings and live state read and compared with it); the same with the
reference engine when ``--reference``; and ``League.recompute`` (the replay, every derived table
written again). Each line gives its seconds and the process's peak memory so far.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import live_api  # the league of the live results benchmark

from eloleague.league import League


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def timed(what: str, step: object) -> None:
    t = time.perf_counter()
    result = step() if callable(step) else None
    extra = {"agrees": result.agrees} if hasattr(result, "agrees") else {}
    print(
        json.dumps(
            {"what": what, "seconds": round(time.perf_counter() - t, 1), "peak_mb": peak_mb()}
            | extra
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--reference", action="store_true", help="verify with the reference too")
    args = parser.parse_args()
    db = live_api.build_sqlite(args.players, args.games)
    url = "sqlite:///" + live_api.sqlite_copy(db, "verify")
    try:
        league = League.open(url, live_api.LEAGUE)
        timed("floor: the full replay (League.replay_result)", league.replay_result)
        timed("League.verify", league.verify)
        if args.reference:
            timed("League.verify(reference=True)", lambda: league.verify(reference=True))
        timed("League.recompute", league.recompute)
        timed("League.verify after the recompute", league.verify)
        league.engine.dispose()
    finally:
        for copy in live_api.DATA.glob("run-verify*"):
            copy.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
