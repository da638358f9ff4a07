"""Memory habits shared by the engine, the readers and the store."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while millions of small objects are made or read
    (records, rows, ledger entries; none holds a cycle): its repeated full scans of everything
    built so far would otherwise cost more than the work itself. Nesting is fine."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
