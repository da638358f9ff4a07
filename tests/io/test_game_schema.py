"""The JSON Schema of a game that the API's OpenAPI document publishes (docs/web.md, "Headers and
schema") says what the JSON Lines reader takes: the same fields, and every bound of
docs/formats.md, "Limits" that a schema can say refused by both, on either side of the bound."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import pytest

from eloleague.engine.validate import check_game
from eloleague.io import parse_jsonl
from eloleague.io.jsonl import GAME_FIELDS, PLAYER_FIELDS, _Side, game_schema
from eloleague.io.limits import (
    ID_MAX,
    LABEL_MAX,
    NAME_MAX,
    PLAYERS_PER_SIDE_MAX,
    ROUND_MAX,
    SCORE_MAX,
    SIDES_MAX,
    game_problems,
)
from eloleague.rules import load_rules

DIPLOMACY = load_rules("diplomacy")  # a rule set of several sides, scored
SCHEMA = game_schema()
VALIDATOR = jsonschema_rs.validator_for(SCHEMA)


def _game() -> dict[str, Any]:
    return {
        "id": "g1",
        "date": "2025-01-01",
        "sides": [
            {"players": [{"name": "Ana", "role": "France"}], "score": 12},
            {"players": [{"name": "Ben", "role": "Italy"}], "score": 3},
        ],
    }


def _refusals(game: dict[str, Any]) -> list[str]:
    """What the reader and the limits refuse in ``game``, with the two checks every rule set makes
    that a schema can say (two sides at least, a player a side at least); not what one league's
    rules refuse (its outcomes, roles, sizes)."""
    records, problems = parse_jsonl(json.dumps(game).encode())
    out = [str(p) for p in problems]
    for record in records if not problems else []:
        out += [str(m) for m in game_problems(record)]
        out += [str(m) for m in check_game(DIPLOMACY, record) if m.template in EVERY_RULE_SET]
    return out


EVERY_RULE_SET = {"a game needs at least two sides, this one has {n}", "side {side}: no players"}


def _players(n: int) -> Callable[[dict[str, Any]], None]:
    def change(game: dict[str, Any]) -> None:
        game["sides"][0]["players"] = [f"P{i}" for i in range(n)]

    return change


def _sides(n: int) -> Callable[[dict[str, Any]], None]:
    def change(game: dict[str, Any]) -> None:
        game["sides"] = [{"players": [f"P{i}"], "score": i} for i in range(n)]

    return change


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A change of one field, ``path`` written ``sides.0.players.0.name``."""

    def change(game: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        holder: Any = game
        for part in parents:
            holder = holder[int(part)] if part.isdigit() else holder[part]
        holder[int(last) if last.isdigit() else last] = value

    return change


NAME = "sides.0.players.0.name"
BOUNDS = [  # (what, the change just inside the bound, the change just past it)
    ("a name's length", _set(NAME, "n" * NAME_MAX), _set(NAME, "n" * (NAME_MAX + 1))),
    ("a blank name", _set(NAME, " Ana "), _set(NAME, "  ")),
    ("a name's characters", _set(NAME, "Zoé 😀"), _set(NAME, "Zo\x00é")),
    ("a bare name", _set("sides.0.players.0", "Ana"), _set("sides.0.players.0", "")),
    (
        "a role",
        _set("sides.0.players.0.role", "r" * LABEL_MAX),
        _set("sides.0.players.0.role", "r" * (LABEL_MAX + 1)),
    ),
    (
        "a federation id",
        _set("sides.0.players.0.id", "7" * ID_MAX),
        _set("sides.0.players.0.id", "7" * (ID_MAX + 1)),
    ),
    (
        "a club",
        _set("sides.0.players.0.club", "c" * NAME_MAX),
        _set("sides.0.players.0.club", "c\x1b"),
    ),
    ("a game id", _set("id", "i" * NAME_MAX), _set("id", "i" * (NAME_MAX + 1))),
    ("a game id's first letter", _set("id", "a#12"), _set("id", "#12")),
    ("an event", _set("event", "e" * NAME_MAX), _set("event", "e\x07e")),
    ("a mode", _set("mode", "m" * LABEL_MAX), _set("mode", "m" * (LABEL_MAX + 1))),
    ("the lowest round", _set("round", 0), _set("round", -1)),
    ("the highest round", _set("round", ROUND_MAX), _set("round", ROUND_MAX + 1)),
    (
        "the lowest score",
        _set("sides.1.score", -SCORE_MAX),
        _set("sides.1.score", -SCORE_MAX * 1.5),
    ),
    ("the highest score", _set("sides.1.score", SCORE_MAX), _set("sides.1.score", SCORE_MAX * 1.5)),
    ("the side at home", _set("home", 1), _set("home", 2)),
    ("players of a side", _players(PLAYERS_PER_SIDE_MAX), _players(PLAYERS_PER_SIDE_MAX + 1)),
    ("a side with players", _players(1), _players(0)),
    ("the most sides", _sides(SIDES_MAX), _sides(SIDES_MAX + 1)),
    ("the fewest sides", _sides(2), _sides(1)),
    ("a field of the format", _set("neutral", True), _set("evnt", "Austerlitz")),
    ("a field of a side", _set("sides.0.outcome", None), _set("sides.0.result", "win")),
    (
        "a field of a player",
        _set("sides.0.players.0.region", "Alsace"),
        _set("sides.0.players.0.team", "x"),
    ),
]


@pytest.mark.parametrize(("what", "inside", "past"), BOUNDS, ids=[b[0] for b in BOUNDS])
def test_the_schema_and_the_reader_draw_each_bound_at_the_same_place(
    what: str, inside: Callable[[dict[str, Any]], None], past: Callable[[dict[str, Any]], None]
) -> None:
    kept, refused = copy.deepcopy(_game()), copy.deepcopy(_game())
    inside(kept)
    past(refused)
    assert VALIDATOR.is_valid(kept) and _refusals(kept) == [], what
    assert not VALIDATOR.is_valid(refused), what
    assert _refusals(refused), what


def test_the_schema_names_the_fields_the_reader_reads() -> None:
    side = SCHEMA["properties"]["sides"]["items"]
    player = side["properties"]["players"]["items"]["anyOf"][1]
    assert set(SCHEMA["properties"]) == set(GAME_FIELDS)
    assert set(player["properties"]) == set(PLAYER_FIELDS)
    assert set(side["properties"]) == set(_Side.__struct_fields__)
    assert SCHEMA["required"] == ["date", "sides"] and player["required"] == ["name"]
    for schema in (SCHEMA, side, player):  # an unknown field is refused (a misspelt "evnt")
        assert schema["additionalProperties"] is False


def test_a_date_is_described_as_the_reader_reads_it() -> None:
    date = SCHEMA["properties"]["date"]
    assert date["format"] == "date" and "1000-01-01" in date["description"]
    strict = jsonschema_rs.validator_for(SCHEMA, validate_formats=True)
    assert strict.is_valid(_game())
    assert not strict.is_valid({**_game(), "date": "2025-02-30"})
    assert _refusals({**_game(), "date": "2025-02-30"})


TEXTS = ["x\n", "\tx", " x \r\n", "x\x1f", "x\x85", "x\ny", "x\x00", "x\u2028", "\u3000x", "x\x7f"]
FIELDS = ["id", "event", "mode", NAME, "sides.0.outcome"] + [
    f"sides.0.players.0.{field}" for field in ("role", "id", "club", "region")
]


@pytest.mark.parametrize("path", FIELDS)
def test_the_schema_takes_a_text_with_a_control_character_when_the_reader_does(path: str) -> None:
    """Names, roles, events and modes are trimmed before they are checked (a line break after a
    name is not part of it), a game's id and an outcome are not: the schema says the same."""
    for value in TEXTS:
        game = _game()
        _set(path, value)(game)
        assert VALIDATOR.is_valid(game) == (not _refusals(game)), (path, value)
