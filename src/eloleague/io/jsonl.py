"""The JSON Lines interchange format: one game per line (RULES.md §2).

Well-formed lines take a fast typed path (msgspec); a line that fails it is examined again field by
field so that the message says what is wrong in an officer's words (field, value, what is expected).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import msgspec

from eloleague.errors import Problem
from eloleague.records import GameRecord, Participant, Side, normalise_name

GAME_FIELDS = ("id", "date", "event", "round", "mode", "rated", "sides")


class _Player(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    role: str = ""


class _Side(msgspec.Struct, forbid_unknown_fields=True):
    players: list[str | _Player]
    outcome: str | None = None
    score: float | None = None


class _Game(msgspec.Struct, forbid_unknown_fields=True):
    date: dt.date
    sides: list[_Side]
    id: str | None = None
    event: str | None = None
    round: int | None = None
    mode: str = ""
    rated: bool = True


_decoder = msgspec.json.Decoder(_Game)


def _participant(p: str | _Player) -> Participant:
    if isinstance(p, str):
        return Participant(normalise_name(p))
    return Participant(normalise_name(p.name), p.role.strip())


def _record(raw: _Game, origin: str) -> GameRecord | None:
    """The record, or ``None`` when a value is of the right type but unusable (slow path says why)."""
    sides = []
    for side in raw.sides:
        players = tuple(_participant(p) for p in side.players)
        if any(not p.name for p in players):
            return None
        if side.score is not None and not math.isfinite(side.score):
            return None
        sides.append(Side(players, side.outcome, side.score))
    return GameRecord(
        date=raw.date,
        sides=tuple(sides),
        id=raw.id,
        event=raw.event.strip() or None if raw.event is not None else None,
        round=raw.round,
        mode=raw.mode.strip(),
        rated=raw.rated,
        origin=origin,
    )


def parse_jsonl(data: bytes) -> tuple[list[GameRecord], list[Problem]]:
    """Parse JSON Lines bytes into records and the list of problems (blank lines are skipped)."""
    games: list[GameRecord] = []
    problems: list[Problem] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        origin = f"line {number}"
        record = None
        try:
            record = _record(_decoder.decode(line), origin)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
            record = None
        if record is None:
            found = _explain_line(line)
            if found:
                problems.extend(Problem(origin, message) for message in found)
                continue
            # The fast path was stricter than the rules (e.g. an integer id): use the slow result.
            record = _slow_record(line, origin)
        games.append(record)
    return games, problems


# The slow path: generic JSON, checked field by field -----------------------------------------


def _loads(line: bytes) -> Any:
    return msgspec.json.decode(line)


def _explain_line(line: bytes) -> list[str]:
    """Every problem of one line, in words (empty when the line is acceptable)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return ["not UTF-8 text: save the file as UTF-8"]
    try:
        obj = _loads(text.encode())
    except msgspec.DecodeError as exc:
        return [f"not valid JSON ({exc})"]
    if not isinstance(obj, dict):
        return ["a game must be a JSON object {...}"]
    out: list[str] = []
    for key in obj:
        if key not in GAME_FIELDS:
            out.append(f'unknown field "{key}" (a game has: {", ".join(GAME_FIELDS)})')
    if "date" not in obj:
        out.append('field "date": missing (expected YYYY-MM-DD)')
    elif _date(obj["date"]) is None:
        out.append(f'field "date": {_show(obj["date"])} is not a date (expected YYYY-MM-DD)')
    for key in ("id", "event", "mode"):
        if obj.get(key) is not None and not isinstance(obj[key], str | int):
            out.append(f'field "{key}": expected text, got {_show(obj[key])}')
    if obj.get("id") is not None and isinstance(obj["id"], bool):
        out.append(f'field "id": expected text, got {_show(obj["id"])}')
    rnd = obj.get("round")
    if rnd is not None and (isinstance(rnd, bool) or not isinstance(rnd, int)):
        out.append(f'field "round": expected a whole number, got {_show(rnd)}')
    if "rated" in obj and not isinstance(obj["rated"], bool):
        out.append(f'field "rated": expected true or false, got {_show(obj["rated"])}')
    if "sides" not in obj:
        out.append('field "sides": missing (a list of at least two sides)')
    elif not isinstance(obj["sides"], list):
        out.append('field "sides": expected a list of sides')
    else:
        for s, side in enumerate(obj["sides"], start=1):
            out.extend(f"side {s}: {m}" for m in _explain_side(side))
    return out


def _explain_side(side: Any) -> list[str]:
    if not isinstance(side, dict):
        return ['expected an object {"players": [...], "outcome": ...}']
    out = [
        f'unknown field "{key}" (a side has: players, outcome, score)'
        for key in side
        if key not in ("players", "outcome", "score")
    ]
    players = side.get("players")
    if not isinstance(players, list):
        out.append('field "players": expected a list of names')
    else:
        for n, player in enumerate(players, start=1):
            where = f"player {n}"
            if isinstance(player, str):
                if not normalise_name(player):
                    out.append(f"{where}: the name is empty")
            elif isinstance(player, dict):
                extra = [k for k in player if k not in ("name", "role")]
                if extra:
                    out.append(f'{where}: unknown field "{extra[0]}" (a player has: name, role)')
                name = player.get("name")
                if not isinstance(name, str) or not normalise_name(name):
                    out.append(f"{where}: a name is required")
                role = player.get("role", "")
                if role is not None and not isinstance(role, str):
                    out.append(f"{where}: role: expected text, got {_show(role)}")
            else:
                out.append(f"{where}: expected a name, got {_show(player)}")
    outcome = side.get("outcome")
    if outcome is not None and not isinstance(outcome, str):
        out.append(f"outcome: expected a label, got {_show(outcome)}")
    score = side.get("score")
    if score is not None and (
        isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score)
    ):
        out.append(f"score {_show(score)} is not a number")
    return out


def _date(value: Any) -> dt.date | None:
    if not isinstance(value, str) or len(value) != 10:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _show(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 40 else text[:37] + "..."


def _slow_record(line: bytes, origin: str) -> GameRecord:
    """Build a record from a line that :func:`_explain_line` accepted."""
    obj = _loads(line)
    sides = []
    for side in obj["sides"]:
        players = []
        for p in side.get("players", []):
            if isinstance(p, str):
                players.append(Participant(normalise_name(p)))
            else:
                players.append(
                    Participant(normalise_name(p["name"]), (p.get("role") or "").strip())
                )
        score = side.get("score")
        sides.append(
            Side(tuple(players), side.get("outcome"), None if score is None else float(score))
        )
    event = obj.get("event")
    return GameRecord(
        date=dt.date.fromisoformat(obj["date"]),
        sides=tuple(sides),
        id=None if obj.get("id") is None else str(obj["id"]),
        event=str(event).strip() or None if event is not None else None,
        round=obj.get("round"),
        mode=str(obj.get("mode") or "").strip(),
        rated=obj.get("rated", True),
        origin=origin,
    )
