"""The engine's rules one at a time, on hand-computed cases (RULES.md §3)."""

from __future__ import annotations

import datetime as dt

import pytest

from eloleague.engine import k_factor, replay
from eloleague.engine.ledger import CAP, FLOOR, INACTIVITY, ROUNDING
from eloleague.engine.maths import expected, round_probability
from eloleague.records import PoolKey, PoolState
from eloleague.rules import load_rules
from tests.engine.helpers import duel, ffa

BE = load_rules("bataille-empire")
BE_EN = load_rules("bataille-empire-en")
ADLG = load_rules("adlg")
DIPLO = load_rules("diplomacy")


def test_expected_score_formula() -> None:
    assert expected(1000, 1000, 500) == 0.5
    assert expected(1000, 1200, 500) == pytest.approx(1 / (1 + 10 ** (200 / 500)))
    assert expected(1000, 1200, 500) + expected(1200, 1000, 500) == pytest.approx(1.0)


def test_probability_rounds_half_up() -> None:
    assert str(round_probability(0.285, 2)) == "0.29"
    assert str(round_probability(0.2849, 2)) == "0.28"
    assert str(round_probability(0.5, 2)) == "0.50"


def test_bataille_empire_k_rule() -> None:
    assert k_factor(BE.k, 1000, 0) == 30  # fewer than 8 games
    assert k_factor(BE.k, 1000, 8) == 60
    assert k_factor(BE.k, 1400, 50) == 30  # a Marshal
    assert k_factor(ADLG.k, 1500, 9) == 50
    assert k_factor(ADLG.k, 1500, 10) == 15
    assert k_factor(ADLG.k, 1399, 10) == 30
    assert k_factor(DIPLO.k, 1500, 0) == 39.5  # the game being rated counts
    assert k_factor(DIPLO.k, 1500, 100) == 20


def test_half_up_rounding_is_exact_on_halves() -> None:
    # Equal ratings: P = 0.50 exactly; K 30 * (1.25 - 0.5) = 22.5 -> 23 (half away from zero).
    result = replay(BE, [duel("2025-01-01", "A", "decisive_victory", "B", "defeat")])
    a, b = result.ledger
    assert (a.delta, a.raw_delta) == (23, 22.5)
    assert ROUNDING in a.fired
    assert b.delta == -15


def test_gain_cap_inclusive_in_french_rules_only() -> None:
    initial = {PoolKey("Strong"): PoolState(1500, 20), PoolKey("Weak"): PoolState(1000, 20)}
    game = [duel("2025-01-01", "Strong", "marginal_victory", "Weak", "defeat")]
    capped = replay(BE, game, initial=initial).ledger[0]
    assert capped.delta == 0 and CAP in capped.fired
    uncapped = replay(BE_EN, game, initial=initial).ledger[0]
    assert uncapped.delta > 0 and CAP not in uncapped.fired
    # A loss is never capped.
    lost = replay(
        BE, [duel("2025-01-01", "Strong", "defeat", "Weak", "marginal_victory")], initial=initial
    ).ledger[0]
    assert lost.delta < 0


def test_adlg_cap_needs_more_than_500() -> None:
    initial = {PoolKey("Strong"): PoolState(1500, 20), PoolKey("Weak"): PoolState(1000, 20)}
    game = [duel("2025-01-01", "Strong", "victory", "Weak", "defeat")]
    assert replay(ADLG, game, initial=initial).ledger[0].delta > 0  # exactly 500: not "more than"
    initial[PoolKey("Strong")] = PoolState(1501, 20)
    assert replay(ADLG, game, initial=initial).ledger[0].delta == 0


def test_team_opponent_is_the_mean_of_the_other_side() -> None:
    initial = {
        PoolKey("A"): PoolState(1000, 20),
        PoolKey("B"): PoolState(1100, 20),
        PoolKey("C"): PoolState(1300, 20),
    }
    result = replay(
        BE, [duel("2025-01-01", "A", "marginal_victory", ["B", "C"], "defeat")], initial=initial
    )
    a = result.ledger[0]
    assert a.opponent == 1200
    assert a.expected == float(round_probability(expected(1000, 1200, 500), 2))


def test_per_event_uses_ratings_from_the_start_of_the_event() -> None:
    games = [
        duel("2025-03-01", "A", "victory", "B", "defeat", event="Open", rnd=1),
        duel("2025-03-01", "A", "victory", "C", "defeat", event="Open", rnd=2),
    ]
    result = replay(ADLG, games)
    first, _, second, _ = result.ledger
    assert first.before == second.before == 1000  # frozen for the event
    assert first.k == second.k == 50
    assert result.pools[PoolKey("A")] == PoolState(1050, 2)


def test_per_game_updates_between_games() -> None:
    games = [
        duel("2025-03-01", "A", "marginal_victory", "B", "defeat", rnd=1),
        duel("2025-03-01", "A", "marginal_victory", "C", "defeat", rnd=2),
    ]
    ledger = replay(BE, games).ledger
    assert ledger[2].before == ledger[0].after


def test_events_ordered_by_earliest_date_and_lone_games_are_batches() -> None:
    games = [
        duel("2025-05-01", "A", "victory", "B", "defeat", event="Late"),
        duel("2025-04-01", "A", "victory", "C", "defeat"),
        duel("2025-04-02", "C", "victory", "B", "defeat", event="Early"),
    ]
    ledger = replay(ADLG, games).ledger
    assert [e.date.isoformat() for e in ledger[::2]] == ["2025-04-01", "2025-04-02", "2025-05-01"]


