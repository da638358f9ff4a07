"""A league's own row in ``leagues``: written when the league is created (with the published
ratings it starts from, docs/league.md, "Starting from published ratings") and when its rules
change. The list of leagues is :func:`eloleague.store.faces.league_rows`, the league's
revision :mod:`eloleague.store.revisions`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, insert, select, update

from eloleague.store.bulk import one_row, run
from eloleague.store.tables import leagues

RULES_READ = one_row("SELECT rules_text FROM leagues WHERE id = ?")
"""The statement reading a league's rule set (parameter: its id): a write reads it with the
league's lock (:func:`eloleague.store.db.lock_league`'s ``then``), in its round trip."""


def read_rules(conn: Connection, league_id: int) -> list[Any]:
    """The rows of :data:`RULES_READ`: ``[(rules text,)]``, or none when the league is gone."""
    return list(run(conn, RULES_READ, (league_id,)))


def add_league(
    conn: Connection,
    name: str,
    rules_text: str,
    rules_source: str,
    *,
    initial_text: str | None,
    initial_source: str | None,
) -> int:
    """Insert a league (its rule set's text and where it came from, the published ratings'
    text and file name, or ``None``); returns its id. A name the database holds already is
    SQLAlchemy's ``IntegrityError``."""
    league_id: int = conn.execute(
        insert(leagues).returning(leagues.c.id),
        {
            "name": name,
            "rules_text": rules_text,
            "rules_source": rules_source,
            "created_at": dt.datetime.now(dt.UTC),
            "initial_text": initial_text,
            "initial_source": initial_source,
        },
    ).scalar_one()
    return league_id


def starting_list(conn: Connection, league_id: int) -> tuple[str | None, Any]:
    """``(file name, created at)``: the name of the published ratings' file the league started
    from (``None``: it started from nothing), and when the league was created (as the driver
    gives it)."""
    row = conn.execute(
        select(leagues.c.initial_source, leagues.c.created_at).where(leagues.c.id == league_id)
    ).one()
    return row.initial_source, row.created_at


def set_rules(conn: Connection, league_id: int, text: str, source: str) -> None:
    """Replace the league's rule set: its TOML text and where it came from."""
    conn.execute(
        update(leagues)
        .where(leagues.c.id == league_id)
        .values(rules_text=text, rules_source=source)
    )
