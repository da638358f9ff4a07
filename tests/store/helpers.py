"""Helpers of the league tests: rate a file as `eloleague rate` does, compare with a full replay."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from eloleague.batch import rate_file
from eloleague.io.ratings_csv import write_ratings
from eloleague.league import League
from tests.conftest import AS_OF, REPLAY


def replay_file(preset: str) -> Path:
    return REPLAY / f"{preset}.jsonl"


def as_of(preset: str) -> dt.date | None:
    value = AS_OF.get(preset)
    return dt.date.fromisoformat(value) if value else None


def rate_csv(path: Path, rules: str, when: dt.date | None = None) -> str:
    """What `eloleague rate PATH --rules RULES [--as-of WHEN]` prints."""
    out = io.StringIO()
    rate_file(path, rules, as_of=when).write_csv(out)
    return out.getvalue()


def ranking_csv(league: League, when: dt.date | None = None) -> str:
    out = io.StringIO()
    write_ratings(league.ranking(as_of=when), league.rules, out)
    return out.getvalue()


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def duel(
    game_id: str,
    day: str,
    a: str,
    b: str,
    outcomes: tuple[str, str] = ("victory", "defeat"),
    **more: Any,
) -> dict[str, Any]:
    """A two-player game as an interchange record (JSON Lines): ``a`` and ``b`` with their
    outcomes, and any other key (``event``, ``mode``) as given."""
    sides = [{"players": [a], "outcome": outcomes[0]}, {"players": [b], "outcome": outcomes[1]}]
    return {"id": game_id, "date": day, **more, "sides": sides}


def write_lines(path: Path, objs: Iterable[dict[str, Any]]) -> Path:
    path.write_text(
        "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs), encoding="utf-8"
    )
    return path


def assert_equals_full_replay(league: League) -> None:
    """The stored ledger and ratings are exactly what a full replay of the stored games gives."""
    full = league.replay_result()
    assert league.ledger() == list(full.ledger)
    stored = {(r.player, r.mode, r.role): (r.rating, r.games) for r in league.ranking()}
    replayed = {(r.player, r.mode, r.role): (r.rating, r.games) for r in full.standings()}
    assert stored == replayed
