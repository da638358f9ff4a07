"""Where an event was played and who refereed it, as the referee's workbook says (docs/sheets.md):
kept on the event's row, shown on the event page, in the API and the event report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Connection, and_, select, update

from eloleague.errors import InputError, Problem
from eloleague.i18n import Text
from eloleague.io.limits import text_problem
from eloleague.store.messages import engine_text
from eloleague.store.tables import events


@dataclass(frozen=True, slots=True)
class EventPlace:
    """An event's place and referee (``None`` when unknown)."""

    event: str
    place: str | None = None
    referee: str | None = None


class EventSheet(Protocol):
    """What a workbook's event sheet says (:class:`eloleague.io.sheets.parse.EventInfo`)."""

    name: str | None
    place: str
    referee: str


def from_sheets(sheets: Sequence[EventSheet]) -> list[EventPlace]:
    """The place and referee of each named event sheet (a workbook has one), checked: a text
    the league cannot hold is refused like a game's."""
    out = []
    for sheet in sheets:
        if not sheet.name:
            continue
        for what, value in (("the place", sheet.place), ("the referee", sheet.referee)):
            wrong = text_problem(Text.in_domain("messages", what), value) if value else None
            if wrong is not None:
                raise InputError([Problem("", engine_text(wrong))], sheet.name)
        out.append(EventPlace(sheet.name, sheet.place or None, sheet.referee or None))
    return out


def set_places(conn: Connection, league_id: int, facts: Sequence[EventPlace]) -> None:
    """Keep what each event's sheet says (a later sheet's place or referee replaces it; an empty
    cell keeps the stored one). Events that hold no game yet are left alone."""
    for fact in facts:
        values = {
            key: value for key, value in (("place", fact.place), ("referee", fact.referee)) if value
        }
        if values:
            conn.execute(
                update(events)
                .where(and_(events.c.league_id == league_id, events.c.name == fact.event))
                .values(**values)
            )


def place_of(conn: Connection, event_id: int) -> tuple[str | None, str | None]:
    """``(place, referee)`` of an event."""
    row = conn.execute(
        select(events.c.place, events.c.referee).where(events.c.id == event_id)
    ).one()
    return row.place, row.referee
