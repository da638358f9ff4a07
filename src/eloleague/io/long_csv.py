"""The CSV long format: one row per player per game (docs/formats.md).

Columns (header required, any order): ``game,date,event,round,mode,rated,side,player,role,
outcome,score``; ``game``, ``date``, ``side`` and ``player`` are required, the others optional.
Rows of one game share ``game``; ``side`` numbers the sides 1, 2, ...; a side's outcome or score
may be written on each of its rows or only on the first. A spreadsheet's French export (``;`` as
separator, decimal comma) is read too.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from dataclasses import dataclass, field

from eloleague.errors import Problem
from eloleague.records import GameRecord, Participant, Side, normalise_name

COLUMNS = (
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
REQUIRED = ("game", "date", "side", "player")
_TRUE = {"", "1", "true", "yes", "y", "oui", "o", "vrai"}
_FALSE = {"0", "false", "no", "n", "non", "faux"}


@dataclass
class _SideDraft:
    players: list[Participant] = field(default_factory=list)
    outcome: str | None = None
    score: float | None = None


@dataclass
class _GameDraft:
    line: int
    values: dict[str, str]
    sides: dict[int, _SideDraft] = field(default_factory=dict)
    bad: bool = False


def _column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def parse_long_csv(data: bytes) -> tuple[list[GameRecord], list[Problem]]:
    """Parse long-format CSV bytes into records and problems (located by line and column)."""
    problems: list[Problem] = []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [Problem(f"byte {exc.start}", "not UTF-8 text: save the file as UTF-8 CSV")]
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    decimal_comma = delimiter == ";"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        return [], [
            Problem("line 1", f"the file is empty (expected the header {','.join(COLUMNS)})")
        ]
    unknown = [h for h in header if h not in COLUMNS]
    missing = [c for c in REQUIRED if c not in header]
    if unknown or missing:
        parts = []
        if missing:
            parts.append(f"missing column(s) {', '.join(missing)}")
        if unknown:
            parts.append(f"unknown column(s) {', '.join(unknown)}")
        return [], [Problem("line 1", "; ".join(parts) + f" (columns: {','.join(COLUMNS)})")]
    col = {name: i for i, name in enumerate(header)}

    drafts: dict[str, _GameDraft] = {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row: list[str] = row) -> str:
            i = col.get(name)
            return row[i].strip() if i is not None and i < len(row) else ""

        def where(name: str, line: int = line) -> str:
            return f"line {line}, column {_column_letter(col[name])} ({name})"

        row_ok = True
        game_id = cell("game")
        if not game_id:
            problems.append(Problem(where("game"), "the game id is empty"))
            continue
        draft = drafts.get(game_id)
        game_values: dict[str, str] = {k: cell(k) for k in ("date", "event", "round", "mode", "rated") if k in col}
        if draft is None:
            draft = drafts[game_id] = _GameDraft(line, game_values)
            for name, value in game_values.items():
                message = _check_game_value(name, value)
                if message:
                    problems.append(Problem(where(name), message))
                    draft.bad = True
        else:
            for name, value in game_values.items():
                if value != draft.values[name]:
                    problems.append(
                        Problem(
                            where(name),
                            f"{value!r} differs from {draft.values[name]!r} on line "
                            f"{draft.line} for game {game_id!r}",
                        )
                    )
                    draft.bad = True
        side_text = cell("side")
        try:
            side_no = int(side_text)
            if side_no < 1:
                raise ValueError
        except ValueError:
            problems.append(
                Problem(where("side"), f"{side_text!r} is not a side number (1, 2, ...)")
            )
            draft.bad = True
            continue
        side = draft.sides.setdefault(side_no, _SideDraft())
        name = normalise_name(cell("player"))
        if not name:
            problems.append(Problem(where("player"), "the player's name is empty"))
            row_ok = False
        outcome = cell("outcome") or None
        if outcome is not None:
            if side.outcome is not None and side.outcome != outcome:
                problems.append(
                    Problem(
                        where("outcome"),
                        f"{outcome!r} differs from {side.outcome!r} "
                        f"given earlier for side {side_no}",
                    )
                )
                row_ok = False
            side.outcome = outcome
        score_text = cell("score")
        if score_text:
            score = _number(score_text, decimal_comma)
            if score is None:
                problems.append(Problem(where("score"), f"{score_text!r} is not a number"))
                row_ok = False
            elif side.score is not None and side.score != score:
                problems.append(
                    Problem(
                        where("score"),
                        f"{score_text} differs from {side.score!r} "
                        f"given earlier for side {side_no}",
                    )
                )
                row_ok = False
            else:
                side.score = score
        if not row_ok:
            draft.bad = True
            continue
        side.players.append(Participant(name, cell("role")))

    games = []
    for game_id, draft in drafts.items():
        numbers = sorted(draft.sides)
        if numbers and numbers != list(range(1, len(numbers) + 1)):
            problems.append(
                Problem(
                    f"line {draft.line}",
                    f"game {game_id!r}: sides are numbered "
                    f"{', '.join(map(str, numbers))}; number them 1, 2, ...",
                )
            )
            continue
        if draft.bad:
            continue
        v = draft.values
        games.append(
            GameRecord(
                date=dt.date.fromisoformat(v["date"]),
                sides=tuple(
                    Side(tuple(s.players), s.outcome, s.score)
                    for s in (draft.sides[n] for n in numbers)
                ),
                id=game_id,
                event=v.get("event") or None,
                round=int(v["round"]) if v.get("round") else None,
                mode=v.get("mode", ""),
                rated=v.get("rated", "").lower() in _TRUE,
                origin=f"line {draft.line}",
            )
        )
    return games, problems


def _check_game_value(name: str, value: str) -> str | None:
    if name == "date":
        if not value:
            return "the date is empty (expected YYYY-MM-DD)"
        try:
            if len(value) != 10:
                raise ValueError
            dt.date.fromisoformat(value)
        except ValueError:
            return f"{value!r} is not a date (expected YYYY-MM-DD)"
    elif name == "round" and value:
        if not value.isdigit():
            return f"{value!r} is not a round number (a whole number)"
    elif name == "rated" and value.lower() not in _TRUE | _FALSE:
        return f"{value!r} is not true or false"
    return None


def _number(text: str, decimal_comma: bool) -> float | None:
    if decimal_comma:
        text = text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
