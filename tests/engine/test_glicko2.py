"""The ``glicko2`` method: Glickman's worked example, the ``glicko2`` package on random streams,
idle periods, resuming, and the fast path handing it to the reference path."""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

import glicko2 as package  # type: ignore[import-untyped]  # the package ships no types
import pytest

from eloleague.engine import EngineState, methods, replay
from eloleague.engine.fast import unsupported
from eloleague.engine.methods.glicko2 import (
    NEVER,
    SCALE,
    idle_deviation,
    new_volatility,
    rate_period,
)
from eloleague.errors import RuleSetError
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules import parse_rules
from tests.engine.helpers import duel

TEXT = """
name = "glicko"
method = "glicko2"
start_rating = 1500
updates = "per_period"
period = "day"
glicko2 = { tau = 0.5, deviation = 350, volatility = 0.06 }
[outcomes]
win = { score = 1, against = ["loss"] }
draw = { score = 0.5, against = ["draw"] }
loss = { score = 0, against = ["win"] }
"""
RULES = parse_rules(TEXT)


def _pool(rating: float, deviation: float, volatility: float = 0.06) -> PoolState:
    return PoolState(rating, 0, (deviation, volatility, NEVER))


def test_the_paper_example() -> None:
    """Glickman, *Example of the Glicko-2 system*: 1500/200/0.06 beats 1400/30, loses to
    1550/100 and 1700/300 in one rating period: about 1464.06 / 151.52 / 0.05999."""
    initial = {
        PoolKey("A"): _pool(1500, 200),
        PoolKey("B"): _pool(1400, 30),
        PoolKey("C"): _pool(1550, 100),
        PoolKey("D"): _pool(1700, 300),
    }
    games = [
        duel("2024-03-01", "A", "win", "B", "loss"),
        duel("2024-03-01", "A", "loss", "C", "win"),
        duel("2024-03-01", "A", "loss", "D", "win"),
    ]
    result = replay(RULES, games, initial=initial)
    a = result.pools[PoolKey("A")]
    assert a.rating == pytest.approx(1464.06, abs=0.01)
    deviation, volatility, period = a.extra
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)  # 0.059996, printed 0.05999
    assert (a.games, period) == (3, 0.0)
    entries = [e for e in result.ledger if e.key == PoolKey("A")]
    assert sum(e.delta for e in entries) == pytest.approx(a.rating - 1500, abs=1e-9)
    assert all(e.before == 1500 for e in entries)
    assert all(e.extra == (deviation, volatility) for e in entries)  # published after the period
    assert [round(e.expected or 0, 3) for e in entries] == [0.639, 0.432, 0.303]  # the paper's E


def test_the_volatility_iteration_gives_the_paper_s_value() -> None:
    # Step 5 of the paper with its own v and delta: sigma' = 0.05999.
    sigma = new_volatility(1.1513, 0.06, -0.4834, 1.7785, 0.5)
    assert sigma == pytest.approx(0.059996, abs=0.000001)


