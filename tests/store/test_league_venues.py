"""A game's venue (``home``, ``neutral``) read from JSON Lines and the CSV long format, stored,
exported and rated by a rule set with a home advantage (docs/rule-sets.md, docs/formats.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from eloleague.io.jsonl import parse_jsonl
from eloleague.io.long_csv import parse_long_csv
from eloleague.league import League

RULES = Path(__file__).parent.parent / "data" / "rules" / "world-football.toml"
GAMES: list[dict[str, Any]] = [  # JSON Lines records
    {"id": "g1", "date": "2024-03-01", "mode": "world-cup", "home": 0,
     "sides": [{"players": ["Brazil"], "outcome": "win", "score": 3},
               {"players": ["Croatia"], "outcome": "loss", "score": 1}]},
    {"id": "g2", "date": "2024-03-05", "mode": "friendly", "home": 1, "neutral": True,
     "sides": [{"players": ["Brazil"], "outcome": "draw", "score": 0},
               {"players": ["Croatia"], "outcome": "draw", "score": 0}]},
    {"id": "g3", "date": "2024-03-09", "mode": "friendly",
     "sides": [{"players": ["Brazil"], "outcome": "loss", "score": 0},
               {"players": ["Croatia"], "outcome": "win", "score": 1}]},
]  # fmt: skip


def test_jsonl_reads_the_venue_and_explains_bad_values() -> None:
    games, problems = parse_jsonl("\n".join(json.dumps(g) for g in GAMES).encode())
    assert problems == []
    assert [(g.home, g.neutral) for g in games] == [(0, False), (1, True), (None, False)]
    bad = [
        {**GAMES[0], "home": 2},
        {**GAMES[0], "home": True},
        {**GAMES[0], "neutral": "yes"},
    ]
    games, problems = parse_jsonl("\n".join(json.dumps(g) for g in bad).encode())
    assert games == []
    messages = [str(p) for p in problems]
    assert messages[0].startswith('line 1: field "home": the side at home, 0 (the first) or 1')
    assert messages[1].startswith('line 2: field "home"')
    assert messages[2] == 'line 3: field "neutral": expected true or false, got "yes"'


def test_long_csv_reads_the_venue_by_side_number() -> None:
    text = (
        "game,date,mode,side,player,outcome,score,home,neutral\n"
        "g1,2024-03-01,world-cup,1,Brazil,win,3,1,\n"
        "g1,2024-03-01,world-cup,2,Croatia,loss,1,1,\n"
        "g2,2024-03-05,friendly,1,Brazil,draw,0,2,true\n"
        "g2,2024-03-05,friendly,2,Croatia,draw,0,2,true\n"
        "g3,2024-03-06,friendly,1,Brazil,draw,0,3,\n"
        "g3,2024-03-06,friendly,2,Croatia,draw,0,3,\n"
    )
    games, problems = parse_long_csv(text.encode())
    assert [(g.home, g.neutral) for g in games] == [(0, False), (1, True)]
    assert [str(p) for p in problems] == [
        'line 6, column H (home): "3" is not the side at home (1 or 2, or empty)'
    ]


def test_a_league_stores_exports_and_rates_the_venue(db_url: str, tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    source.write_text("\n".join(json.dumps(g) for g in GAMES) + "\n", "utf-8")
    league = League.create(db_url, "wf", str(RULES))
    league.import_file(source)
    stored = league.games()
    assert [(g.home, g.neutral) for g in stored] == [(0, False), (1, True), (None, False)]
    out = io.StringIO()
    league.export_jsonl(out)
    exported = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(g.get("home"), g.get("neutral")) for g in exported] == [
        (0, None),
        (1, True),
        (None, None),
    ]
    csv_out = io.StringIO()
    league.export_csv(csv_out)
    assert csv_out.getvalue().splitlines()[0].endswith(",score,home,neutral")
    again, problems = parse_long_csv(csv_out.getvalue().encode())
    assert problems == [] and [(g.home, g.neutral) for g in again] == [
        (0, False),
        (1, True),
        (None, False),
    ]
    # Importing the export into a new league gives the same ratings.
    copy = tmp_path / "copy.jsonl"
    copy.write_text(out.getvalue(), "utf-8")
    other = League.create(db_url, "wf2", str(RULES))
    other.import_file(copy)
    assert [(r.player, r.rating) for r in other.ranking()] == [
        (r.player, r.rating) for r in league.ranking()
    ]
    # The stored venue is the one rated: the league's ratings are the file's replay, and not
    # those of the same games without a venue.
    from eloleague.engine.replay import replay
    from eloleague.rules import load_rules

    rules = load_rules(RULES)
    records, _ = parse_jsonl(source.read_bytes())
    rated = replay(rules, records, reference=True).pools
    ranking = {r.player: r.rating for r in league.ranking()}
    assert ranking == {key.player: pool.rating for key, pool in rated.items()}
    no_venue = [
        json.dumps({k: v for k, v in g.items() if k not in ("home", "neutral")}) for g in GAMES
    ]
    plain, _ = parse_jsonl("\n".join(no_venue).encode())
    assert replay(rules, plain, reference=True).pools != rated


def test_a_formula_without_value_refuses_the_import_and_stores_nothing(
    db_url: str, tmp_path: Path
) -> None:
    import pytest

    from eloleague.errors import RuleSetError

    rules = tmp_path / "div.toml"
    rules.write_text(
        RULES.read_text("utf-8").replace('k_multiplier = "if(', 'k_multiplier = "1 / margin * if('),
        "utf-8",
    )
    source = tmp_path / "games.jsonl"
    source.write_text("\n".join(json.dumps(g) for g in GAMES) + "\n", "utf-8")
    league = League.create(db_url, "div", str(rules))
    with pytest.raises(RuleSetError) as err:
        league.import_file(source)
    assert "key k_multiplier, column 5: division by zero (game g2: margin = 0)" in err.value.message
    assert League.open(db_url, "div").games() == []


def test_a_game_of_identified_players_keeps_its_venue(db_url: str, tmp_path: Path) -> None:
    """Players given with their federation ids are resolved (and renamed when namesakes) before
    the import: the game keeps its venue through that step."""
    identified = [
        {**g, "sides": [{**s, "players": [{"name": s["players"][0], "id": f"ID-{s['players'][0]}"}]}
                        for s in g["sides"]]}
        for g in GAMES
    ]  # fmt: skip
    path = tmp_path / "ids.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in identified), "utf-8")
    league = League.create(db_url, "wf", str(RULES))
    league.import_file(path)
    stored = league.games()
    assert [(g.home, g.neutral) for g in stored] == [(0, False), (1, True), (None, False)]
    assert league.identity("Brazil").federation_id == "ID-Brazil"
