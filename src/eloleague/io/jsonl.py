"""The JSON Lines interchange format: one game per line (docs/formats.md).

Well-formed lines take a fast typed path (msgspec); a line that fails it is examined again field by
field so that the message says what is wrong in an officer's words (field, value, what is expected).
Equal sides (players, outcome, score) are shared between records, and the garbage collector waits
until the file is read: a million-game file is read in a few seconds.
"""

from __future__ import annotations

import datetime as dt
import math
from functools import partial
from typing import Any

import msgspec

from eloleague.errors import Problem
from eloleague.i18n import Text
from eloleague.io.json_errors import json_problem
from eloleague.io.limits import (
    FIRST_DAY,
    ID_MAX,
    LABEL_MAX,
    LAST_DAY,
    NAME_MAX,
    PLAYERS_PER_SIDE_MAX,
    ROUND_MAX,
    SCORE_MAX,
    SIDES_MAX,
    UNDATED,
    clipped,
    lines_problem,
)
from eloleague.memory import no_gc
from eloleague.records import GameRecord, Participant, Side, normalise_name

GAME_FIELDS = ("id", "date", "event", "round", "mode", "rated", "home", "neutral", "sides")


class _Player(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    name: str
    role: str = ""
    id: str | None = None  # the federation id (licence number): docs/formats.md
    club: str | None = None
    region: str | None = None


PLAYER_FIELDS = ("name", "role", "id", "club", "region")


def _given(value: object) -> str | None:
    """A player's id, club or region: ``None`` when absent or blank."""
    if value is None:
        return None
    text = normalise_name(str(value))
    return text or None


class _Side(msgspec.Struct, forbid_unknown_fields=True):
    players: list[str | _Player]
    outcome: str | None = None
    score: float | None = None


class _Game(msgspec.Struct, forbid_unknown_fields=True):
    date: dt.date
    sides: list[msgspec.Raw]  # decoded once per distinct side (see _Records)
    id: str | None = None
    event: str | None = None
    round: int | None = None
    mode: str = ""
    rated: bool = True
    home: int | None = None
    neutral: bool = False


_decoder = msgspec.json.Decoder(_Game)
_side_decoder = msgspec.json.Decoder(_Side)


_PRINTABLE = r"^[^\u0000-\u001f\u007f-\u009f]*$"
"""A text without a control character (docs/formats.md, "Limits"), as a JSON Schema pattern."""
_EDGE = r"[\s\t-\r\u001c-\u001f\u0085]*"  # what str.strip() takes off a text's ends
_TRIMMED = f"^{_EDGE}{_PRINTABLE[1:-1]}{_EDGE}$"
"""The same, for the texts the reader trims first (names, roles, events, modes: a line break
after a name is not part of it); a game's id and an outcome are taken as they are."""


def game_schema() -> dict[str, Any]:
    """The JSON Schema of one game of the interchange format (docs/formats.md), for the API's
    OpenAPI document: the fields and types this reader decodes (its msgspec structs), with what
    :mod:`eloleague.io.limits` bounds that a schema can say (lengths, ranges, counts, no control
    character). What a league's rules decide (its outcome labels, modes and roles, how many sides
    and players) and a date after tomorrow are the reader's to refuse, naming the line."""
    _refs, defs = msgspec.json.schema_components([_Game, _Side])
    game: dict[str, Any] = defs["_Game"]
    side, player = defs["_Side"], defs["_Player"]

    def text(most: int, *, pattern: str = _TRIMMED, **more: Any) -> dict[str, Any]:
        return {"type": "string", "maxLength": most, "pattern": pattern, **more}

    def nullable(schema: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [schema, {"type": "null"}], "default": None}

    def bound(schema: dict[str, Any], title: str, **fields: dict[str, Any]) -> None:
        unknown = set(fields) - set(schema["properties"])
        assert not unknown, f"not fields of the format: {unknown}"  # the structs name them
        schema["title"] = title
        schema["properties"].update(fields)

    # a name is trimmed: one that is only spaces is empty
    name = text(NAME_MAX, allOf=[{"pattern": r"\S"}], description="a player's name")
    bound(
        player,
        "Player",
        name=name,
        role=text(LABEL_MAX, default="", description="a role of the league's rule set"),
        id=nullable(text(ID_MAX, description="the player's federation id (licence number)")),
        club=nullable(text(NAME_MAX)),
        region=nullable(text(NAME_MAX, description="region or country")),
    )
    bound(
        side,
        "Side",
        players={
            "type": "array",
            "items": {"anyOf": [name, player]},
            "minItems": 1,
            "maxItems": PLAYERS_PER_SIDE_MAX,
        },
        outcome=nullable(
            text(
                LABEL_MAX, pattern=_PRINTABLE, description="an outcome label of the league's rules"
            )
        ),
        score=nullable({"type": "number", "minimum": -SCORE_MAX, "maximum": SCORE_MAX}),
    )
    bound(
        game,
        "Game",
        date={
            "type": "string",
            "format": "date",
            "description": f"YYYY-MM-DD, from {FIRST_DAY} to {LAST_DAY}, not after tomorrow (UTC)",
        },
        sides={"type": "array", "items": side, "minItems": 2, "maxItems": SIDES_MAX},
        id=nullable(
            text(
                NAME_MAX,
                pattern="^(?!#)" + _PRINTABLE[1:],  # "#12" names a game without id
                description="the game's id: give one, so that a post sent again adds nothing",
            )
        ),
        event=nullable(text(NAME_MAX)),
        round=nullable({"type": "integer", "minimum": 0, "maximum": ROUND_MAX}),
        mode=text(LABEL_MAX, default=""),
        home=nullable({"type": "integer", "enum": [0, 1], "description": "the side at home"}),
    )
    return game


class _Line(Text):
    """The origin ``line N`` of a record: a :class:`Text` like ``Text.of("line {line}", line=N)``
    (translated the same way), made without formatting: a large file has a million of them."""

    template = "line {line}"
    domain = None

    def __new__(cls, number: int) -> _Line:
        return str.__new__(cls, f"line {number}")

    @property
    def params(self) -> dict[str, object]:  # type: ignore[override]
        return {"line": int(self[5:])}


_line = partial(str.__new__, _Line)  # _Line(n) without a Python call: a million lines


def _participant(p: str | _Player) -> Participant:
    if isinstance(p, str):
        return Participant(normalise_name(p))
    return Participant(
        normalise_name(p.name), p.role.strip(), _given(p.id), _given(p.club), _given(p.region)
    )


class _Unusable(Exception):
    """A value of the right type that the rules cannot use (the slow path says why)."""


_SIDES_KEPT = 1 << 18  # distinct sides remembered at once (memory stays bounded)


class _Records:
    """Builds records from decoded lines. A side is decoded and built once per distinct text
    (players, outcome, score): later games share it."""

    def __init__(self) -> None:
        self._sides: dict[bytes, Side] = {}

    def _new_side(self, text: bytes) -> Side:
        side = _side_decoder.decode(text)
        players = tuple(_participant(p) for p in side.players)
        if any(not p.name for p in players) or (
            side.score is not None and not math.isfinite(side.score)
        ):
            raise _Unusable
        return Side(players, side.outcome, side.score)

    def record(self, raw: _Game, origin: Text) -> GameRecord | None:
        """The record, or ``None`` when a value is of the wrong type or unusable (the slow
        path says why)."""
        sides = []
        known = self._sides
        if raw.home is not None and (raw.home not in (0, 1) or isinstance(raw.home, bool)):
            return None
        try:
            for text in map(bytes, raw.sides):
                found = known.get(text)
                if found is None:
                    if len(known) >= _SIDES_KEPT:  # mostly one-off sides (teams): start afresh
                        known.clear()
                    found = known[text] = self._new_side(text)
                sides.append(found)
        except (_Unusable, msgspec.DecodeError, msgspec.ValidationError):
            return None
        event = raw.event
        return GameRecord(
            date=raw.date,
            sides=tuple(sides),
            id=raw.id,
            event=event.strip() or None if event is not None else None,
            round=raw.round,
            mode=raw.mode.strip() if raw.mode else "",
            rated=raw.rated,
            origin=origin,
            home=raw.home,
            neutral=raw.neutral,
        )


_items_decoder = msgspec.json.Decoder(list[msgspec.Raw])


def array_as_lines(data: bytes) -> bytes | None:
    """A JSON array of games (an API post's body) as JSON Lines, item ``N`` on line ``N``, its
    games left for :func:`parse_jsonl` to decode once; ``None`` when ``data`` is not a
    well-formed JSON array (the caller's generic decoder then says what is wrong)."""
    try:
        items = _items_decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    # A line break in an item is whitespace between its tokens (JSON strings escape theirs).
    return b"\n".join(bytes(item).replace(b"\n", b" ") for item in items)


def parse_jsonl(data: bytes) -> tuple[list[GameRecord], list[Problem]]:
    """Parse JSON Lines bytes into records and the list of problems (blank lines are skipped).
    A line whose only problem is its date gives a record too, dated
    :data:`~eloleague.io.limits.UNDATED`, for the rules to check the rest of it: with problems,
    the records are for checking only."""
    games: list[GameRecord] = []
    problems: list[Problem] = []
    too_long = lines_problem(data)
    if too_long is not None:
        return games, [Problem("", too_long)]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    build = _Records()
    with no_gc():
        _parse_lines(data, build, games, problems)
    return games, problems


def _parse_lines(
    data: bytes, build: _Records, games: list[GameRecord], problems: list[Problem]
) -> None:
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line or line.isspace():
            continue
        origin = _line(f"line {number}")
        record = None
        try:
            record = build.record(_decoder.decode(line), origin)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
            record = None
        if record is None:
            found = _explain_line(line)
            if found:
                problems.extend(Problem(origin, message) for message in found)
                if not _explain_line(line, dated=False):  # its date is its only problem: the
                    # rules check the rest of it, with every other game (never stored)
                    games.append(_slow_record(line, origin, UNDATED))
                continue
            # The fast path was stricter than the rules (e.g. an integer id): use the slow result.
            record = _slow_record(line, origin)
        games.append(record)


# The slow path: generic JSON, checked field by field -----------------------------------------


def _loads(line: bytes) -> Any:
    return msgspec.json.decode(line)


def _explain_line(line: bytes, *, dated: bool = True) -> list[Text]:
    """Every problem of one line, in words (empty when the line is acceptable); without
    ``dated``, every problem but its date's."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return [Text.of("not UTF-8 text: save the file as UTF-8")]
    try:
        obj = _loads(text.encode())
    except msgspec.DecodeError:
        return [Text.of("not valid JSON ({reason})", reason=json_problem(text))]
    except RecursionError:  # [[[[...]]]] thousands deep: no game is shaped like that
        return [Text.of("not valid JSON (nested too deeply)")]
    if not isinstance(obj, dict):
        return [Text.of("a game must be a JSON object {{...}}")]
    out: list[Text] = []
    for key in obj:
        if key not in GAME_FIELDS:
            out.append(
                Text.of(
                    'unknown field "{key}" (a game has: {fields})',
                    key=key,
                    fields=", ".join(GAME_FIELDS),
                )
            )
    if dated and "date" not in obj:
        out.append(Text.of('field "date": missing (expected YYYY-MM-DD)'))
    elif dated and _date(obj["date"]) is None:
        out.append(
            Text.of(
                'field "date": {value} is not a date (expected YYYY-MM-DD)',
                value=_show(obj["date"]),
            )
        )
    for key in ("id", "event", "mode"):
        if obj.get(key) is not None and not isinstance(obj[key], str | int):
            out.append(
                Text.of('field "{key}": expected text, got {value}', key=key, value=_show(obj[key]))
            )
    if obj.get("id") is not None and isinstance(obj["id"], bool):
        out.append(
            Text.of('field "{key}": expected text, got {value}', key="id", value=_show(obj["id"]))
        )
    rnd = obj.get("round")
    if rnd is not None and (isinstance(rnd, bool) or not isinstance(rnd, int)):
        out.append(Text.of('field "round": expected a whole number, got {value}', value=_show(rnd)))
    if "rated" in obj and not isinstance(obj["rated"], bool):
        out.append(
            Text.of('field "rated": expected true or false, got {value}', value=_show(obj["rated"]))
        )
    home = obj.get("home")
    if home is not None and (isinstance(home, bool) or home not in (0, 1)):
        out.append(
            Text.of(
                'field "home": the side at home, 0 (the first) or 1 (the second), got {value}',
                value=_show(home),
            )
        )
    if "neutral" in obj and not isinstance(obj["neutral"], bool):
        out.append(
            Text.of(
                'field "neutral": expected true or false, got {value}', value=_show(obj["neutral"])
            )
        )
    if "sides" not in obj:
        out.append(Text.of('field "sides": missing (a list of at least two sides)'))
    elif not isinstance(obj["sides"], list):
        out.append(Text.of('field "sides": expected a list of sides'))
    else:
        for s, side in enumerate(obj["sides"], start=1):
            out.extend(
                Text.of("side {side}: {problem}", side=s, problem=m) for m in _explain_side(side)
            )
    return out


def _explain_side(side: Any) -> list[Text]:
    if not isinstance(side, dict):
        return [Text.of('expected an object {{"players": [...], "outcome": ...}}')]
    out = [
        Text.of('unknown field "{key}" (a side has: players, outcome, score)', key=key)
        for key in side
        if key not in ("players", "outcome", "score")
    ]
    players = side.get("players")
    if not isinstance(players, list):
        out.append(Text.of('field "players": expected a list of names'))
    else:
        for n, player in enumerate(players, start=1):
            if isinstance(player, str):
                if not normalise_name(player):
                    out.append(Text.of("player {n}: the name is empty", n=n))
            elif isinstance(player, dict):
                extra = [k for k in player if k not in PLAYER_FIELDS]
                if extra:
                    out.append(
                        Text.of(
                            'player {n}: unknown field "{key}" (a player has: name, role, id, '
                            "club, region)",
                            n=n,
                            key=extra[0],
                        )
                    )
                for key in ("id", "club", "region"):
                    value = player.get(key)
                    if value is not None and not isinstance(value, str):
                        out.append(
                            Text.of(
                                "player {n}: {key}: expected text, got {value}",
                                n=n,
                                key=key,
                                value=_show(value),
                            )
                        )
                name = player.get("name")
                if not isinstance(name, str) or not normalise_name(name):
                    out.append(Text.of("player {n}: a name is required", n=n))
                role = player.get("role", "")
                if role is not None and not isinstance(role, str):
                    out.append(
                        Text.of(
                            "player {n}: role: expected text, got {value}", n=n, value=_show(role)
                        )
                    )
            else:
                out.append(
                    Text.of("player {n}: expected a name, got {value}", n=n, value=_show(player))
                )
    outcome = side.get("outcome")
    if outcome is not None and not isinstance(outcome, str):
        out.append(Text.of("outcome: expected a label, got {value}", value=_show(outcome)))
    score = side.get("score")
    if score is not None and (
        isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score)
    ):
        out.append(Text.of("score {value} is not a number", value=_show(score)))
    return out


def _date(value: Any) -> dt.date | None:
    if not isinstance(value, str) or len(value) != 10:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _show(value: Any) -> str:
    return clipped(msgspec.json.encode(value).decode(), 40)


def _slow_record(line: bytes, origin: Text, date: dt.date | None = None) -> GameRecord:
    """Build a record from a line that :func:`_explain_line` accepted (``date``: instead of
    its own, wrong or missing: :data:`~eloleague.io.limits.UNDATED`, for the rules' check)."""
    obj = _loads(line)
    sides = []
    for side in obj["sides"]:
        players = []
        for p in side.get("players", []):
            if isinstance(p, str):
                players.append(Participant(normalise_name(p)))
            else:
                players.append(
                    Participant(
                        normalise_name(p["name"]),
                        (p.get("role") or "").strip(),
                        _given(p.get("id")),
                        _given(p.get("club")),
                        _given(p.get("region")),
                    )
                )
        score = side.get("score")
        sides.append(
            Side(tuple(players), side.get("outcome"), None if score is None else float(score))
        )
    event = obj.get("event")
    return GameRecord(
        date=date or dt.date.fromisoformat(obj["date"]),
        sides=tuple(sides),
        id=None if obj.get("id") is None else str(obj["id"]),
        event=str(event).strip() or None if event is not None else None,
        round=obj.get("round"),
        mode=str(obj.get("mode") or "").strip(),
        rated=obj.get("rated", True),
        origin=origin,
        home=obj.get("home"),
        neutral=obj.get("neutral", False),
    )
