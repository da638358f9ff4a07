"""The tools on Glicko-2: ``evaluate``'s Glicko-2 baseline is the engine's method, a Glicko-2
rule set evaluates and compares like any other (an officer tries it before adopting it)."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from eloleague.engine import replay
from eloleague.records import GameRecord
from eloleague.rules import load_rules, parse_rules
from eloleague.tools.compare import compare
from eloleague.tools.evaluate import evaluate
from tests.engine.helpers import duel

GLICKO = load_rules(Path(__file__).parents[1] / "data" / "rules" / "glicko2.toml")
ELO = parse_rules(
    (Path(__file__).parents[1] / "data" / "rules" / "glicko2.toml")
    .read_text("utf-8")
    .replace('method = "glicko2"', 'method = "duel"\nscale = 400')
    .replace("glicko2 = { tau = 0.5, deviation = 350, volatility = 0.06 }", "")
    + "[k]\ndefault = 32\n"
)


def _games() -> list[GameRecord]:
    rng = random.Random(7)
    strength = {f"P{i}": i for i in range(10)}
    out = []
    for n in range(400):
        a, b = rng.sample(sorted(strength), 2)
        win = rng.random() < 1 / (1 + 10 ** ((strength[b] - strength[a]) / 4))
        day = (dt.date(2024, 1, 1) + dt.timedelta(days=n // 5)).isoformat()
        out.append(duel(day, a, "win" if win else "loss", b, "loss" if win else "win", gid=f"g{n}"))
    return out


def test_the_glicko2_baseline_is_the_glicko2_rule_set_with_one_period_a_game() -> None:
    games = _games()
    per_game = GLICKO.model_copy(update={"updates": "per_game", "period": None})
    ev = evaluate(ELO, games)
    baseline = next(m for m in ev.models if m.name == "Glicko-2")
    own = evaluate(per_game, games, baselines=False).models[0]
    # The baseline predicts with both deviations combined, the rule set's ledger with the
    # opponent's alone: close, not equal; both learn the players' order.
    assert baseline.samples == own.samples == 400
    assert baseline.log_loss == pytest.approx(own.log_loss, abs=0.02)
    assert baseline.accuracy is not None and baseline.accuracy > 0.6


def test_compare_replays_a_history_under_glicko2() -> None:
    games = _games()
    c = compare(games, ELO, GLICKO)
    want = {s.player: s.rating for s in replay(GLICKO, games).standings()}
    assert {r.player: r.rating_b for r in c.rows} == want
    assert c.games == 400 and c.changed_entries > 0
