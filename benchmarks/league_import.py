"""League database benchmark: import 1,000,000 two-player games into SQLite, recompute them all,
then add one event of 100 games (docs/benchmarks.md, "League database").

    .venv/bin/python benchmarks/league_import.py [--games 1000000] [--db benchmarks/data/bench.db]

The games file is generated once into benchmarks/data/ (git-ignored): events of 100 games on
consecutive days, 2,000 players, bataille-empire rules.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import time
from pathlib import Path

from eloleague.league import League

OUTCOMES = [
    ("decisive_victory", "defeat"),
    ("marginal_victory", "defeat"),
    ("draw", "draw"),
    ("defeat", "overwhelming_victory"),
    ("defeat", "marginal_victory"),
]


def generate(
    path: Path,
    games: int,
    players: int = 2000,
    per_event: int = 100,
    start: dt.date = dt.date(1990, 1, 1),
    first_id: int = 0,
) -> None:
    rng = random.Random(games + first_id)
    names = [f"Joueur {n:04d}" for n in range(players)]
    with path.open("w", encoding="utf-8") as out:
        for n in range(games):
            event = n // per_event
            a, b = rng.sample(names, 2)
            oa, ob = rng.choice(OUTCOMES)
            obj = {
                "id": f"g{first_id + n}",
                "date": (start + dt.timedelta(days=event)).isoformat(),
                "event": f"Event {first_id // per_event + event}",
                "round": n % per_event // 10,
                "sides": [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}],
            }
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--db", default="benchmarks/data/bench.db")
    args = parser.parse_args()
    folder = Path("benchmarks/data")
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / f"league-{args.games}.jsonl"
    if not source.exists():
        generate(source, args.games)
    days = -(-args.games // 100)
    extra = folder / f"league-{args.games}-extra.jsonl"
    generate(
        extra, 100, start=dt.date(1990, 1, 1) + dt.timedelta(days=days + 1), first_id=args.games
    )
    db = Path(args.db)
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)

    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {dt.date.today().isoformat()}"
    )
    league = League.create(str(db), "bench", "bataille-empire")
    t = time.perf_counter()
    report = league.import_file(source)
    took = time.perf_counter() - t
    print(f"import {report.added:,} games (parse, check, store, rate, ledger): {took:.1f} s")

    t = time.perf_counter()
    league.recompute()
    print(f"full recompute of {report.added:,} games: {time.perf_counter() - t:.1f} s")

    with league.engine.connect() as conn:  # the recompute's write-ahead log, folded back
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    t = time.perf_counter()
    small = league.import_file(extra)
    print(
        f"add one event of {small.added} games (replayed {small.replayed}): "
        f"{time.perf_counter() - t:.2f} s"
    )
    print(f"database size: {db.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
