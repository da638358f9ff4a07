"""A league's revision: changed by every committed write to the league, read with what a server
process keeps of the league (a page of the ranking), so that a kept answer is used again only
while nothing changed (docs/web.md, "Several workers").

The new revision is the old one plus a random step, modulo 2³¹: it always differs from the one
it replaces, and a database file swapped under a running server (a backup put back) is very
unlikely to carry the revision of the answers kept from the file it replaced.
"""

from __future__ import annotations

import secrets

from sqlalchemy import BigInteger, Connection, cast, select, update

from eloleague.store.tables import leagues

_SPAN = 2**31  # the column is a 32-bit integer on PostgreSQL


def revision_of(conn: Connection, league_id: int) -> int:
    """The league's revision as of the transaction's snapshot (0 for a league never written)."""
    found = conn.execute(select(leagues.c.revision).where(leagues.c.id == league_id)).scalar()
    return int(found or 0)


def bump_revision(conn: Connection, league_id: int) -> None:
    """Change the league's revision (in the write transaction: it commits with the write)."""
    step = 1 + secrets.randbits(30)  # 1 .. 2³⁰: never a whole turn
    conn.execute(
        update(leagues)
        .where(leagues.c.id == league_id)
        .values(revision=(cast(leagues.c.revision, BigInteger) + step) % _SPAN)
    )
