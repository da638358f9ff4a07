"""A Glicko-2 league: the deviations and volatilities are stored with the ratings, carried by the
checkpoints, and every change still equals a full replay."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest

from eloleague.league import League
from eloleague.store import checkpoints
from tests.store.helpers import ranking_csv, write_lines

RULES = Path(__file__).parents[1] / "data" / "rules" / "glicko2.toml"


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 40)


def _games(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    names = [f"Joueur {i}" for i in range(12)]
    out = []
    for i in range(n):
        a, b = rng.sample(names, 2)
        result = rng.choice(["win", "draw", "loss"])
        other = {"win": "loss", "draw": "draw", "loss": "win"}[result]
        day = dt.date(2024, 1, 1) + dt.timedelta(days=i // 4 + (i // 40) * 3)  # idle days too
        sides = [{"players": [a], "outcome": result}, {"players": [b], "outcome": other}]
        out.append({"id": f"g{i}", "date": day.isoformat(), "sides": sides})
    return out


def _assert_full_replay(league: League) -> None:
    full = league.replay_result()
    assert league.ledger() == list(full.ledger)
    stored = {(r.player, r.mode, r.role): (r.rating, r.games, r.shown) for r in league.ranking()}
    replayed = {(r.player, r.mode, r.role): (r.rating, r.games, r.shown) for r in full.standings()}
    assert stored == replayed
    assert all(len(shown) == 2 for _, _, shown in stored.values())


def test_a_glicko2_league_stores_deviations_and_resumes_exactly(
    db_url: str, tmp_path: Path
) -> None:
    lines = _games(300, 1)
    league = League.create(db_url, "glicko", RULES)
    for n, piece in enumerate([lines[100:200], lines[:100], lines[200:]]):
        league.import_file(write_lines(tmp_path / f"piece{n}.jsonl", piece))
        _assert_full_replay(league)
    league.delete_game("g150")
    _assert_full_replay(league)
    mid = {r.player: r.shown[0] for r in league.ranking()}
    late = [dict(o, id=f"late{i}") for i, o in enumerate(_games(3, 2))]
    for o in late:
        o["date"] = "2025-06-01"
    league.import_file(write_lines(tmp_path / "late.jsonl", late))
    _assert_full_replay(league)
    header = ranking_csv(league).splitlines()[0]
    assert header == "player,mode,role,rating,games,title,deviation,volatility"
    # Those who sat out the late event's rating period: their deviation grew.
    played = {p for o in late for side in o["sides"] for p in side["players"]}
    after = {r.player: r.shown[0] for r in league.ranking()}
    idle = set(mid) - played
    assert idle and all(after[p] > mid[p] for p in idle)


def test_a_league_adopts_glicko2_with_change_rules(tmp_path: Path) -> None:
    elo = tmp_path / "elo.toml"
    elo.write_text(
        RULES.read_text("utf-8")
        .replace('method = "glicko2"', 'method = "duel"')
        .replace("glicko2 = { tau = 0.5, deviation = 350, volatility = 0.06 }", "")
        + "[k]\ndefault = 32\n",
        encoding="utf-8",
    )
    league = League.create(str(tmp_path / "l.db"), "club", elo)
    league.import_file(write_lines(tmp_path / "g.jsonl", _games(120, 5)))
    assert all(r.shown == () for r in league.ranking())
    league.change_rules(RULES)
    _assert_full_replay(league)
    assert league.rules.method == "glicko2"
    league.change_rules(elo)  # back to Elo: no deviation left behind
    assert {r.shown for r in league.ranking()} == {()}
