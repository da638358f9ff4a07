"""Home advantage, margins, formulas, lead_cap, season reversion, rating_storage and decay scope
(docs/rule-sets.md), each against values computed by hand from the rule."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from eloleague.engine.replay import replay
from eloleague.errors import RuleSetError
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules import RuleSet, parse_rules

BASE = """
name = "t"
method = "duel"
start_rating = 1500
{top}

[outcomes]
win = {{ score = 1, against = ["loss"] }}
draw = {{ score = 0.5, against = ["draw"] }}
loss = {{ score = 0, against = ["win"] }}

[k]
default = 20
{k}
{rest}
"""


def rules(top: str = "", k: str = "", rest: str = "") -> RuleSet:
    return parse_rules(BASE.format(top=top, k=k, rest=rest))


def game(
    day: str,
    a: str,
    oa: str,
    b: str,
    ob: str,
    *,
    points: tuple[float, float] | None = None,
    home: int | None = None,
    neutral: bool = False,
    mode: str = "",
    gid: str | None = None,
) -> GameRecord:
    pa, pb = points if points is not None else (None, None)
    return GameRecord(
        date=dt.date.fromisoformat(day),
        sides=(Side((Participant(a),), oa, pa), Side((Participant(b),), ob, pb)),
        home=home,
        neutral=neutral,
        mode=mode,
        id=gid,
    )


def e(diff: float) -> float:
    return 1 / (1 + 10 ** (-diff / 400))


def test_home_advantage_is_added_to_the_home_side_in_the_expectation() -> None:
    r = rules("home_advantage = 100")
    result = replay(r, [game("2024-01-01", "A", "win", "B", "loss", home=1)], reference=True)
    a, b = result.ledger
    assert a.expected == pytest.approx(e(-100))  # A plays away
    assert b.expected == pytest.approx(e(100))
    assert a.delta == pytest.approx(20 * (1 - e(-100)))
    assert (a.extra, b.extra) == ((-100.0,), (100.0,))  # the advantage each side had


def test_a_neutral_site_or_no_home_side_takes_no_advantage() -> None:
    r = rules("home_advantage = 100")
    for g in (
        game("2024-01-01", "A", "win", "B", "loss", home=0, neutral=True),
        game("2024-01-01", "A", "win", "B", "loss"),
    ):
        a, _ = replay(r, [g], reference=True).ledger
        assert a.expected == 0.5
        assert a.extra == (0.0,)


def test_without_home_advantage_a_home_field_changes_nothing() -> None:
    r = rules()
    with_home = replay(r, [game("2024-01-01", "A", "win", "B", "loss", home=0)], reference=True)
    plain = replay(r, [game("2024-01-01", "A", "win", "B", "loss")], reference=True)
    assert with_home.pools == plain.pools
    assert [x.delta for x in with_home.ledger] == [x.delta for x in plain.ledger]


def test_k_multiplier_reads_the_margin_and_the_winners_lead() -> None:
    r = rules(
        'home_advantage = 50\nk_multiplier = "pow(abs(margin) + 3, 0.8) / (7.5 + 0.006 * lead)"'
    )
    start = {PoolKey("A"): PoolState(1600.0, 5), PoolKey("B"): PoolState(1500.0, 5)}
    g = game("2024-01-01", "A", "loss", "B", "win", points=(10, 17), home=0)
    a, b = replay(r, [g], initial=start, reference=True).ledger
    lead = 1500 - (1600 + 50)  # B won: its lead, home advantage included (negative: an upset)
    multiplier = (7 + 3) ** 0.8 / (7.5 + 0.006 * lead)
    assert a.k == pytest.approx(20 * multiplier)
    assert a.extra == pytest.approx((50.0, multiplier))
    assert b.delta == pytest.approx(20 * multiplier * (1 - e(-150)))
    assert a.points == 10 and b.points == 17


def test_a_rule_set_using_the_margin_needs_every_score() -> None:
    from eloleague.engine.methods import method_of

    r = rules('k_multiplier = "1 + abs(margin) / 10"')

    side = Side((Participant("A"),), "win", None)
    problems = method_of(r).check_side(r, side, 1)
    assert problems and "score" in problems[0]


def test_score_value_gives_s() -> None:
    r = rules('score_value = "if(margin > 0, 1, if(margin == 0, 0.5, 0)) * 0.8 + 0.1"')
    a, b = replay(
        r, [game("2024-01-01", "A", "win", "B", "loss", points=(2, 1))], reference=True
    ).ledger
    assert a.score == pytest.approx(0.9) and b.score == pytest.approx(0.1)
    assert a.delta == pytest.approx(20 * (0.9 - 0.5))


def test_a_formula_without_value_for_a_game_is_a_located_error() -> None:
    r = rules('k_multiplier = "1 / margin"')
    g = game("2024-01-01", "A", "draw", "B", "draw", points=(1, 1), gid="final")
    with pytest.raises(RuleSetError) as err:
        replay(r, [g], reference=True)
    text = str(err.value)
    assert "k_multiplier" in text and "column 5" in text and "final" in text
    assert "division by zero" in text and "margin = 0" in text


def test_lead_cap_counts_a_larger_difference_as_the_cap() -> None:
    r = rules("lead_cap = 400")
    start = {PoolKey("A"): PoolState(2000.0), PoolKey("B"): PoolState(2420.0)}
    a, b = replay(r, [game("2024-01-01", "A", "draw", "B", "draw")], initial=start).ledger
    # The 400-point rule: 2000 against 2420 is rated as against 2400.
    assert a.expected == pytest.approx(e(-400)) and b.expected == pytest.approx(e(400))
    assert a.opponent == 2420.0  # the ledger keeps the real opponent


def test_k_by_mode_comes_before_the_default() -> None:
    r = rules(k='by_mode = { "world-cup" = 60, "friendly" = 20.5 }')
    cup = replay(r, [game("2024-01-01", "A", "win", "B", "loss", mode="world-cup")]).ledger
    other = replay(r, [game("2024-01-01", "A", "win", "B", "loss", mode="league")]).ledger
    assert cup[0].k == 60 and other[0].k == 20


def test_reversion_at_a_pools_first_game_of_a_new_season() -> None:
    r = rules(rest="[season]\nreversion = { mean = 1505, fraction = 0.75 }")
    games = [
        game("2023-05-01", "A", "win", "B", "loss"),
        game("2024-03-01", "A", "win", "C", "loss"),  # B does not play in 2024
    ]
    result = replay(r, games, reference=True)
    first = 20 * 0.5
    rows = [x for x in result.ledger if x.warning == "reversion"]
    assert [x.key.player for x in rows] == ["A"]  # C is new, B did not play
    assert rows[0].before == 1500 + first
    assert rows[0].after == pytest.approx(1505 + 0.75 * (1500 + first - 1505))
    assert result.pools[PoolKey("B")].rating == 1500 - first  # not reverted until it plays


def test_reversion_formula() -> None:
    r = rules(
        rest='[season]\nreversion = { formula = "mean + if(games > 10, 0.9, 0.5) * (rating - mean)" }'
    )
    games = [
        game("2023-05-01", "A", "win", "B", "loss"),
        game("2024-03-01", "A", "win", "B", "loss"),
    ]
    rows = [x for x in replay(r, games).ledger if x.warning == "reversion"]
    assert [(x.key.player, x.after) for x in rows] == [("A", 1505.0), ("B", 1495.0)]


def test_rating_storage_sum_keeps_the_raw_sum_of_rounded_changes() -> None:
    grid = rules('delta_rounding = { mode = "half_up", decimals = 1 }')
    summed = rules('delta_rounding = { mode = "half_up", decimals = 1 }\nrating_storage = "sum"')
    games = [
        game(f"2024-01-{d:02d}", "A" if d % 3 else "B", "win", "B" if d % 3 else "C", "loss")
        for d in range(1, 29)
    ]
    g = replay(grid, games, reference=True)
    s = replay(summed, games, reference=True)
    for key, pool in s.pools.items():
        total = 1500.0
        for x in s.ledger:
            if x.key == key:
                total += x.delta  # the float sum, in order
        assert pool.rating == total
        assert g.pools[key].rating == round(pool.rating, 1)
    assert any(p.rating != round(p.rating, 1) for p in s.pools.values())  # float sums drift


DECAY = """[decay]
idle_days = 0
points = 3
every_days = 1
cap_percent = 15
{more}"""


def test_decay_never_takes_more_than_the_cap_on_a_grid() -> None:
    r = rules('delta_rounding = { mode = "half_up", decimals = 1 }', rest=DECAY.format(more=""))
    start = {PoolKey("A"): PoolState(1525.0), PoolKey("B"): PoolState(1525.0)}
    g = game("2024-01-01", "A", "draw", "B", "draw")  # no change: the spell begins at 1525
    result = replay(r, [g], initial=start, as_of=dt.date(2024, 6, 1), reference=True)
    rows = [x for x in result.ledger if x.warning == "decay" and x.key.player == "A"]
    lost = 1525 - result.pools[PoolKey("A")].rating
    assert lost <= 1525 * 0.15  # 228.75: the cap, never exceeded (was 228.8)
    assert result.pools[PoolKey("A")].rating == 1296.3  # cut down to the 0.1 grid
    assert [x.delta for x in rows[:2]] == [-3.0, -3.0]  # clean decimals, no float noise
    assert rows[-1].delta == -0.7
    assert all(repr(x.delta) == repr(float(round(x.delta, 1))) for x in rows)


def test_decay_without_grid_takes_the_cap_exactly() -> None:
    r = rules(rest=DECAY.format(more=""))
    start = {PoolKey("A"): PoolState(1525.0), PoolKey("B"): PoolState(1525.0)}
    g = game("2024-01-01", "A", "draw", "B", "draw")  # no change: the spell begins at 1525
    result = replay(r, [g], initial=start, as_of=dt.date(2024, 6, 1), reference=True)
    assert result.pools[PoolKey("A")].rating == 1296.25
    rows = [x for x in result.ledger if x.warning == "decay" and x.key.player == "A"]
    assert {x.delta for x in rows[:-1]} == {-3.0} and rows[-1].delta == -0.75


def test_decay_career_scope_never_resets() -> None:
    spell = rules(rest=DECAY.format(more=""))
    career = rules(rest=DECAY.format(more='cap_scope = "career"'))
    games = [
        game("2024-01-01", "A", "draw", "B", "draw"),
        game("2024-06-01", "A", "draw", "B", "draw"),  # back after losing the whole cap
        game("2024-12-01", "A", "draw", "B", "draw"),
    ]
    s = replay(spell, games, reference=True)
    c = replay(career, games, reference=True)
    lost_s = -sum(x.delta for x in s.ledger if x.warning == "decay" and x.key.player == "A")
    lost_c = -sum(x.delta for x in c.ledger if x.warning == "decay" and x.key.player == "A")
    assert lost_c == pytest.approx(1500 * 0.15)  # one cap over the career
    assert lost_s > 2 * 1500 * 0.15 * 0.9  # a cap per spell


def test_decay_resumes_from_a_state_as_a_whole_replay() -> None:
    r = rules(rest=DECAY.format(more='cap_scope = "career"\nstep = "points + nth / 2"'))
    games = [
        game("2024-01-01", "A", "draw", "B", "draw", gid="g1"),
        game("2024-01-20", "A", "draw", "C", "draw", gid="g2"),
        game("2024-02-20", "B", "draw", "C", "draw", gid="g3"),
    ]
    whole = replay(r, games, reference=True)
    head = replay(r, games[:2], reference=True, as_of=dt.date(2024, 2, 1))
    tail = replay(r, games[2:], initial=head.state, reference=True)
    assert tail.pools == whole.pools
    assert [*head.ledger, *tail.ledger] == list(whole.ledger)


@pytest.mark.parametrize(
    ("line", "column", "problem"),
    [
        ('k_multiplier = "margin +"', 9, "not a valid formula"),
        ('k_multiplier = "foo * 2"', 1, "unknown name 'foo'"),
        ('score_value = "1 / (2 - 2)"', 6, "division by zero"),
        ('k_multiplier = "ln(0)"', 1, "outside the domain"),
        ('k_multiplier = "margin ^ 2"', 8, "operator ^"),
        ('k_multiplier = "(margin) // 2"', 10, "operator //"),
        ("k_multiplier = \"__import__('os')\"", 1, "unknown name '__import__'"),
        ('k_multiplier = "k.real"', 1, "attributes"),
        ('k_multiplier = "min(1)"', 1, "min() takes 2-16 arguments"),
        ('k_multiplier = "rating(1)"', 1, "is a variable, not a function"),
        ('k_multiplier = "if(margin, 1)"', 1, "if() takes 3 arguments"),
        ("k_multiplier = \"'text'\"", 1, "only numbers"),
        ('k_multiplier = "1 if margin else 2"', 1, "if(condition, then, else)"),
    ],
)
def test_formula_mistakes_are_located(line: str, column: int, problem: str) -> None:
    with pytest.raises(RuleSetError) as err:
        parse_rules(BASE.format(top=line, k="", rest=""), "club.toml")
    message = str(err.value)
    key = line.split(" =")[0]
    assert message.startswith(f"club.toml, line 5: key {key}: column {column}: ")
    assert problem in message
    assert "\n" not in message


def test_expressions_never_reach_python() -> None:
    from eloleague.rules.expressions import ExpressionError, parse

    for text in ("(lambda: 1)()", "[x for x in ()]", "open('f')", "a:=1", "k.__class__"):
        with pytest.raises(ExpressionError):
            parse(text, {"k": ""})
    f = parse(
        "if(k > 1 and not k > 5, sqrt(k), -abs(k)) + max(1, 2, 3) % 2 + log10(100)", {"k": ""}
    )
    assert f({"k": 4}) == 2 + 1 + 2
    assert f({"k": 9}) == -9 + 1 + 2
    assert math.isclose(parse("exp(ln(2)) * 2 ** 3", {})({}), 16)
