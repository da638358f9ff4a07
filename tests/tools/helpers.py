"""Helpers for the tools tests: initial-ratings files and small games files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def write_initial(path: Path, rows: Mapping[str, tuple[float, int]]) -> Path:
    """A ratings CSV (the columns of ``rate``) with ``name -> (rating, games)``."""
    lines = ["player,mode,role,rating,games,title"]
    lines += [f"{name},,,{rating},{games}," for name, (rating, games) in rows.items()]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def write_games(path: Path, games: list[dict[str, Any]]) -> Path:
    """A JSON Lines games file."""
    path.write_text("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in games), "utf-8")
    return path


def duel(
    day: str, a: str, b: str, out_a: str, out_b: str, gid: str | None = None
) -> dict[str, Any]:
    """A one-against-one game record."""
    game: dict[str, Any] = {
        "date": day,
        "sides": [{"players": [a], "outcome": out_a}, {"players": [b], "outcome": out_b}],
    }
    if gid:
        game["id"] = gid
    return game
