"""``eloleague rate`` of a Glicko-2 rule set: Glickman's worked example through ``--initial``,
the deviation and volatility columns after ``title``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

RULES = Path(__file__).parents[1] / "data" / "rules" / "glicko2.toml"
INITIAL = """player,mode,role,rating,games,title,deviation,volatility
A,,,1500,0,,200,0.06
B,,,1400,0,,30,0.06
C,,,1550,0,,100,0.06
D,,,1700,0,,300,0.06
"""


def _game(gid: str, a: str, oa: str, b: str, ob: str) -> str:
    sides = [{"players": [a], "outcome": oa}, {"players": [b], "outcome": ob}]
    return json.dumps({"id": gid, "date": "2024-03-01", "sides": sides})


def test_the_paper_example_through_rate_initial(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(
        "\n".join(
            [
                _game("1", "A", "win", "B", "loss"),
                _game("2", "A", "loss", "C", "win"),
                _game("3", "A", "loss", "D", "win"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    initial = tmp_path / "initial.csv"
    initial.write_text(INITIAL, encoding="utf-8")
    ledger = tmp_path / "ledger.csv"
    done = run_cli(
        "rate",
        str(games),
        "--rules",
        str(RULES),
        "--initial",
        str(initial),
        "--ledger",
        str(ledger),
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    changes = list(csv.DictReader(io.StringIO(ledger.read_text("utf-8"))))
    assert list(changes[0])[-3:] == ["warning", "deviation", "volatility"]
    a_changes = [c for c in changes if c["player"] == "A"]
    assert [round(float(c["expected"]), 3) for c in a_changes] == [0.639, 0.432, 0.303]
    assert sum(float(c["delta"]) for c in a_changes) == pytest.approx(-35.95, abs=0.01)
    assert {c["deviation"] for c in a_changes} == {a_changes[0]["deviation"]}
    assert done.stdout.splitlines()[0] == (
        "player,mode,role,rating,games,title,deviation,volatility"
    )
    a = next(r for r in rows if r["player"] == "A")
    assert float(a["rating"]) == pytest.approx(1464.06, abs=0.01)
    assert float(a["deviation"]) == pytest.approx(151.52, abs=0.01)
    assert float(a["volatility"]) == pytest.approx(0.05999, abs=0.00001)
    assert a["games"] == "3"
    # The output reads back as --initial: the same ratings, deviations and volatilities.
    again = tmp_path / "again.csv"
    again.write_text(done.stdout, encoding="utf-8")
    empty = tmp_path / "none.jsonl"
    empty.write_text("", encoding="utf-8")
    kept = run_cli("rate", str(empty), "--rules", str(RULES), "--initial", str(again))
    assert kept.returncode == 0, kept.stderr
    assert kept.stdout == done.stdout


def test_other_rule_sets_keep_their_six_columns(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(
        json.dumps(
            {
                "date": "2024-03-01",
                "sides": [
                    {"players": ["A"], "outcome": "decisive_victory"},
                    {"players": ["B"], "outcome": "defeat"},
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    done = run_cli("rate", str(games), "--rules", "bataille-empire")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "player,mode,role,rating,games,title"


def test_a_bad_deviation_in_initial_is_located(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(_game("1", "A", "win", "B", "loss") + "\n", encoding="utf-8")
    initial = tmp_path / "initial.csv"
    initial.write_text("player,rating,deviation\nA,1500,wide\n", encoding="utf-8")
    done = run_cli("rate", str(games), "--rules", str(RULES), "--initial", str(initial))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert 'line 2: column deviation: "wide" is not a number > 0' in done.stderr
