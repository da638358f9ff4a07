"""The seeds' worked examples (RULES.md §5), through the command line with --initial and --ledger."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli, seed_examples

EXAMPLES = seed_examples()


def _example_id(example: dict[str, Any]) -> str:
    sides = "-".join(str(s.get("outcome", s.get("score"))) for s in example["game"]["sides"])
    return f"{example['rules']}:{sides}"


@pytest.mark.parametrize("example", EXAMPLES, ids=[_example_id(e) for e in EXAMPLES])
def test_worked_example(example: dict[str, Any], tmp_path: Path) -> None:
    game = example["game"]
    roles = {
        (p["name"] if isinstance(p, dict) else p): (
            p.get("role", "") if isinstance(p, dict) else ""
        )
        for side in game["sides"]
        for p in side["players"]
    }
    mode = game.get("mode", "")
    initial = tmp_path / "initial.csv"
    with initial.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["player", "mode", "role", "rating", "games", "title"])
        for name, state in example["before"].items():
            writer.writerow([name, mode, roles[name], state["rating"], state["games"], ""])
    games = tmp_path / "game.jsonl"
    games.write_text(json.dumps(game) + "\n", encoding="utf-8")
    ledger = tmp_path / "ledger.csv"

    done = run_cli(
        "rate",
        str(games),
        "--rules",
        example["rules"],
        "--initial",
        str(initial),
        "--ledger",
        str(ledger),
    )
    assert done.returncode == 0, done.stderr

    rows = list(csv.DictReader(ledger.open(encoding="utf-8")))
    deltas = {row["player"]: float(row["delta"]) for row in rows}
    assert set(deltas) == set(example["deltas"])
    for player, expected in example["deltas"].items():
        assert deltas[player] == pytest.approx(expected, abs=example["tolerance"] or 1e-12)


def test_bataille_empire_table_probabilities(tmp_path: Path) -> None:
    """Seed 000 prints P as 28 % and 72 %: the ledger's expected column holds the rounded P."""
    example = EXAMPLES[0]
    games = tmp_path / "g.jsonl"
    games.write_text(json.dumps(example["game"]) + "\n", encoding="utf-8")
    initial = tmp_path / "i.csv"
    initial.write_text("player,rating,games\nA,1000,0\nB,1200,20\n", encoding="utf-8")
    ledger = tmp_path / "l.csv"
    done = run_cli(
        "rate",
        str(games),
        "--rules",
        "bataille-empire",
        "--initial",
        str(initial),
        "--ledger",
        str(ledger),
    )
    assert done.returncode == 0, done.stderr
    rows = {r["player"]: r for r in csv.DictReader(ledger.open(encoding="utf-8"))}
    assert (rows["A"]["expected"], rows["A"]["k"]) == ("0.28", "30")
    assert (rows["B"]["expected"], rows["B"]["k"]) == ("0.72", "60")
