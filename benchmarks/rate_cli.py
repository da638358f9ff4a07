"""``eloleague rate`` end to end on a large file: wall time of the real command, in a subprocess.

    .venv/bin/python benchmarks/rate_cli.py                  # 1,000,000 games
    .venv/bin/python benchmarks/rate_cli.py --games 200000 --cold

Writes a deterministic JSON Lines file (``benchmarks/engine_games.py``) into a temporary folder,
then times ``eloleague rate FILE --rules bataille-empire`` (ratings CSV to a file), with and
without ``--ledger``. ``--cold`` first deletes the compiled kernel's cache (numba's files in
``engine/fast/__pycache__``) to time a first run from a fresh clone, compilation included.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine_games import duel_rows, write_jsonl

import eloleague.engine.fast as fast_package


def kernel_cache() -> list[Path]:
    """numba's cache files of the fast path (index and compiled code)."""
    folder = Path(fast_package.__file__).parent / "__pycache__"
    return [*folder.glob("*.nbi"), *folder.glob("*.nbc")]


def run(args: list[str], out: Path) -> float:
    start = time.perf_counter()
    with out.open("w", encoding="utf-8") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "eloleague", *args],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"eloleague rate failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--rules", default="bataille-empire")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="time a first run, compile included")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="eloleague-bench-"))
    try:
        games = write_jsonl(duel_rows(args.games, preset=args.rules), folder / "games.jsonl")
        size = games.stat().st_size / 1e6
        print(f"{args.games:,} games, {size:.0f} MB, rules {args.rules}")
        base = ["rate", str(games), "--rules", args.rules, "--format", "csv"]
        if args.cold:
            for path in kernel_cache():
                path.unlink()
            cold = run([*base, "--ledger", str(folder / "ledger.csv")], folder / "out.csv")
            print(f"  first run, kernel compiled, with --ledger: {cold:6.2f} s")
        for label, extra in (
            ("ratings only", []),
            ("with --ledger", ["--ledger", str(folder / "ledger.csv")]),
        ):
            times = [run([*base, *extra], folder / "out.csv") for _ in range(args.repeat)]
            print(
                f"  {label:<14} best {min(times):6.2f} s   (runs: "
                + ", ".join(f"{t:.2f}" for t in times)
                + ")"
            )
        rows = sum(1 for _ in (folder / "ledger.csv").open(encoding="utf-8")) - 1
        print(f"  ledger rows: {rows:,}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
