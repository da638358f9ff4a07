"""League database benchmark: import 1,000,000 two-player games into SQLite, recompute them all,
then add one event of 100 games (docs/benchmarks.md, "League database").

    .venv/bin/python benchmarks/league_import.py [--games 1000000] [--db benchmarks/data/bench.db]

The games file is generated once into benchmarks/data/ (git-ignored): events of 100 games on
consecutive days, 2,000 players, bataille-empire rules. Each step prints its wall-clock and CPU
time and where the CPU time went (phases measured by wrapping the store's functions; the remainder
is "other": planning, players, content hashes, sorting, checkpoints).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from eloleague import league as league_module
from eloleague.engine import fast
from eloleague.league import League
from eloleague.store import bulk, db, imports, recompute
from eloleague.store.db import delete_sqlite_files

OUTCOMES = [
    ("decisive_victory", "defeat"),
    ("marginal_victory", "defeat"),
    ("draw", "draw"),
    ("defeat", "overwhelming_victory"),
    ("defeat", "marginal_victory"),
]


def generate(
    path: Path,
    games_count: int,
    players: int = 2000,
    per_event: int = 100,
    start: dt.date = dt.date(1990, 1, 1),
    first_id: int = 0,
) -> None:
    """Write ``games_count`` two-player games as JSON Lines: events of ``per_event`` games, one
    a day."""
    rng = random.Random(games_count + first_id)
    names = [f"Joueur {n:04d}" for n in range(players)]
    with path.open("w", encoding="utf-8") as out:
        for n in range(games_count):
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


# Phases: (module, function name, label). Nested phases are not double-counted: only the
# outermost wrapped call running at a time is charged.
PHASES = [
    (league_module, "read_games", "read + check the file"),
    (imports, "load_games", "load stored games"),
    (recompute, "load_games", "load stored games"),
    (imports, "insert_games", "insert games and players"),
    (recompute, "replay", "engine replay"),
    (recompute, "write_ledger", "write the ledger"),
    (recompute, "drop_ledger_from", "delete old ledger rows"),
    (bulk, "_rebuild", "rebuild indexes"),
    (db, "_commit", "commit"),
]


class Phases:
    """CPU time per phase while the block runs (the machine may be shared: CPU time is what this
    process itself spent)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._depth = 0

    def wrap(self, func: Callable[..., Any], name: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return func(*args, **kwargs)
            self._depth += 1
            start = time.process_time()
            try:
                return func(*args, **kwargs)
            finally:
                self.spent[name] += time.process_time() - start
                self._depth -= 1

        return timed

    @contextmanager
    def measuring(self) -> Iterator[None]:
        saved = []
        for module, attr, name in PHASES:
            if hasattr(module, attr):
                saved.append((module, attr, getattr(module, attr)))
                setattr(module, attr, self.wrap(getattr(module, attr), name))
        try:
            yield
        finally:
            for module, attr, func in saved:
                setattr(module, attr, func)

    def report(self, total: float) -> str:
        parts = [f"{name} {spent:.1f}" for name, spent in self.spent.items() if spent >= 0.05]
        other = total - sum(self.spent.values())
        return "; ".join([*parts, f"other {other:.1f}"])


def step(label: str, action: Callable[[], str]) -> None:
    phases = Phases()
    with phases.measuring():
        start, cpu = time.perf_counter(), time.process_time()
        detail = action()
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{label}{detail}: {took:.2f} s (CPU {cpu:.2f} s)")
    print(f"    CPU: {phases.report(cpu)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games in the league")
    parser.add_argument(
        "--db",
        default="benchmarks/data/bench.db",
        help="SQLite file to create, or the URL of an empty PostgreSQL database",
    )
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
    sqlite = "://" not in args.db
    path = Path(args.db)
    if sqlite:
        delete_sqlite_files(path)

    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {dt.date.today().isoformat()}, "
        f"engine fast path: {'yes' if fast.available() else 'no'}"
    )
    league = League.create(args.db, "bench", "bataille-empire")
    League.open(args.db).players()  # migrations and imports done before timing

    def full_import() -> str:
        report = league.import_file(source)
        return f"import {report.added:,} games"

    def full_recompute() -> str:
        league.recompute()
        return f"full recompute of {args.games:,} games"

    def one_event() -> str:
        report = league.import_file(extra)
        return f"add one event of {report.added} games (replayed {report.replayed})"

    step("", full_import)
    step("", full_recompute)
    if sqlite:
        with league.engine.connect() as conn:  # the recompute's write-ahead log, folded back
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    step("", one_event)
    if sqlite:
        print(f"database size: {path.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
