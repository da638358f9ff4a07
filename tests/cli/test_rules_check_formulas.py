"""`eloleague rules check` on rule files with every kind of mistake in a formula: one located line
each (file, line, key, column), exit status 2, no traceback, in English and in French; the rule
files of docs/rule-sets.md pass."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "rules"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rule-sets.md"

BAD = """name = "bad"
method = "duel"
start_rating = 1500
k_multiplier = "pow(abs(margni) + 3, 0.8)"
score_value = "score +"
lead_cap = 400

[outcomes]
win = { score = 1, against = ["loss"] }
loss = { score = 0, against = ["win"] }

[k]
default = 20

[season]
reversion = { fraction = 0.75, formula = "mean + fraction * (rating - mean) / 0" }

[decay]
idle_days = 10
every_days = 10
step = "ln(0) ^ 2"
"""


def test_every_formula_mistake_is_one_located_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BAD, "utf-8")
    done = run_cli("rules", "check", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"{path}, line 4: key k_multiplier: column 9: unknown name 'margni' (variables here: "
        "k, rating, opponent, games, expected, score, points, opponent_points, margin, diff, "
        "lead, home; functions: if, ln, log10, exp, sqrt, abs, min, max, pow)",
        f"{path}, line 5: key score_value: column 8: not a valid formula (check the brackets "
        "and operators)",
        f"{path}, line 16: key season.reversion.formula: column 37: division by zero",
        f"{path}, line 21: key decay.step: column 7: operator ^ is not allowed in a formula: "
        "write pow(a, b) or a ** b",
    ]


def test_the_same_in_french(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BAD, "utf-8")
    done = run_cli("rules", "check", str(path), env={"ELOLEAGUE_LANG": "fr"})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        f"{path}, ligne 4\u202f: clé k_multiplier\u202f: colonne 9\u202f: nom inconnu"
    )
    assert lines[2].endswith("colonne 37\u202f: division par zéro")


def test_the_documented_rule_files_pass(tmp_path: Path) -> None:
    for path in (DATA / "world-football.toml", DATA / "fide.toml"):
        assert run_cli("rules", "check", str(path)).returncode == 0
    # The sports-style example of docs/rule-sets.md, completed with outcomes.
    text = DOCS.read_text("utf-8")
    example = re.search(r"```toml\n(home_advantage = 65\n.*?)```", text, re.S)
    assert example is not None
    full = tmp_path / "sports.toml"
    full.write_text(
        'name = "sports"\nmethod = "duel"\nstart_rating = 1505\n'
        + example.group(1).replace(
            "[k]",
            '[outcomes]\nwin = { score = 1, against = ["loss"] }\n'
            'loss = { score = 0, against = ["win"] }\n[k]',
        ),
        "utf-8",
    )
    done = run_cli("rules", "check", str(full))
    assert done.returncode == 0, done.stderr
