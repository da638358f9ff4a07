"""Compile the kernel ahead of need, in another process, while the caller reads its games.

The first replay on a machine compiles the kernel (a few seconds; numba then keeps it in its
cache next to ``kernel.py``). ``eloleague rate`` on a large file starts this compilation in a
second process before it reads the file, so that reading and compiling overlap; the replay then
waits for it and loads the compiled kernel from the cache. ``python -m
eloleague.engine.fast.warmup`` compiles it by hand (for instance after installing).
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from eloleague.records import GameRecord, Participant, Side


def _compiled() -> bool | None:
    """Whether numba's cache holds the kernel (``None``: cannot tell, or no numba)."""
    try:
        from eloleague.engine.fast.kernel import run

        cache = run._cache  # type: ignore[attr-defined]  # numba's FunctionCache
        return Path(cache._cache_file._index_path).is_file()
    except Exception:  # numba missing, or its internals moved: do nothing special
        return None


def start() -> subprocess.Popen[bytes] | None:
    """Start compiling the kernel in another process if its cache is empty."""
    from eloleague.engine.fast import available

    if not available() or _compiled() is not False:
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "eloleague.engine.fast.warmup"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def finish(process: subprocess.Popen[bytes] | None) -> None:
    """Wait for a compilation started by :func:`start` (the replay then loads its result)."""
    if process is not None:
        process.wait()


def compile_kernel() -> None:
    """Replay two games through the fast path: numba compiles the kernel and caches it."""
    from eloleague.engine.fast import try_replay
    from eloleague.engine.state import EngineState
    from eloleague.rules import load_rules

    day = dt.date(2024, 1, 1)
    games = [
        GameRecord(day, (Side((Participant("A"),), "draw"), Side((Participant("B"),), "draw")))
    ] * 2
    try_replay(load_rules("bataille-empire"), games, EngineState(), None, min_games=0)


def load() -> bool:
    """Load the compiled kernel if numba's cache holds it (under half a second on this machine;
    nothing is compiled here): whether it is loaded. A server calls it as it starts, so that what
    the kernel brings into the process is there before the server sets its long-lived objects
    apart (:func:`eloleague.web.set_apart_what_lasts`)."""
    from eloleague.engine.fast import available

    if not available() or _compiled() is not True:
        return False
    compile_kernel()
    return True


if __name__ == "__main__":
    compile_kernel()
