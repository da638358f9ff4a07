"""Invariants of the engine, with Hypothesis (issue 2, "property tests")."""

from __future__ import annotations

import datetime as dt
import io
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from eloleague.engine import expected, replay
from eloleague.io.ratings_csv import parse_initial, write_ratings
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules, parse_rules
from tests.engine.helpers import ROLES

NAMES = [f"P{i}" for i in range(8)]
PRESETS = {
    name: load_rules(name)
    for name in ("bataille-empire", "bataille-empire-en", "adlg", "card-battle", "diplomacy")
}
PLAIN = parse_rules(
    'name = "plain"\nmethod = "duel"\nstart_rating = 1500\nscale = 400\n'
    "[k]\ndefault = 32\n[outcomes]\n"
    'win = { score = 1, against = ["loss"] }\nloss = { score = 0, against = ["win"] }\n'
    'draw = { score = 0.5, against = ["draw"] }\n'
)


@st.composite
def duel_games(draw: st.DrawFn, rules_name: str, max_games: int = 25) -> list[GameRecord]:
    rules = PRESETS.get(rules_name, PLAIN)
    max_size = min(rules.teams.max_size or 3, 3)
    pairs = [(a, b) for a in rules.outcomes for b in rules.outcomes[a].against]
    games = []
    day = dt.date(2024, 1, 1)
    for i in range(draw(st.integers(1, max_games))):
        day += dt.timedelta(days=draw(st.integers(0, 40)))
        players = draw(st.permutations(NAMES))
        na = draw(st.integers(1, max_size))
        nb = draw(st.integers(1, max_size))
        oa, ob = draw(st.sampled_from(pairs))
        games.append(
            GameRecord(
                date=day,
                sides=(
                    Side(tuple(Participant(p) for p in players[:na]), oa),
                    Side(tuple(Participant(p) for p in players[na : na + nb]), ob),
                ),
                id=f"g{i}",
                event=draw(st.sampled_from([None, "E1", "E2"])),
            )
        )
    return games


@st.composite
def ffa_games(draw: st.DrawFn, max_games: int = 12) -> list[GameRecord]:
    games = []
    for i in range(draw(st.integers(1, max_games))):
        players = draw(st.permutations(NAMES))[:7]
        scores = draw(st.lists(st.integers(-2, 20), min_size=7, max_size=7))
        games.append(
            GameRecord(
                date=dt.date(2024, 1, 1) + dt.timedelta(days=i),
                sides=tuple(
                    Side((Participant(p, ROLES[j]),), score=float(scores[j]))
                    for j, p in enumerate(players)
                ),
                id=f"d{i}",
                mode=draw(st.sampled_from(["classic", "blitz"])),
            )
        )
    return games


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["bataille-empire", "adlg", "card-battle"]).flatmap(
        lambda name: st.tuples(st.just(name), duel_games(name))
    )
)
def test_replay_is_deterministic(case: tuple[str, list[GameRecord]]) -> None:
    name, games = case
    first = replay(PRESETS[name], games)
    second = replay(PRESETS[name], list(games))
    assert first.ledger == second.ledger
    assert first.pools == second.pools


@settings(max_examples=40, deadline=None)
@given(duel_games("plain"))
def test_unrounded_duel_with_equal_k_is_zero_sum(games: list[GameRecord]) -> None:
    one_on_one = [g for g in games if all(len(s.players) == 1 for s in g.sides)]
    result = replay(PLAIN, one_on_one)
    total = sum(p.rating - PLAIN.start_rating for p in result.pools.values())
    assert math.isclose(total, 0.0, abs_tol=1e-6)
    by_game: dict[str, float] = {}
    for entry in result.ledger:
        by_game[entry.game] = by_game.get(entry.game, 0.0) + entry.delta
    assert all(math.isclose(v, 0.0, abs_tol=1e-9) for v in by_game.values())


@settings(max_examples=40, deadline=None)
@given(ffa_games())
def test_ffa_expected_scores_sum_to_one(games: list[GameRecord]) -> None:
    result = replay(PRESETS["diplomacy"], games)
    per_game: dict[str, float] = {}
    for entry in result.ledger:
        assert entry.expected is not None
        per_game[entry.game] = per_game.get(entry.game, 0.0) + entry.expected
    assert all(math.isclose(v, 1.0, rel_tol=1e-9) for v in per_game.values())


@given(st.floats(-3000, 3000), st.floats(-3000, 3000), st.sampled_from([400.0, 500.0]))
def test_expected_scores_of_two_players_sum_to_one(a: float, b: float, scale: float) -> None:
    assert math.isclose(expected(a, b, scale) + expected(b, a, scale), 1.0, rel_tol=1e-12)


def _resume_through_csv(rules_name: str, games: list[GameRecord], cut: int) -> dict[str, str]:
    rules = PRESETS.get(rules_name, PLAIN)
    games = sorted(games, key=lambda g: g.date)
    head = replay(rules, games[:cut])
    text = io.StringIO()
    write_ratings(head.standings(), rules, text)
    initial, problems = parse_initial(text.getvalue(), rules)
    assert problems == []
    tail = replay(rules, games[cut:], initial=initial)
    out = io.StringIO()
    write_ratings(tail.standings(), rules, out)
    full = io.StringIO()
    write_ratings(replay(rules, games).standings(), rules, full)
    return {"resumed": out.getvalue(), "full": full.getvalue()}


@settings(max_examples=30, deadline=None)
@given(duel_games("card-battle"), st.integers(0, 30))
def test_split_and_resume_with_initial_equals_one_run_card_battle(
    games: list[GameRecord], cut: int
) -> None:
    outputs = _resume_through_csv("card-battle", games, min(cut, len(games)))
    assert outputs["resumed"] == outputs["full"]


@settings(max_examples=20, deadline=None)
@given(ffa_games(), st.integers(0, 12))
def test_split_and_resume_with_initial_equals_one_run_diplomacy(
    games: list[GameRecord], cut: int
) -> None:
    outputs = _resume_through_csv("diplomacy", games, min(cut, len(games)))
    assert outputs["resumed"] == outputs["full"]


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(4)), st.sampled_from(["bataille-empire", "card-battle"]))
def test_order_of_unrelated_same_day_games_does_not_matter(order: list[int], name: str) -> None:
    rules = PRESETS[name]
    pairs = [a for a in rules.outcomes for b in rules.outcomes[a].against][:4]
    games = [
        GameRecord(
            date=dt.date(2024, 5, 1),
            sides=(
                Side((Participant(f"A{i}"),), pairs[i % len(pairs)]),
                Side((Participant(f"B{i}"),), rules.outcomes[pairs[i % len(pairs)]].against[0]),
            ),
            id=f"g{i}",
        )
        for i in range(4)
    ]
    warmup = [
        GameRecord(
            date=dt.date(2024, 4, 1),
            sides=(
                Side((Participant("A0"),), pairs[0]),
                Side((Participant("B3"),), rules.outcomes[pairs[0]].against[0]),
            ),
            id="w",
        )
    ]
    base = replay(rules, warmup + games).pools
    shuffled = replay(rules, warmup + [games[i] for i in order]).pools
    assert base == shuffled
