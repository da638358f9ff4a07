"""Bad input is the norm: readers and the rule loader never crash, whatever they are given."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from eloleague.errors import RuleSetError
from eloleague.io import parse_jsonl, parse_long_csv, validate_games
from eloleague.io.ratings_csv import parse_initial
from eloleague.rules import load_rules, parse_rules

RULES = [load_rules(n) for n in ("bataille-empire", "adlg", "card-battle", "diplomacy")]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "date",
                    "sides",
                    "players",
                    "outcome",
                    "score",
                    "name",
                    "role",
                    "round",
                    "rated",
                    "event",
                    "mode",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, max_size=4))
def test_jsonl_reader_reports_problems_never_crashes(values: list[object]) -> None:
    data = "\n".join(json.dumps(v) for v in values).encode()
    games, problems = parse_jsonl(data)
    for rules in RULES:
        validate_games(rules, games)
    assert all(str(p) for p in problems)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_jsonl_reader_survives_garbage(data: bytes) -> None:
    games, problems = parse_jsonl(data)
    assert isinstance(games, list) and isinstance(problems, list)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.text(max_size=6), max_size=11), max_size=6))
def test_long_csv_reader_never_crashes(rows: list[list[str]]) -> None:
    header = "game,date,event,round,mode,rated,side,player,role,outcome,score"
    body = "\n".join(",".join(json.dumps(c) for c in row) for row in rows)
    games, _ = parse_long_csv((header + "\n" + body).encode())
    for rules in RULES:
        validate_games(rules, games)
    parse_long_csv(body.encode())


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_initial_reader_never_crashes(text: str) -> None:
    for rules in RULES:
        parse_initial("player,mode,role,rating,games\n" + text, rules)


toml_values = st.one_of(
    st.integers(-5, 2000).map(str),
    st.floats(-1, 2, allow_nan=False).map(repr),
    st.sampled_from(['"duel"', '"ffa_rank"', '"x"', "true", "[]", '["a"]', "{}"]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "name",
                "method",
                "start_rating",
                "scale",
                "k",
                "outcomes",
                "updates",
                "period",
                "roles",
                "probability_decimals",
                "rating_floor",
                "titles",
            ]
        ),
        toml_values,
        max_size=8,
    )
)
def test_rule_loader_gives_rule_set_errors_only(fields: dict[str, str]) -> None:
    text = "\n".join(f"{k} = {v}" for k, v in fields.items())
    try:
        parse_rules(text, "fuzz.toml")
    except RuleSetError as exc:
        assert str(exc).startswith("fuzz.toml")


def test_deeply_nested_json_and_toml_are_located_errors_not_crashes() -> None:
    deep = b"[" * 50_000 + b"]" * 50_000
    games, problems = parse_jsonl(b'{"date": "2024-01-01", "sides": []}\n' + deep + b"\n")
    assert [(str(p.location), str(p.message)) for p in problems] == [
        ("line 2", "not valid JSON (nested too deeply)")
    ]
    assert len(games) == 1  # the good line before it was still read (every problem is reported)
    try:
        parse_rules("x = " + "[" * 50_000 + "]" * 50_000, "deep.toml")
    except RuleSetError as exc:
        assert str(exc) == "deep.toml: not valid TOML: nested too deeply"
    else:
        raise AssertionError("a 50,000-deep TOML array was accepted")
