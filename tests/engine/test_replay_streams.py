"""Every replay stream of the spec: final ratings (byte for byte) and the ledger (by value)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.conftest import AS_OF, PRESETS, REPLAY, run_cli

NUMERIC = ("before", "expected", "k", "score", "delta", "after")


def _rate(preset: str, tmp_path: Path) -> tuple[str, Path]:
    ledger = tmp_path / "ledger.csv"
    args = ["rate", str(REPLAY / f"{preset}.jsonl"), "--rules", preset, "--ledger", str(ledger)]
    if preset in AS_OF:
        args += ["--as-of", AS_OF[preset]]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout, ledger


@pytest.mark.parametrize("preset", PRESETS)
def test_final_ratings_match(preset: str, tmp_path: Path) -> None:
    stdout, _ = _rate(preset, tmp_path)
    expected = (REPLAY / f"{preset}.csv").read_text("utf-8")
    assert stdout.replace("\r\n", "\n") == expected.replace("\r\n", "\n")


@pytest.mark.parametrize("preset", PRESETS)
def test_ledger_matches(preset: str, tmp_path: Path) -> None:
    _, ledger = _rate(preset, tmp_path)
    got = list(csv.DictReader(ledger.open(encoding="utf-8")))
    want = list(csv.DictReader((REPLAY / f"{preset}.ledger.csv").open(encoding="utf-8")))
    assert len(got) == len(want)
    for number, (g, w) in enumerate(zip(got, want, strict=True), start=2):
        assert g.keys() == w.keys()
        for column in w:
            if column in NUMERIC and w[column] != "":
                assert float(g[column]) == pytest.approx(float(w[column]), abs=1e-6), (
                    f"ledger line {number}, column {column}"
                )
            else:
                assert g[column] == w[column], f"ledger line {number}, column {column}"


def test_diplomacy_warnings_are_on_the_ledger(tmp_path: Path) -> None:
    _, ledger = _rate("diplomacy", tmp_path)
    warnings = [r["warning"] for r in csv.DictReader(ledger.open(encoding="utf-8"))]
    assert warnings.count("winner_loss") == 6
    assert warnings.count("loser_gain") == 1
