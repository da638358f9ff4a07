"""Deterministic game streams for the engine and ``eloleague rate`` benchmarks.

The same seed always gives the same games, so figures from different runs and machines compare.
Two-player streams look like a federation's history: a few thousand players, games dated over
about ten years (so seasons and inactivity apply), every game inside a numbered event with rounds.
Diplomacy streams have seven players, one per country, in two modes.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from pathlib import Path

from eloleague.records import GameRecord, Participant, Side

FIRST_DAY = dt.date(2015, 1, 3)
DUEL_OUTCOMES = {
    "bataille-empire": (
        ("defeat", "marginal_victory"),
        ("defeat", "decisive_victory"),
        ("overwhelming_victory", "defeat"),
        ("draw", "draw"),
        ("marginal_victory", "defeat"),
        ("decisive_victory", "defeat"),
    ),
    "adlg": (("victory", "defeat"), ("defeat", "victory"), ("draw", "draw")),
}
ROLES = ("England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey")


def _names(prefix: str, count: int) -> list[str]:
    first = ("Éric", "Marie", "Jean", "Çelik", "Noël", "Anne", "O'Brien", "Hélène", "Paul", "Zoé")
    return [f"{first[i % len(first)]} {prefix}{i:05d}" for i in range(count)]


def duel_rows(
    count: int, *, preset: str = "bataille-empire", players: int = 5000, seed: int = 1
) -> Iterator[dict[str, object]]:
    """``count`` two-player games as interchange-format dictionaries (RULES.md §2), by date."""
    rng = random.Random(seed)
    names = _names("P", players)
    outcomes = DUEL_OUTCOMES.get(preset, DUEL_OUTCOMES["bataille-empire"])
    per_event = 40
    span_days = 3650
    events = max(1, count // per_event)
    for g in range(count):
        event = g // per_event
        day = FIRST_DAY + dt.timedelta(days=event * span_days // events)
        a, b = rng.sample(names, 2)
        oa, ob = outcomes[rng.randrange(len(outcomes))]
        yield {
            "id": f"g{g + 1}",
            "date": day.isoformat(),
            "event": f"Event {event:06d}",
            "round": 1 + (g % per_event) // 8,
            "sides": [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}],
        }


def ffa_rows(count: int, *, players: int = 3000, seed: int = 2) -> Iterator[dict[str, object]]:
    """``count`` complete seven-player Diplomacy games (supply centres as scores), by date."""
    rng = random.Random(seed)
    names = _names("D", players)
    for g in range(count):
        day = FIRST_DAY + dt.timedelta(days=g * 3650 // count)
        who = rng.sample(names, 7)
        roles = rng.sample(ROLES, 7)
        centres = [0] * 7
        for _ in range(34):
            centres[min(rng.randrange(9), 6)] += 1
        rng.shuffle(centres)
        yield {
            "id": f"d{g + 1}",
            "date": day.isoformat(),
            "mode": "classic" if g % 3 else "blitz",
            "sides": [
                {"players": [{"name": n, "role": r}], "score": c}
                for n, r, c in zip(who, roles, centres, strict=True)
            ],
        }


def to_record(row: dict[str, object]) -> GameRecord:
    """The record a reader builds from one row (names are already normalised here)."""
    sides = []
    for side in row["sides"]:  # type: ignore[attr-defined]
        players = tuple(
            Participant(p) if isinstance(p, str) else Participant(p["name"], p["role"])
            for p in side["players"]
        )
        score = side.get("score")
        sides.append(Side(players, side.get("outcome"), None if score is None else float(score)))
    return GameRecord(
        date=dt.date.fromisoformat(row["date"]),  # type: ignore[arg-type]
        sides=tuple(sides),
        id=row["id"],  # type: ignore[arg-type]
        event=row.get("event"),  # type: ignore[arg-type]
        round=row.get("round"),  # type: ignore[arg-type]
        mode=row.get("mode", ""),  # type: ignore[arg-type]
    )


def write_jsonl(rows: Iterator[dict[str, object]], path: Path) -> Path:
    """Write rows as a JSON Lines file (UTF-8, one game a line)."""
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False))
            out.write("\n")
    return path