def test_processing_order_is_date_then_round_then_input() -> None:
    games = [
        duel("2025-01-02", "A", "victory", "B", "defeat", gid="late"),
        duel("2025-01-01", "C", "victory", "D", "defeat", gid="r2", rnd=2),
        duel("2025-01-01", "E", "victory", "F", "defeat", gid="r1", rnd=1),
        duel("2025-01-01", "G", "victory", "H", "defeat", gid="r1b", rnd=1),
    ]
    ledger = replay(load_rules("adlg"), games).ledger
    assert [e.game for e in ledger[::2]] == ["r1", "r1b", "r2", "late"]


def test_inactivity_penalties_at_season_end() -> None:
    initial = {
        PoolKey("Idle"): PoolState(1350, 30),
        PoolKey("Mid"): PoolState(1150, 30),
        PoolKey("Low"): PoolState(1050, 30),
        PoolKey("Busy"): PoolState(1350, 30),
    }
    games = [
        duel("2024-06-01", "Busy", "draw", "New", "draw"),
        duel("2025-02-01", "Busy", "draw", "New", "draw"),
    ]
    result = replay(BE, games, initial=initial)
    season = [e for e in result.ledger if INACTIVITY in e.fired]
    assert [(e.key.player, e.delta, e.date.isoformat()) for e in season] == [
        ("Idle", -100, "2024-12-31"),
        ("Mid", -50, "2024-12-31"),
    ]
    assert all(e.warning == "inactivity" and e.game == "" for e in season)


def test_adlg_downgrade_stops_at_1000() -> None:
    initial = {PoolKey("Idle"): PoolState(1040, 30)}
    games = [
        duel("2024-06-01", "X", "victory", "Y", "defeat"),
        duel("2025-06-01", "X", "victory", "Y", "defeat"),
    ]
    result = replay(ADLG, games, initial=initial)
    assert result.pools[PoolKey("Idle")].rating == 1000


def test_seasons_follow_the_as_of_date() -> None:
    initial = {PoolKey("Idle"): PoolState(1350, 30)}
    games = [duel("2024-06-01", "X", "marginal_victory", "Y", "defeat")]
    # Default as-of = the last game: 2024 is not over, no penalty.
    assert replay(BE, games, initial=initial).pools[PoolKey("Idle")].rating == 1350
    # As of 2026-06-01: 2024 and 2025 ended (1350 -> 1250 -> 1200).
    later = replay(BE, games, initial=initial, as_of=dt.date(2026, 6, 1))
    assert later.pools[PoolKey("Idle")].rating == 1200
    # A season ending on the as-of date is not over yet (strictly before).
    same_day = replay(BE, games, initial=initial, as_of=dt.date(2024, 12, 31))
    assert same_day.pools[PoolKey("Idle")].rating == 1350


def test_seasons_before_the_first_game_are_never_applied() -> None:
    initial = {PoolKey("Idle"): PoolState(1350, 30)}
    games = [duel("2024-06-01", "X", "marginal_victory", "Y", "defeat")]
    result = replay(BE, games, initial=initial, as_of=dt.date(2025, 1, 1))
    assert [e.date.year for e in result.ledger if e.is_season] == [2024]


def test_titles_need_rating_and_games() -> None:
    assert ADLG.title_for(1450, 25) == "Great Master"
    assert ADLG.title_for(1450, 15) == "Master"
    assert ADLG.title_for(1350, 5) == "Seneschal"
    assert ADLG.title_for(1550, 25) == "Great Master"  # 1500-1599 unnamed by the seed
    assert ADLG.title_for(1650, 29) == "Great Master"  # Strategist needs 30 games
    assert ADLG.title_for(1650, 30) == "Strategist"
    assert ADLG.title_for(650, 0) == "Quartermaster"
    assert BE.title_for(1399, 0) == "Général en Chef"
    assert BE.title_for(1400, 0) == "Maréchal d'Empire"
    assert BE.title_for(699, 0) == "Adjudant"


def _seven(day: str = "2025-01-01", **kw: float) -> dict[str, float]:
    names = ["P0", "P1", "P2", "P3", "P4", "P5", "P6"]
    scores = [18, 9, 7, 5, 3, 2, 1]
    return dict(zip(names, scores, strict=True)) | kw


def test_ffa_floor_and_ledger_delta_is_the_applied_change() -> None:
    initial = {PoolKey("P6", "classic", "Turkey"): PoolState(1001, 40)}
    result = replay(DIPLO, [ffa("2025-01-01", _seven())], initial=initial)
    entry = next(e for e in result.ledger if e.key.player == "P6")
    assert entry.raw_delta is not None and entry.raw_delta < -1
    assert entry.after == 1000 and entry.delta == -1
    assert FLOOR in entry.fired


def test_ffa_global_rating_is_the_mean_over_all_roles() -> None:
    result = replay(DIPLO, [ffa("2025-01-01", _seven())])
    rows = {(r.player, r.role): r for r in result.standings()}
    p0 = rows["P0", "England"]
    assert rows["P0", "*"].rating == pytest.approx((p0.rating + 6 * 1500) / 7)
    assert rows["P0", "*"].games == 1


def test_ffa_incomplete_and_unrated_games_are_not_rated() -> None:
    scores = _seven()
    del scores["P6"]
    incomplete = ffa("2025-01-01", scores)
    result = replay(DIPLO, [incomplete])
    assert result.ledger == [] and result.pools == {}
    assert "Turkey" in result.unrated[0].reason


def test_ffa_ties_share_the_weights() -> None:
    from eloleague.engine import ffa_performances

    perf = ffa_performances([5, 5, 1], 1.5, False)
    w = [1.5**3 - 1, 1.5**2 - 1, 1.5 - 1]
    assert perf[0] == perf[1] == pytest.approx((w[0] + w[1]) / 2 / sum(w))
    assert ffa_performances([0, -1, 3], 1.5, False)[:2] == [0.0, 0.0]
