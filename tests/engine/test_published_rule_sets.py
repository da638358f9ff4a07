"""The rule files of published Elo systems in docs/rule-sets.md, checked against their public
descriptions (tests/data/rules/world-football.toml, fide.toml)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.engine.replay import replay
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules import load_rules

RULES = Path(__file__).parent.parent / "data" / "rules"


def match(a: str, ga: int, b: str, gb: int, *, mode: str, home: int | None = None,
          neutral: bool = False) -> GameRecord:  # fmt: skip
    oa, ob = ("win", "loss") if ga > gb else ("loss", "win") if ga < gb else ("draw", "draw")
    return GameRecord(
        date=dt.date(2014, 6, 12),
        sides=(Side((Participant(a),), oa, ga), Side((Participant(b),), ob, gb)),
        mode=mode,
        home=home,
        neutral=neutral,
    )


def test_world_football_elo_published_formula() -> None:
    """eloratings.net's published formula (also quoted by The Conversation, 2014): K 60 for World
    Cup finals, raised by half for a two-goal win; We = 1 / (10^(-dr/400) + 1) with dr the
    difference plus 100 for the home team. Brazil (2113) and Croatia (1787), the ratings published
    before the 2014 opener, which Brazil won 3-1 at home."""
    rules = load_rules(RULES / "world-football.toml")
    start = {PoolKey("Brazil"): PoolState(2113.0), PoolKey("Croatia"): PoolState(1787.0)}
    game = match("Brazil", 3, "Croatia", 1, mode="world-cup", home=0)
    brazil, croatia = replay(rules, [game], initial=start, reference=True).ledger
    we = 1 / (10 ** (-426 / 400) + 1)  # dr = 2113 + 100 - 1787
    assert brazil.k == 90  # 60 x 1.5
    assert brazil.expected == pytest.approx(we)
    assert brazil.delta == pytest.approx(90 * (1 - we))  # 7.13 points
    assert round(brazil.delta, 2) == 7.13
    assert croatia.delta == pytest.approx(-brazil.delta)


@pytest.mark.parametrize(
    ("goals", "index"), [(1, 1.0), (2, 1.5), (3, 1.75), (4, 1.875), (6, 2.125)]
)
def test_world_football_goal_difference_index(goals: int, index: float) -> None:
    rules = load_rules(RULES / "world-football.toml")
    game = match("A", goals, "B", 0, mode="friendly", neutral=True, home=0)
    a, _ = replay(rules, [game], reference=True).ledger
    assert a.k == pytest.approx(20 * index)
    assert a.expected == 0.5  # a neutral site: no home advantage


def test_fide_400_point_rule_and_k() -> None:
    """The FIDE Handbook's 400-point rule as chesselo.com illustrates it: a player rated 2000
    against 2420 is rated as against 2400; a 100-point difference expects 0.64 and 0.36."""
    rules = load_rules(RULES / "fide.toml")
    start = {
        PoolKey("C"): PoolState(2000.0, 40),
        PoolKey("D"): PoolState(2420.0, 40),
        PoolKey("E"): PoolState(2100.0, 10),
        PoolKey("F"): PoolState(2000.0, 40),
    }
    games = [
        GameRecord(dt.date(2024, 1, 1), (Side((Participant("C"),), "win"), Side((Participant("D"),), "loss"))),
        GameRecord(dt.date(2024, 1, 2), (Side((Participant("E"),), "draw"), Side((Participant("F"),), "draw"))),
    ]  # fmt: skip
    ledger = replay(rules, games, initial=start, reference=True).ledger
    c, d, e, f = ledger
    capped = round(1 / (1 + 10 ** (400 / 400)), 2)  # 2000 against 2400
    assert c.expected == capped and d.expected == round(1 - capped, 2)
    assert (c.k, d.k) == (20, 10)  # under 2400; 2400 and over
    assert c.delta == pytest.approx(20 * (1 - capped))
    assert e.k == 40  # fewer than 30 games
    assert (e.expected, f.expected) == (0.64, 0.36)
