"""Exports of a league's games (JSON Lines, CSV long format) and backups of the database.

The JSON Lines export is lossless: every field of every game, in arrival order, so that
importing it into an empty league gives identical ratings. Games without a source id are written
without one (their ``#N`` ledger label comes back from the arrival order).
"""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import msgspec
from sqlalchemy import Engine, insert, select

from eloleague.errors import EloleagueError
from eloleague.store.games import StoredGame
from eloleague.store.identity import Identity
from eloleague.store.messages import msg

LONG_COLUMNS = (
    "game",
    "date",
    "event",
    "round",
    "mode",
    "rated",
    "side",
    "player",
    "role",
    "outcome",
    "score",
)
IDENTITY_COLUMNS = ("player_id", "club", "region")  # written when a player of the league has one


VENUE_COLUMNS = ("home", "neutral")  # written when a game has them


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


def _player_object(name: str, role: str, who: Identity | None) -> str | dict[str, Any]:
    if not role and (who is None or not who):
        return name
    obj: dict[str, Any] = {"name": name}
    if role:
        obj["role"] = role
    if who is not None:
        for key, value in (("id", who.federation_id), ("club", who.club), ("region", who.region)):
            if value:
                obj[key] = value
    return obj


def game_object(game: StoredGame, people: Mapping[str, Identity] | None = None) -> dict[str, Any]:
    """A stored game as an interchange JSON object (optional fields only when set); ``people``:
    the players' federation ids, clubs and regions by name."""
    people = people or {}
    r = game.record
    obj: dict[str, Any] = {}
    if game.ext_id is not None:
        obj["id"] = game.ext_id
    obj["date"] = r.date.isoformat()
    if r.event:
        obj["event"] = r.event
    if r.round is not None:
        obj["round"] = r.round
    if r.mode:
        obj["mode"] = r.mode
    if not r.rated:
        obj["rated"] = False
    if r.home is not None:
        obj["home"] = r.home
    if r.neutral:
        obj["neutral"] = True
    sides = []
    for side in r.sides:
        out: dict[str, Any] = {
            "players": [_player_object(p.name, p.role, people.get(p.name)) for p in side.players]
        }
        if side.outcome is not None:
            out["outcome"] = side.outcome
        if side.score is not None:
            out["score"] = _number(side.score)
        sides.append(out)
    obj["sides"] = sides
    return obj


def write_jsonl(
    games: Sequence[StoredGame], out: TextIO, people: Mapping[str, Identity] | None = None
) -> int:
    """Write games as JSON Lines; returns how many (``people``: see :func:`game_object`)."""
    encoder = msgspec.json.Encoder()
    for g in games:
        out.write(encoder.encode(game_object(g, people)).decode("utf-8"))
        out.write("\n")
    return len(games)


def write_long_csv(
    games: Sequence[StoredGame], out: TextIO, people: Mapping[str, Identity] | None = None
) -> int:
    """Write games in the CSV long format (one row per player per game); returns how many.

    Games without a source id get their ``#N`` label as ``game`` (the format needs an id). The
    ``home`` and ``neutral`` columns are written when a game has them; ``people`` (federation
    ids, clubs, regions by name) adds the columns ``player_id``, ``club`` and ``region`` when one
    of them is known.
    """
    people = {name: who for name, who in (people or {}).items() if who}
    writer = csv.writer(out, lineterminator="\n")
    venues = any(g.record.home is not None or g.record.neutral for g in games)
    writer.writerow(
        LONG_COLUMNS + (VENUE_COLUMNS if venues else ()) + (IDENTITY_COLUMNS if people else ())
    )
    for g in games:
        r = g.record
        venue: tuple[object, ...] = ()
        if venues:
            venue = ("" if r.home is None else r.home + 1, "true" if r.neutral else "")
        for s, side in enumerate(r.sides, start=1):
            for p in side.players:
                who = people.get(p.name) if people else None
                extra = (
                    (
                        (who.federation_id or "", who.club or "", who.region or "")
                        if who
                        else ("",) * 3
                    )
                    if people
                    else ()
                )
                writer.writerow(
                    (
                        r.id,
                        r.date.isoformat(),
                        r.event or "",
                        "" if r.round is None else r.round,
                        r.mode,
                        "true" if r.rated else "false",
                        s,
                        p.name,
                        p.role,
                        side.outcome or "",
                        "" if side.score is None else _number(side.score),
                        *venue,
                        *extra,
                    )
                )
    return len(games)


def backup(engine: Engine, path: Path) -> Path:
    """Copy the whole database into a new SQLite file (a consistent snapshot).

    SQLite: ``VACUUM INTO``. PostgreSQL: every table copied into a fresh SQLite database with the
    same schema (which eloleague opens like any other: ``--db BACKUP.db``).
    """
    from eloleague.store import db as store_db
    from eloleague.store.tables import metadata

    path = path.expanduser()
    if path.exists():
        raise EloleagueError(
            msg("{file}: the file already exists; choose a new name", file=str(path))
        )
    if not path.parent.is_dir():
        raise EloleagueError(
            msg(
                "{file}: the folder {folder} does not exist",
                file=str(path),
                folder=str(path.parent),
            )
        )
    if store_db.is_sqlite(engine):
        with engine.connect() as conn:
            driver = conn.connection.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            driver.execute("VACUUM INTO ?", (str(path),))
        return path
    target = store_db.connect(str(path))
    try:
        store_db.migrate(target)
        # a plain transaction: a new file nobody else writes to (no writers' turn beside it)
        with store_db.read(engine) as src, target.begin() as dst:
            for table in metadata.sorted_tables:
                rows = [dict(r._mapping) for r in src.execute(select(table))]
                for i in range(0, len(rows), 10_000):
                    dst.execute(insert(table), rows[i : i + 10_000])
    finally:
        target.dispose()
    return path
