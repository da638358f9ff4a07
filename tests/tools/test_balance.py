"""balance: brute-force optimum on random leagues, constraints, impossible requests (issue 6)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eloleague.engine import expected
from eloleague.engine.methods import expected_score
from eloleague.rules import load_rules
from eloleague.tools.balance import balance, default_sizes
from eloleague.tools.players import ToolError
from tests.conftest import DATA, REPLAY, run_cli
from tests.tools.helpers import write_initial

ELO = partial(expected_score, load_rules("bataille-empire"))  # the duel method, divisor 400


def ELO_500(a: float, b: float) -> float:
    return expected(a, b, 500)


def _splits(items: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    if not sizes:
        yield []
        return
    for combo in itertools.combinations(items, sizes[0]):
        rest = [x for x in items if x not in combo]
        for tail in _splits(rest, sizes[1:]):
            yield [combo, *tail]


def _spread(
    ratings: dict[str, float], teams: Sequence[Sequence[str]], bonus: Sequence[float] = ()
) -> float:
    points = bonus or [0.0] * len(teams)
    strengths = [
        sum(ratings[p] for p in t) / len(t) + b for t, b in zip(teams, points, strict=True)
    ]
    return max(strengths) - min(strengths)


def brute_force(
    ratings: dict[str, float],
    sizes: Sequence[int],
    together: Sequence[Sequence[str]] = (),
    apart: Sequence[Sequence[str]] = (),
    bonus: Sequence[float] = (),
) -> float:
    best = float("inf")
    for split in _splits(sorted(ratings), sizes):
        team_of = {p: i for i, t in enumerate(split) for p in t}
        if any(len({team_of[p] for p in g}) != 1 for g in together):
            continue
        if any(len({team_of[p] for p in g}) != len(g) for g in apart):
            continue
        best = min(best, _spread(ratings, split, bonus))
    return best


def _league(rng: random.Random, n: int, whole: bool) -> dict[str, float]:
    return {
        f"P{i:02d}": float(rng.randint(600, 1800)) if whole else rng.uniform(600, 1800)
        for i in range(n)
    }


@pytest.mark.parametrize("seed", range(12))
def test_two_teams_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(8, 16)
    ratings = _league(rng, n, whole=seed % 2 == 0)
    result = balance(ratings, teams=2, expected_score=ELO_500)
    assert result.exact
    assert result.spread == pytest.approx(brute_force(ratings, default_sizes(n, 2)), abs=1e-9)
    assert sorted(p for t in result.teams for p in t.players) == sorted(ratings)
    assert result.expected == pytest.approx(
        expected(result.teams[0].mean, result.teams[1].mean, 500)
    )


@pytest.mark.parametrize("seed", range(8))
def test_more_teams_match_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    teams = rng.choice([3, 4])
    n = rng.randint(8, 12 if teams == 3 else 11)
    ratings = _league(rng, n, whole=seed % 2 == 0)
    result = balance(ratings, teams=teams, expected_score=ELO)
    assert result.exact
    assert result.spread == pytest.approx(brute_force(ratings, default_sizes(n, teams)), abs=1e-9)
    assert [len(t.players) for t in result.teams] == default_sizes(n, teams)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_constraints_hold_and_stay_optimal(data: st.DataObject) -> None:
    n = data.draw(st.integers(8, 12))
    teams = data.draw(st.sampled_from([2, 2, 3]))
    ratings = {f"P{i:02d}": float(data.draw(st.integers(700, 1500))) for i in range(n)}
    names = sorted(ratings)
    shuffled = data.draw(st.permutations(names))
    together = [list(shuffled[:2])]
    apart = [list(shuffled[2 : 2 + teams])]
    sizes = default_sizes(n, teams)
    result = balance(ratings, teams=teams, together=together, apart=apart, expected_score=ELO)
    team_of = {p: i for i, t in enumerate(result.teams) for p in t.players}
    assert team_of[together[0][0]] == team_of[together[0][1]]
    assert len({team_of[p] for p in apart[0]}) == teams
    assert result.exact
    assert result.spread == pytest.approx(brute_force(ratings, sizes, together, apart), abs=1e-9)


def test_sizes_are_respected() -> None:
    rng = random.Random(7)
    ratings = _league(rng, 10, whole=True)
    result = balance(ratings, sizes=[6, 4], expected_score=ELO)
    assert [len(t.players) for t in result.teams] == [6, 4]
    assert result.spread == pytest.approx(brute_force(ratings, [6, 4]), abs=1e-9)


def test_beyond_the_exact_limit_the_bound_holds() -> None:
    rng = random.Random(3)
    for n, teams in ((30, 2), (40, 4), (27, 3)):
        ratings = _league(rng, n, whole=False)
        result = balance(ratings, teams=teams, expected_score=ELO)
        assert not result.exact and result.method == "heuristic"
        # Dealt by sorted blocks: the spread is within the stated bound of zero, hence of the optimum.
        assert 0 <= result.spread <= result.bound + 1e-9
        assert result.bound < 40


# The venue: a team at home counts the rule set's home advantage (docs/tools.md) ----------------


def test_the_team_at_home_gets_the_weaker_players() -> None:
    ratings = {"A": 1650.0, "B": 1550.0, "C": 1450.0, "D": 1350.0}
    plain = balance(ratings, expected_score=ELO)
    assert plain.spread == 0 and plain.expected == 0.5 and plain.bonus == ()
    assert {frozenset(t.players) for t in plain.teams} == {frozenset("AD"), frozenset("BC")}
    home = balance(ratings, expected_score=ELO, bonus=(100, 0))
    assert home.exact and home.spread == 0 and home.expected == 0.5
    assert set(home.teams[0].players) == {"B", "D"}  # 1450 + 100 against 1550
    assert home.bonus == (100, 0) and home.strengths == (1550, 1550)
    away = balance(ratings, expected_score=ELO, bonus=(0, 100))
    assert set(away.teams[0].players) == {"A", "C"}
    assert balance(ratings, expected_score=ELO, bonus=(0, 0)) == plain


@pytest.mark.parametrize("seed", range(12))
def test_two_teams_with_a_home_team_match_brute_force(seed: int) -> None:
    rng = random.Random(200 + seed)
    n = rng.randint(6, 13)
    ratings = _league(rng, n, whole=seed % 2 == 0)
    sizes = default_sizes(n, 2) if seed % 3 else [n - n // 3, n // 3]
    bonus = rng.choice([(100.0, 0.0), (0.0, 65.0), (37.5, 0.0), (0.0, 400.0)])
    names = sorted(ratings)
    apart = [names[:2]] if seed % 4 == 0 else []
    together = [names[2:4]] if seed % 4 == 1 else []
    result = balance(
        ratings, sizes=sizes, together=together, apart=apart, expected_score=ELO, bonus=bonus
    )
    assert result.exact
    best = brute_force(ratings, sizes, together, apart, bonus)
    assert result.spread == pytest.approx(best, abs=1e-9)
    teams = [t.players for t in result.teams]
    assert result.spread == pytest.approx(_spread(ratings, teams, bonus), abs=1e-9)
    means = [t.mean for t in result.teams]
    assert result.expected == pytest.approx(ELO(means[0] + bonus[0], means[1] + bonus[1]))


@pytest.mark.parametrize("seed", range(4))
def test_more_teams_with_bonus_match_brute_force(seed: int) -> None:
    rng = random.Random(300 + seed)
    n = rng.randint(7, 10)
    ratings = _league(rng, n, whole=True)
    bonus = (100.0, 0.0, 50.0)
    result = balance(ratings, teams=3, expected_score=ELO, bonus=bonus)
    assert result.exact
    best = brute_force(ratings, default_sizes(n, 3), bonus=bonus)
    assert result.spread == pytest.approx(best, abs=1e-9)


def test_beyond_the_exact_limit_a_home_team_is_dealt_weaker_players() -> None:
    ratings = _league(random.Random(5), 30, whole=False)
    result = balance(ratings, teams=2, expected_score=ELO, bonus=(100, 0))
    assert result.method == "heuristic" and sorted(
        p for t in result.teams for p in t.players
    ) == sorted(ratings)
    assert result.teams[1].mean - result.teams[0].mean == pytest.approx(100, abs=result.spread)
    assert result.spread < 5


def test_a_home_team_needs_two_teams() -> None:
    ratings = {f"P{i:02d}": 1000.0 + i for i in range(6)}
    with pytest.raises(ToolError, match="one of the two teams of a game, but there are 3 teams"):
        balance(ratings, teams=3, expected_score=ELO, bonus=(100, 0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"together": [["P00", "P01", "P02", "P03", "P04"]]}, "must play together, that is 5"),
        ({"apart": [["P00", "P01", "P02"]]}, "only 2 teams"),
        ({"together": [["P00", "P01"]], "apart": [["P01", "P00"]]}, "both together and apart"),
        ({"sizes": [5, 4]}, "add up to 9, but 8 players"),
        ({"sizes": [4, 4], "teams": 3}, "gives 2 team sizes but --teams asks for 3"),
        ({"teams": 9}, "8 players cannot make 9 teams"),
        ({"together": [["P00", "Nobody"]]}, '"Nobody" (in --together) is not among'),
        ({"apart": [["P00", "P01"], ["P01", "P02"], ["P00", "P02"]]}, "odd number"),
        (
            {
                "together": [["P00", "P01", "P02", "P03"], ["P04", "P05"]],
                "apart": [["P00", "P06"], ["P04", "P06"]],
                "sizes": [3, 5],
            },
            "no split",
        ),
        (
            {
                "together": [["P00", "P01", "P02", "P03"], ["P04", "P05"]],
                "apart": [["P06", "P07"]],
                "sizes": [4, 2, 2],
            },
            "no split",
        ),
    ],
)
def test_impossible_requests_are_explained(kwargs: dict[str, Any], message: str) -> None:
    ratings = {f"P{i:02d}": 1000.0 + i for i in range(8)}
    with pytest.raises(ToolError, match=message.replace("(", r"\(").replace(")", r"\)")):
        balance(ratings, expected_score=ELO, **kwargs)


def test_cli_balance(tmp_path: Path) -> None:
    initial = write_initial(
        tmp_path / "r.csv",
        {
            "A": (1400, 9),
            "B": (1300, 9),
            "C": (1100, 9),
            "D": (1000, 9),
            "E": (900, 9),
            "F": (800, 9),
        },
    )
    out = run_cli(
        "balance",
        "A",
        "B",
        "C",
        "D",
        "E",
        "F",
        "--apart",
        "A,B",
        "--rules",
        "bataille-empire",
        "--initial",
        str(initial),
    )
    assert out.returncode == 0, out.stderr
    assert "team 1" in out.stdout and "team 2" in out.stdout
    assert "most even possible" in out.stdout
    assert "mean 1083.3" in out.stdout or "mean 1100.0" in out.stdout
    bad = run_cli(
        "balance",
        "A",
        "B",
        "C",
        "--together",
        "A,B,C",
        "--rules",
        "bataille-empire",
        "--initial",
        str(initial),
    )
    assert bad.returncode == 2
    assert "must play together, that is 3 players, but the largest team has 2 places" in bad.stderr
    ffa = run_cli(
        "balance", "x", "y", "--rules", "diplomacy", "--games", str(REPLAY / "diplomacy.jsonl")
    )
    assert ffa.returncode == 2 and "free-for-all" in ffa.stderr


def test_ratings_in_a_mode_nobody_played_are_refused_not_all_at_the_start() -> None:
    from eloleague.records import PoolKey, PoolState
    from eloleague.rules import load_rules
    from eloleague.tools.players import player_ratings

    rules = load_rules("diplomacy")  # ratings per mode
    pools = {
        PoolKey("Ana", "classic", "France"): PoolState(1100.0, 3),
        PoolKey("Ben", "classic", "Italy"): PoolState(950.0, 3),
    }
    with pytest.raises(ToolError, match=r"no game was played in mode 'clasic' \(modes: classic\)"):
        player_ratings(rules, pools, ["Ana", "Ben"], mode="clasic")
    assert set(player_ratings(rules, pools, ["Ana", "Ben"], mode="classic")) == {"Ana", "Ben"}
    with pytest.raises(ToolError, match="has no modes"):
        player_ratings(load_rules("adlg"), {}, ["Ana"], mode="classic", allow_new=True)
    # given some players' pools only, the league's modes are given too (the site's balance)
    league_modes = ["classic", "blitz"]
    blitz = player_ratings(rules, pools, ["Ana"], mode="blitz", modes=league_modes)
    assert blitz == {"Ana": rules.start_rating}  # Ana never played blitz: she starts there
    with pytest.raises(ToolError, match=r"\(modes: blitz, classic\)"):
        player_ratings(rules, pools, ["Ana"], mode="clasic", modes=league_modes)


HOME_RULES = DATA / "rules" / "home-club.toml"  # home_advantage = 100


def test_cli_balance_with_a_team_at_home(tmp_path: Path) -> None:
    initial = write_initial(
        tmp_path / "r.csv", {"A": (1650, 20), "B": (1550, 20), "C": (1450, 20), "D": (1350, 20)}
    )
    common = ["balance", "A", "B", "C", "D", "--rules", str(HOME_RULES), "--initial", str(initial)]
    out = run_cli(*common, "--home", "1")
    assert out.returncode == 0, out.stderr
    assert "team 1 — mean 1450.0, at home +100: B (1550), D (1350)" in out.stdout
    assert "spread of the team strengths (mean + home advantage): 0.00" in out.stdout
    assert "expected score of team 1 against team 2: 50.0 %" in out.stdout
    fr = run_cli(*common, "--home", "2", "--lang", "fr")
    assert fr.returncode == 0, fr.stderr
    assert "équipe 2 — moyenne 1450,0, à domicile +100\u202f: B (1550), D (1350)" in fr.stdout
    plain = run_cli(*common)
    assert "team 1 — mean 1500.0: A (1650), D (1350)" in plain.stdout
    no_advantage = run_cli(*common[:6], "bataille-empire", "--initial", str(initial), "--home", "1")
    assert no_advantage.returncode == 0 and "at home" not in no_advantage.stdout
    assert "rule set bataille-empire has no home advantage" in no_advantage.stdout
    assert "has no home advantage" not in out.stdout + plain.stdout
    bad = run_cli(*common, "--home", "x")
    assert bad.returncode == 2 and '--home: the side at home is 1 or 2, not "x"' in bad.stderr
    three = run_cli(*common, "--home", "1", "--teams", "3", "--lang", "fr")
    assert three.returncode == 2
    assert "l’équipe qui reçoit est l’une des deux équipes d’une partie" in three.stderr
    assert "Traceback" not in bad.stderr + three.stderr
