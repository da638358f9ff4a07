"""Replay speed of a rule set with formulas (docs/rule-sets.md, "Formulas") against the same
league under a plain duel rule set.

    .venv/bin/python benchmarks/formulas_replay.py            # 100,000 games of 2,000 teams
    .venv/bin/python benchmarks/formulas_replay.py --games 20000

The fast path declines rule sets with formulas, a home advantage or the other keys of that
section: ``replay`` hands them to the reference engine. Timed: the plain rule set by ``replay``
(the compiled fast path) and by the reference path, and the World Football Elo style file
(``tests/data/rules/world-football.toml``: K by mode, a goal-difference formula, a home advantage)
by ``replay`` (the reference path, as every caller gets it). Games per second, best of three.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path

from eloleague.engine import replay
from eloleague.engine.fast import unsupported
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules, parse_rules

ROOT = Path(__file__).resolve().parent.parent

PLAIN = """
name = "plain"
method = "duel"
start_rating = 1500
[outcomes]
win = { score = 1, against = ["loss"] }
draw = { score = 0.5, against = ["draw"] }
loss = { score = 0, against = ["win"] }
[k]
default = 30
"""


def games(n: int, teams: int, seed: int = 13) -> list[GameRecord]:
    rng = random.Random(seed)
    day = dt.date(2000, 1, 1)
    modes = ["friendly", "qualifier", "continental", "world-cup", ""]
    out = []
    for i in range(n):
        if i % 50 == 0:
            day += dt.timedelta(days=1)
        a, b = rng.sample(range(teams), 2)
        ga, gb = rng.randint(0, 5), rng.randint(0, 5)
        oa, ob = ("win", "loss") if ga > gb else ("loss", "win") if ga < gb else ("draw", "draw")
        out.append(
            GameRecord(
                date=day,
                sides=(
                    Side((Participant(f"T{a}"),), oa, float(ga)),
                    Side((Participant(f"T{b}"),), ob, float(gb)),
                ),
                id=f"g{i}",
                mode=rng.choice(modes),
                home=rng.choice([0, 1, None]),
                neutral=rng.random() < 0.1,
            )
        )
    return out


def best(run: Callable[[], object], times: int = 3) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append(time.perf_counter() - start)
    return min(spent)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--teams", type=int, default=2_000)
    args = parser.parse_args()
    records = games(args.games, args.teams)
    plain = parse_rules(PLAIN)
    football = load_rules(ROOT / "tests" / "data" / "rules" / "world-football.toml")
    assert unsupported(plain) is None and unsupported(football) is not None
    replay(plain, records[:5000])  # loads (or compiles) the kernel before the timings
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{args.games:,} games of {args.teams:,} teams")
    cases = [
        ("plain duel, fast path", lambda: replay(plain, records)),
        ("plain duel, reference", lambda: replay(plain, records, reference=True)),
        ("world-football (formulas), replay", lambda: replay(football, records)),
    ]
    for name, run in cases:
        seconds = best(run)
        print(f"{name}: {seconds:.2f} s, {args.games / seconds:,.0f} games/s")


if __name__ == "__main__":
    main()
