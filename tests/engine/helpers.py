"""Small builders for engine tests."""

from __future__ import annotations

import datetime as dt

from eloleague.records import GameRecord, Participant, Side


def duel(
    day: str,
    a: str | list[str],
    oa: str,
    b: str | list[str],
    ob: str,
    *,
    gid: str | None = None,
    event: str | None = None,
    rnd: int | None = None,
    rated: bool = True,
) -> GameRecord:
    names_a = [a] if isinstance(a, str) else a
    names_b = [b] if isinstance(b, str) else b
    return GameRecord(
        date=dt.date.fromisoformat(day),
        sides=(
            Side(tuple(Participant(n) for n in names_a), outcome=oa),
            Side(tuple(Participant(n) for n in names_b), outcome=ob),
        ),
        id=gid,
        event=event,
        round=rnd,
        rated=rated,
    )


ROLES = ("England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey")


def ffa(
    day: str, scores: dict[str, float], *, mode: str = "classic", gid: str | None = None
) -> GameRecord:
    return GameRecord(
        date=dt.date.fromisoformat(day),
        sides=tuple(
            Side((Participant(name, ROLES[i]),), score=score)
            for i, (name, score) in enumerate(scores.items())
        ),
        id=gid,
        mode=mode,
    )
