"""The look-alike name check of an import (``store/players.py``, ``similar_names``): wall time.

    .venv/bin/python benchmarks/look_alike.py

Registered names: 2,000 ordinary ones (and, in the last two rows, one stored name of 60,000
letters, as an import before the 200-character limit could leave); new names: ordinary ones, or
one very long name. Prints the best of three runs of each case.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from eloleague.store.players import similar_names

FIRST = ["Alice", "Bruno", "Chloé", "David", "Élodie", "François", "Hélène", "Inès", "Zoé", "Hugo"]
LAST = ["Martin", "Petit", "Roux", "Dubois", "Lefèvre", "Moreau", "Garcia", "Fournier", "Çelik"]


def names(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.randrange(10**6):06d}" for _ in range(n)]


def best(run: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    known = names(2000, 1)
    new = names(2000, 2)
    long_stored = "x" * 60_000
    big = names(20_000, 4)
    cases = {
        "2,000 new names, 2,000 registered": lambda: similar_names(new, known),
        "one 200-letter new name, 2,000 registered": lambda: similar_names(["é" * 200], known),
        "one 100,000-letter new name, 2,000 registered": lambda: similar_names(
            ["a" * 100_000], known
        ),
        "100 new names, 2,000 registered + one of 60,000 letters": lambda: similar_names(
            new[:100], [*known, long_stored]
        ),
        "100 new names, 2,000 registered": lambda: similar_names(new[:100], known),
        "5,000 new names, 20,000 registered": lambda: similar_names(names(5000, 3), big),
    }
    for label, run in cases.items():
        print(f"{label:60} {best(run):8.3f} s")


if __name__ == "__main__":
    main()
