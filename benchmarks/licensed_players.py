"""Live results in a league of licensed players (docs/benchmarks.md, "Live results"): games
posted one by one between players registered with a federation id and named plainly, as a
club's software posts them, in leagues of more and more licensed players.

    .venv/bin/python benchmarks/licensed_players.py [--players 500 10000 40000] [--posts 300] [--pg]

Each league is registered first (one import of games between players carrying their ids, in a
throwaway SQLite file; with ``--pg`` also in a throwaway PostgreSQL server, the test suite's), then
``League.import_games`` of one appended game is timed ``--posts`` times: the players named plainly,
then with their ids. An import checks that no plain name it uses is shared by two licensed players
(``"Jean Dupont"`` for ``"Jean Dupont (FR-1)"`` and ``"Jean Dupont (FR-2)"``); the cost of a game
should not grow with the league: the smallest league is the yardstick, in the same run. On
PostgreSQL the registration is analysed before the posts, as autovacuum does within a minute (right
after it, the planner's figures say the league is empty).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side

DAY = dt.date(2025, 1, 4)


def duel(gid: str, day: dt.date, a: Participant, b: Participant) -> GameRecord:
    return GameRecord(day, (Side((a,), "decisive_victory"), Side((b,), "defeat")), id=gid)


def measure(players: int, posts: int, url: str, with_ids: bool) -> dict[str, object]:
    league = League.create(url, "Fédé", "bataille-empire")
    copier = league.copy_log_in_background()  # SQLite: as a program posting live results does
    names = [f"Joueur {i:06d}" for i in range(players)]
    league.import_games(
        [
            duel(
                f"r{i}",
                DAY,
                Participant(names[i], federation_id=f"FR-{i}"),
                Participant(names[i + 1], federation_id=f"FR-{i + 1}"),
            )
            for i in range(0, players - 1, 2)
        ],
        source="registration",
    )
    if league.engine.dialect.name == "postgresql":  # as autovacuum does within its minute
        with league.engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
            conn.commit()
    latencies = []
    for k in range(posts):
        i, j = (k * 7919) % players, (k * 104729 + 1) % players
        if i == j:
            j = (j + 1) % players
        if with_ids:  # as a federation's software sends them
            a = Participant(names[i], federation_id=f"FR-{i}")
            b = Participant(names[j], federation_id=f"FR-{j}")
        else:  # as a club's software that knows the names only
            a, b = Participant(names[i]), Participant(names[j])
        game = duel(f"g{k}", DAY + dt.timedelta(days=1), a, b)
        t = time.perf_counter()
        league.import_games([game], source="bench")
        latencies.append(time.perf_counter() - t)
    if copier is not None:
        copier.close()
    league.engine.dispose()
    row = {
        "database": league.engine.dialect.name,
        "licensed players": players,
        "players named": "with their ids" if with_ids else "plainly",
        "games": posts,
        "games_per_s": round(posts / sum(latencies), 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(sorted(latencies)[int(0.95 * (posts - 1))] * 1000, 2),
    }
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[500, 10_000, 40_000])
    parser.add_argument("--posts", type=int, default=300)
    parser.add_argument("--pg", action="store_true", help="PostgreSQL too (the test suite's)")
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for with_ids in (False, True):
        with tempfile.TemporaryDirectory() as folder:
            rows = [
                measure(n, args.posts, f"sqlite:///{Path(folder) / f'{n}.db'}", with_ids)
                for n in sorted(args.players)
            ]
        report(rows)
    if args.pg:
        sys.path.insert(0, str(Path(__file__).parent.parent))
        from tests.pg.server import start_server

        for server in start_server():
            for with_ids in (False, True):
                report(
                    [
                        measure(n, args.posts, server.new_database(), with_ids)
                        for n in sorted(args.players)
                    ]
                )


def report(rows: list[dict[str, object]]) -> None:
    """Each league's rate against the smallest one's."""
    floor = float(str(rows[0]["games_per_s"]))
    for row in rows[1:]:
        ratio = float(str(row["games_per_s"])) / floor
        print(
            f"{row['licensed players']:,} licensed players: {ratio:.2f} × the rate of "
            f"{rows[0]['licensed players']:,}"
        )


if __name__ == "__main__":
    main()
