"""The league's face on the public site: display name, description, logo and colour (one row per
league in ``league_faces``), and the list of leagues the home page shows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select

from eloleague.errors import EloleagueError
from eloleague.store.bulk import run
from eloleague.store.messages import msg
from eloleague.store.tables import league_faces, leagues

# The colours an officer may pick: each keeps white text and links on it readable (WCAG AA);
# the stylesheet defines them (face-NAME), so pages need no inline style.
COLOURS = ("blue", "green", "red", "purple", "orange", "teal", "slate", "pink")
# Raster images only: an SVG may carry a script.
LOGO_TYPES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}
MAX_LOGO_BYTES = 256 * 1024
MAX_DESCRIPTION = 500


@dataclass(frozen=True, slots=True)
class Face:
    """What the site shows of a league besides its rankings."""

    display_name: str | None = None
    description: str | None = None
    colour: str | None = None
    logo_type: str | None = None  # None: no logo


def league_rows(conn: Connection, name: str | None = None) -> list[tuple[int, str, str]]:
    """``(id, name, rules text)`` of every league (or of the league ``name``), by name."""
    sql = "SELECT id, name, rules_text FROM leagues"  # plain SQL: every API request asks
    if name is None:
        rows = run(conn, sql + " ORDER BY name")
    else:
        rows = run(conn, sql + " WHERE name = ?", (name,))
    return [(int(pk), str(title), str(text)) for pk, title, text in rows]


def league_names(conn: Connection) -> list[str]:
    """The names of every league, sorted."""
    return list(conn.execute(select(leagues.c.name).order_by(leagues.c.name)).scalars())


def read_face(conn: Connection, league_id: int) -> Face:
    row = conn.execute(
        select(
            league_faces.c.display_name,
            league_faces.c.description,
            league_faces.c.colour,
            league_faces.c.logo_type,
        ).where(league_faces.c.league_id == league_id)
    ).first()
    if row is None:
        return Face()
    return Face(row.display_name, row.description, row.colour, row.logo_type)


def read_logo(conn: Connection, league_id: int) -> tuple[bytes, str] | None:
    row = conn.execute(
        select(league_faces.c.logo, league_faces.c.logo_type).where(
            league_faces.c.league_id == league_id
        )
    ).first()
    if row is None or row.logo is None or row.logo_type is None:
        return None
    return bytes(row.logo), str(row.logo_type)


def logo_type(data: bytes) -> str:
    """The image's media type (PNG or JPEG), or an error saying what is accepted."""
    if len(data) > MAX_LOGO_BYTES:
        raise EloleagueError(msg("the logo is too large: at most {n} KB", n=MAX_LOGO_BYTES // 1024))
    for magic, media in LOGO_TYPES.items():
        if data.startswith(magic):
            return media
    raise EloleagueError(msg("the logo must be a PNG or JPEG image"))


def write_face(
    conn: Connection,
    league_id: int,
    face: Face,
    logo: bytes | None,
    *,
    keep_logo: bool,
) -> None:
    """Store the face (``keep_logo``: the logo already stored stays when none is given)."""
    name = (face.display_name or "").strip() or None
    description = (face.description or "").strip() or None
    if name is not None and len(name) > 200:
        raise EloleagueError(msg("the display name is too long: at most {n} characters", n=200))
    if description is not None and len(description) > MAX_DESCRIPTION:
        raise EloleagueError(
            msg("the description is too long: at most {n} characters", n=MAX_DESCRIPTION)
        )
    colour = face.colour or None
    if colour is not None and colour not in COLOURS:
        raise EloleagueError(
            msg(
                "unknown colour {colour!r} (choose among: {choices})",
                colour=colour,
                choices=", ".join(COLOURS),
            )
        )
    old = read_logo(conn, league_id) if keep_logo and logo is None else None
    media = logo_type(logo) if logo is not None else (old[1] if old else None)
    data = logo if logo is not None else (old[0] if old else None)
    conn.execute(delete(league_faces).where(league_faces.c.league_id == league_id))
    conn.execute(
        insert(league_faces).values(
            league_id=league_id,
            display_name=name,
            description=description,
            colour=colour,
            logo=data,
            logo_type=media,
            updated_at=dt.datetime.now(dt.UTC),
        )
    )
