"""evaluate: metrics checked against a small case computed by hand (issue 6)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from eloleague.io import read_games
from eloleague.rules import load_rules
from eloleague.tools.evaluate import evaluate, metrics
from eloleague.tools.report import evaluation_html
from tests.conftest import REPLAY, run_cli
from tests.tools.helpers import duel, write_games

# Two new players under bataille-empire-en (K 30 under 8 games, P rounded to 2 decimals):
# g1 A beats B: P(A) = 0.50, y = 1; A 1015, B 985.
# g2 draw: P(A) = E(1015, 985) = 0.5345 -> 0.53, y = 0.5; A -0.9 -> -1 (1014), B +1 (986).
# g3 B beats A: P(A) = E(1014, 986) = 0.5322 -> 0.53, y = 0.
HAND = [
    duel("2025-01-01", "A", "B", "marginal_victory", "defeat", "g1"),
    duel("2025-01-02", "A", "B", "draw", "draw", "g2"),
    duel("2025-01-03", "A", "B", "defeat", "decisive_victory", "g3"),
]


def test_hand_computed_case(tmp_path: Path) -> None:
    rules = load_rules("bataille-empire-en")
    games = read_games(write_games(tmp_path / "g.jsonl", HAND), rules)
    ev = evaluate(rules, games)
    assert ev.games == 3
    own = ev.models[0]
    assert own.name == "bataille-empire-en"
    assert own.samples == 3
    # Brier: (0.5 - 1)^2 + (0.53 - 0.5)^2 + (0.53 - 0)^2 = 0.25 + 0.0009 + 0.2809, over 3.
    assert own.brier == pytest.approx(0.5318 / 3)
    # Log loss: ln 2, -(0.5 ln 0.53 + 0.5 ln 0.47), -ln 0.47, over 3.
    assert own.log_loss == pytest.approx(
        (math.log(2) - 0.5 * math.log(0.53) - 0.5 * math.log(0.47) - math.log(0.47)) / 3
    )
    assert own.log_loss == pytest.approx(0.714373, abs=1e-6)
    # Accuracy on decisive games: g1 at 0.50 counts half, g3's favourite (A, 0.53) lost.
    assert own.decisive == 2
    assert own.accuracy == pytest.approx(0.25)
    # Calibration (both points of view): 0.47, 0.47 -> observed 0.5 and 1;
    # 0.50, 0.53, 0.53, 0.50 -> observed 1, 0.5, 0, 0.
    bins = {round(b.low, 1): b for b in own.calibration if b.count}
    assert set(bins) == {0.4, 0.5}
    assert (bins[0.4].count, bins[0.4].observed) == (2, 0.75)
    assert bins[0.4].predicted == pytest.approx(0.47)
    assert (bins[0.5].count, bins[0.5].observed) == (4, 0.375)
    assert bins[0.5].predicted == pytest.approx(0.515)
    # Plain Elo (400, K 32, start 1500) on the same games: 0.5, then E(1516, 1484) = 0.545922,
    # then A 1516 + 32 (0.5 - 0.545922) against B: 0.541725.
    elo = ev.models[1]
    assert elo.name.startswith("Elo")
    assert elo.brier == pytest.approx(
        ((0.5 - 1) ** 2 + (0.5459219 - 0.5) ** 2 + 0.5417249**2) / 3, abs=1e-6
    )
    assert [m.samples for m in ev.models] == [3, 3, 3, 3]


def test_metrics_of_perfect_and_useless_predictions() -> None:
    useless = metrics("coin", [(0.5, 1.0), (0.5, 0.0)])
    assert useless.log_loss == pytest.approx(math.log(2))
    assert useless.brier == pytest.approx(0.25)
    assert useless.accuracy == 0.5
    sure = metrics("sure", [(1.0, 1.0), (0.0, 0.0)])
    assert sure.brier == 0 and sure.accuracy == 1
    assert sure.log_loss < 1e-12


def test_baselines_run_on_every_method() -> None:
    for preset in ("adlg", "card-battle", "diplomacy"):
        rules = load_rules(preset)
        games = read_games(REPLAY / f"{preset}.jsonl", rules)
        ev = evaluate(rules, games)
        names = [m.name for m in ev.models]
        assert names[1:] == ["Elo (400, K 32)", "Glicko-2", "OpenSkill (Plackett-Luce)"]
        assert len({m.samples for m in ev.models}) == 1
        for m in ev.models:
            assert 0 < m.brier < 0.25 + 0.1  # every model does better than noise here
            assert m.accuracy is not None and m.accuracy > 0.5
        if preset == "diplomacy":
            assert ev.models[0].samples == ev.games * 21  # one sample per pair of 7 players


def test_report_reads_in_its_language() -> None:
    """The report and its chart write numbers as the reader's language does (a decimal comma and
    a spaced percent in French) and the chart's tips in that language."""
    rules = load_rules("adlg")
    evaluation = evaluate(rules, read_games(REPLAY / "adlg.jsonl", rules))
    first = evaluation.models[0]
    french, english = evaluation_html(evaluation, "fr"), evaluation_html(evaluation, "en")
    assert f"<td>{first.log_loss:.4f}</td>".replace(".", ",") in french
    assert f"<td>{first.log_loss:.4f}</td>" in english
    assert first.accuracy is not None
    assert f"{100 * first.accuracy:.1f}\u202f%".replace(".", ",") in french
    assert 'text-anchor="end">0,2</text>' in french  # the chart's axes
    assert 'text-anchor="end">0.2</text>' in english
    tips = re.findall(r"<circle [^>]*><title>([^<]*)</title>", french)
    assert tips and all(
        re.fullmatch(r".+\u202f: prédit 0,\d\d, observé [01],\d\d, \d+ parties?", t) for t in tips
    )
    assert re.search(r"<title>[^<]*: predicted 0\.\d\d, observed", english)


def test_report_and_cli(tmp_path: Path) -> None:
    rules = load_rules("adlg")
    html = evaluation_html(evaluate(rules, read_games(REPLAY / "adlg.jsonl", rules)), "fr")
    assert "<svg" in html and 'class="diagonal"' in html and html.count('class="series"') == 4
    report = tmp_path / "eval.html"
    out = run_cli(
        "evaluate",
        "--games",
        str(REPLAY / "adlg.jsonl"),
        "--rules",
        "adlg",
        "--report",
        str(report),
    )
    assert out.returncode == 0, out.stderr
    assert "Glicko-2" in out.stdout and "log loss" in out.stdout
    assert "991 rated games" in out.stdout
    assert report.read_text("utf-8").startswith("<!DOCTYPE html>")
    bad = run_cli("evaluate", "--games", str(REPLAY / "adlg.jsonl"))
    assert bad.returncode == 2 and "--rules" in bad.stderr
