"""A league's revision: changed by every committed write to the league, read with what a server
process keeps of the league (a page of the ranking), so that a kept answer is used again only
while nothing changed (docs/web.md, "Several workers").

The new revision is the old one plus or minus a random step (down from the upper half, up
from the lower one, so that it stays a 32-bit integer): it always differs from the one it
replaces, and a database file swapped under a running server (a backup put back) is very
unlikely to carry the revision of the answers kept from the file it replaced.
"""

from __future__ import annotations

import os
import random
import secrets

from sqlalchemy import Connection

from eloleague.store.bulk import run

_HALF = 2**30  # the column is a 32-bit integer on PostgreSQL: it stays within 0 .. 2³¹ - 1
_STEPS = random.Random(secrets.randbits(128))  # seeded once per process: no system call a write
if hasattr(os, "register_at_fork"):  # a forked worker draws its own steps
    os.register_at_fork(after_in_child=lambda: _STEPS.seed(secrets.randbits(128)))


def revision_of(conn: Connection, league_id: int) -> int:
    """The league's revision as of the transaction's snapshot (0 for a league never written)."""
    rows = run(conn, "SELECT revision FROM leagues WHERE id = ?", (league_id,))
    return int(rows[0][0] or 0) if rows else 0


def bump_revision(conn: Connection, league_id: int) -> None:
    """Change the league's revision (in the write transaction: it commits with the write).

    Plain SQL through the driver (``store.bulk.run``): every write runs it, a live game's too."""
    step = 1 + _STEPS.getrandbits(30)  # 1 .. 2³⁰: never a whole turn
    run(
        conn,
        "UPDATE leagues SET revision = CASE WHEN revision >= ? THEN revision - ? "
        "ELSE revision + ? END WHERE id = ?",
        (_HALF, step, step, league_id),
    )