class _Player(package.Player):  # type: ignore[misc]  # an untyped package's class (Any)
    """The package's player with step 5's ``f`` as the paper writes it: the package's own
    ``_f`` squares the rating where the paper squares the deviation phi."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi: float = self.rd / 173.7178  # the package is untyped: its attributes are floats
        tau: float = self._tau
        ex = math.exp(x)
        num = ex * (delta**2 - phi**2 - v - ex)
        return num / (2 * (phi**2 + v + ex) ** 2) - (x - a) / (tau**2)


def _package_stream(games: list[GameRecord]) -> dict[str, Any]:
    """The same games through the package, one rating period per day; idle players' deviations
    grow by one period each day without games (``did_not_compete``)."""
    players: dict[str, Any] = {}
    by_day: dict[dt.date, list[GameRecord]] = {}
    for g in games:
        by_day.setdefault(g.date, []).append(g)
    first = min(by_day)
    for n in range((max(by_day) - first).days + 1):
        day_games = by_day.get(first + dt.timedelta(days=n), [])
        results: dict[str, list[tuple[float, float, float]]] = {}
        for g in day_games:
            a, b = (s.players[0].name for s in g.sides)
            for name in (a, b):
                players.setdefault(name, _Player())
            score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[g.sides[0].outcome or ""]
            results.setdefault(a, []).append((players[b].rating, players[b].rd, score))
            results.setdefault(b, []).append((players[a].rating, players[a].rd, 1 - score))
        if not day_games:
            continue  # not a rating period: no batch either
        for name, player in players.items():
            if name in results:
                rs, rds, ss = zip(*results[name], strict=True)
                player.update_player(list(rs), list(rds), list(ss))
            else:
                player.did_not_compete()
    return players


@pytest.mark.parametrize("seed", range(5))
def test_random_streams_match_the_glicko2_package(seed: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(8)]
    games = []
    for n in range(300):
        a, b = rng.sample(names, 2)
        outcome = rng.choice(["win", "draw", "loss"])
        other = {"win": "loss", "draw": "draw", "loss": "win"}[outcome]
        day = dt.date(2024, 1, 1) + dt.timedelta(days=n // 6)
        games.append(duel(day.isoformat(), a, outcome, b, other))
    # The package rates every day as a period; days without games make no batch here, so every
    # day of this stream has games.
    want = _package_stream(games)
    got = replay(RULES, games).pools
    for name, player in want.items():
        pool = got[PoolKey(name)]
        assert pool.rating == pytest.approx(player.rating, abs=1e-6)
        assert pool.extra[0] == pytest.approx(player.rd, abs=1e-6)
        assert pool.extra[1] == pytest.approx(player.vol, abs=1e-9)


def test_idle_periods_grow_the_deviation() -> None:
    games = [
        duel("2024-01-01", "A", "win", "B", "loss"),
        duel("2024-01-02", "C", "win", "D", "loss"),
        duel("2024-01-03", "C", "win", "D", "loss"),
        duel("2024-01-04", "A", "win", "B", "loss"),
    ]
    result = replay(RULES, games)
    assert result.state.periods == 4
    start = replay(RULES, games[:1]).pools
    a, b = start[PoolKey("A")], start[PoolKey("B")]
    # A and B sat out two periods: sqrt(phi² + 2 sigma²) before their next one.
    grown_a = idle_deviation(a.extra[0], a.extra[1], 2)
    grown_b = idle_deviation(b.extra[0], b.extra[1], 2)
    step = math.sqrt(a.extra[0] ** 2 + (a.extra[1] * SCALE) ** 2)
    assert grown_a == math.sqrt(step**2 + (a.extra[1] * SCALE) ** 2)
    assert grown_a > a.extra[0]
    _, rating, deviation, volatility = rate_period(
        a.rating, grown_a, a.extra[1], [(b.rating, grown_b, 1.0)], 0.5
    )
    assert result.pools[PoolKey("A")] == PoolState(rating, 2, (deviation, volatility, 3.0))
    assert result.ledger[-2].before == a.rating and result.ledger[-2].opponent == b.rating


def test_resuming_gives_the_whole_replay() -> None:
    rng = random.Random(3)
    games = []
    for n in range(200):
        a, b = rng.sample(["A", "B", "C", "D", "E"], 2)
        day = (dt.date(2024, 1, 1) + dt.timedelta(days=n // 3)).isoformat()
        games.append(duel(day, a, "win", b, "loss", gid=f"g{n}"))
    whole = replay(RULES, games)
    cut = 98  # the games of a day stay together
    assert games[cut].date != games[cut + 1].date
    first = replay(RULES, games[: cut + 1])
    rest = replay(RULES, games[cut + 1 :], initial=first.state)
    assert rest.state == whole.state
    assert list(first.ledger) + list(rest.ledger) == list(whole.ledger)


def test_the_fast_path_hands_glicko2_to_the_reference() -> None:
    assert unsupported(RULES) == "method = 'glicko2'"
    rng = random.Random(9)
    games = []
    for n in range(2500):
        a, b = rng.sample([f"P{i}" for i in range(30)], 2)
        games.append(
            duel(
                (dt.date(2024, 1, 1) + dt.timedelta(days=n // 20)).isoformat(), a, "win", b, "loss"
            )
        )
    assert replay(RULES, games).state == replay(RULES, games, reference=True).state


def test_rule_files_of_glicko2() -> None:
    assert methods.get("glicko2").pool_fields[:2] == ("deviation", "volatility")
    with pytest.raises(RuleSetError, match="does not use k"):
        parse_rules(TEXT + "[k]\ndefault = 32\n")
    with pytest.raises(RuleSetError, match="from 0 to 1"):
        parse_rules(TEXT.replace("win = { score = 1,", "win = { score = 1.25,"))
    with pytest.raises(RuleSetError, match=r"glicko2\.tau"):
        parse_rules(TEXT.replace("tau = 0.5", "tau = 0"))
    assert EngineState().periods == 0
