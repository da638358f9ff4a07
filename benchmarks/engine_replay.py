"""Engine replay speed: the full engine against a bare Elo loop, timed in the same run.

    .venv/bin/python benchmarks/engine_replay.py            # 1,000,000 duels, 100,000 Diplomacy
    .venv/bin/python benchmarks/engine_replay.py --duels 200000 --ffa 20000

Games are generated deterministically (``benchmarks/engine_games.py``) as the records a reader
builds, then rated by:

- a bare Elo loop (divisor 400, K 32, a dict of ratings) over the same records;
- ``replay(rules, games)``: the engine as every caller gets it (the compiled fast path);
- ``replay(..., reference=True)``: the pure-Python reference path, on a slice of the games.

Figures are games per second; the engine's time includes turning records into arrays and back
into pools, a ledger and a resumable state. The ledger is kept as columns: reading every entry as
a ``LedgerEntry`` object is timed apart. The compiled kernel is loaded (or compiled, the first time
on a machine) before the timings; ``benchmarks/rate_cli.py`` measures that first run.
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine_games import duel_rows, ffa_rows, to_record

from eloleague.engine import replay
from eloleague.records import GameRecord
from eloleague.rules import load_rules

WIN = {"defeat": 0.0, "draw": 0.5}


def bare_elo(games: Sequence[GameRecord]) -> dict[str, float]:
    """The textbook loop: two players, divisor 400, K 32, ratings in a dict."""
    ratings: dict[str, float] = {}
    get = ratings.get
    for game in games:
        a, b = game.sides
        pa = a.players[0].name
        pb = b.players[0].name
        ra = get(pa, 1500.0)
        rb = get(pb, 1500.0)
        ea = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
        delta = 32.0 * (WIN.get(a.outcome or "", 1.0) - ea)
        ratings[pa] = ra + delta
        ratings[pb] = rb - delta
    return ratings


def bare_elo_tuples(games: Sequence[tuple[str, str, float]]) -> dict[str, float]:
    """The same loop over plain ``(player, player, score)`` tuples: arithmetic and dict only."""
    ratings: dict[str, float] = {}
    get = ratings.get
    for pa, pb, sa in games:
        ra = get(pa, 1500.0)
        rb = get(pb, 1500.0)
        delta = 32.0 * (sa - 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0)))
        ratings[pa] = ra + delta
        ratings[pb] = rb - delta
    return ratings


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of ``repeat`` runs (seconds), with the garbage collector as callers have it."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f} games/s  ({seconds:6.3f} s)"


def bench_duels(count: int, reference: int, repeat: int) -> None:
    rules = load_rules("bataille-empire")
    duels = [to_record(row) for row in duel_rows(count)]
    replay(rules, duels[:5000])  # load (or compile) the kernel before timing
    print(f"\n{count:,} two-player games, bataille-empire")
    bare, _ = timed(lambda: bare_elo(duels), repeat)
    print(f"  bare Elo loop (records)   {rate(count, bare)}")
    plain = [
        (g.sides[0].players[0].name, g.sides[1].players[0].name, WIN.get(g.sides[0].outcome, 1.0))
        for g in duels
    ]
    bare_t, _ = timed(lambda: bare_elo_tuples(plain), repeat)
    print(f"  bare Elo loop (tuples)    {rate(count, bare_t)}")
    engine, result = timed(lambda: replay(rules, duels), repeat)
    print(f"  engine replay             {rate(count, engine)}")
    print(f"  engine / bare (records)   {bare / engine:12.2f}")
    print(f"  engine / bare (tuples)    {bare_t / engine:12.2f}")
    start = time.perf_counter()
    getattr(result.ledger, "floats", None)  # the ledger's columns are computed when first read
    entries = len(result.ledger)
    print(f"  + the ledger's {entries:,} entries as columns: {time.perf_counter() - start:.3f} s")
    start = time.perf_counter()
    sum(1 for _ in result.ledger)
    print(f"  + reading them as LedgerEntry objects: {time.perf_counter() - start:.3f} s")
    part = duels[:reference]
    ref, _ = timed(lambda: replay(rules, part, reference=True), 1)
    print(f"  reference path ({len(part):,})    {rate(len(part), ref)}")


def bench_ffa(count: int, reference: int, repeat: int) -> None:
    diplomacy = load_rules("diplomacy")
    games = [to_record(row) for row in ffa_rows(count)]
    replay(diplomacy, games[:3000])
    print(f"\n{count:,} seven-player games, diplomacy")
    engine, _ = timed(lambda: replay(diplomacy, games), repeat)
    print(f"  engine replay             {rate(count, engine)}")
    part = games[:reference]
    ref, _ = timed(lambda: replay(diplomacy, part, reference=True), 1)
    print(f"  reference path ({len(part):,})    {rate(len(part), ref)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--duels", type=int, default=1_000_000)
    parser.add_argument("--ffa", type=int, default=100_000)
    parser.add_argument("--reference", type=int, default=50_000, help="games for the reference")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    bench_duels(args.duels, args.reference, args.repeat)
    bench_ffa(args.ffa, args.reference // 5, args.repeat)


if __name__ == "__main__":
    main()
