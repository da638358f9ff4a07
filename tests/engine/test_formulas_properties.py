"""Property tests of the new rule-file keys (docs/rule-sets.md): both paths give the same replay
on random streams using every key (the fast path declines them, so ``replay`` must hand over to
the reference), and a rule file without the new keys, or with them at their defaults, gives
exactly today's results even when games carry a venue and scores."""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eloleague.engine.fast import try_replay, unsupported
from eloleague.engine.replay import replay
from eloleague.engine.state import EngineState
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import parse_rules

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
PAIRS = (("win", "loss"), ("loss", "win"), ("draw", "draw"))

BASE = """
name = "p"
method = "duel"
start_rating = 1500
{top}
[outcomes]
win = {{ score = 1, against = ["loss"] }}
draw = {{ score = 0.5, against = ["draw"] }}
loss = {{ score = 0, against = ["win"] }}
[k]
default = 24
tiers = [{{ k = 40, games_below = 5 }}]
{k}
{rest}
"""
EVERY_KEY = dict(
    top="""home_advantage = 65
lead_cap = 400
k_multiplier = "if(margin == 0, 1, ln(abs(margin) + 1) * 2.2 / (0.001 * lead + 2.2))"
score_value = "if(margin > 0, 1, if(margin < 0, 0, 0.5))"
delta_rounding = { mode = "half_up", decimals = 1 }
rating_storage = "sum"
""",
    k='by_mode = { "cup" = 32 }',
    rest="""[season]
reversion = { mean = 1505, fraction = 0.75 }
[decay]
idle_days = 60
every_days = 30
step = "min(points + nth, 0.01 * rating)"
points = 2
cap_percent = 10
cap_scope = "career"
""",
)
DEFAULTS = dict(
    top='home_advantage = 0\nrating_storage = "grid"\n'
    'delta_rounding = { mode = "half_up", decimals = 0 }',
    k="by_mode = {}",
    rest='[season]\n[decay]\nidle_days = 60\nevery_days = 30\npoints = 2\ncap_scope = "spell"',
)
TODAY = dict(
    top='delta_rounding = { mode = "half_up", decimals = 0 }',
    k="",
    rest="[decay]\nidle_days = 60\nevery_days = 30\npoints = 2",
)


@st.composite
def stream(draw: st.DrawFn) -> list[GameRecord]:
    day = dt.date(2023, 1, 1)
    games = []
    for i in range(draw(st.integers(1, 30))):
        day += dt.timedelta(days=draw(st.integers(0, 120)))
        a, b = draw(st.permutations(NAMES))[:2]
        pa, pb = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        oa, ob = PAIRS[0] if pa > pb else PAIRS[1] if pa < pb else PAIRS[2]
        games.append(
            GameRecord(
                date=day,
                sides=(
                    Side((Participant(a),), oa, float(pa)),
                    Side((Participant(b),), ob, float(pb)),
                ),
                id=f"g{i}",
                mode=draw(st.sampled_from(["", "cup"])),
                home=draw(st.sampled_from([None, 0, 1])),
                neutral=draw(st.booleans()),
            )
        )
    return games


@SETTINGS
@given(stream())
def test_both_paths_agree_with_every_new_key(games: list[GameRecord]) -> None:
    rules = parse_rules(BASE.format(**EVERY_KEY))
    assert unsupported(rules) is not None  # the fast path declines these keys...
    assert try_replay(rules, games, EngineState(), None, min_games=0) is None
    whole = replay(rules, games)  # ...so replay() gives the reference's result
    reference = replay(rules, games, reference=True)
    assert whole.pools == reference.pools
    assert list(whole.ledger) == list(reference.ledger)
    cut = len(games) // 2
    head = replay(rules, games[:cut], reference=True)
    tail = replay(rules, games[cut:], initial=head.state, reference=True)
    assert tail.pools == reference.pools


@SETTINGS
@given(stream())
def test_new_keys_at_their_defaults_give_todays_results(games: list[GameRecord]) -> None:
    today = parse_rules(BASE.format(**TODAY))
    defaults = parse_rules(BASE.format(**DEFAULTS))
    plain = [GameRecord(g.date, g.sides, g.id, mode=g.mode) for g in games]  # no venue
    a = replay(today, plain, reference=True)
    b = replay(defaults, games, reference=True)
    assert a.pools == b.pools
    assert [(x.key, x.delta, x.after, x.warning) for x in a.ledger] == [
        (x.key, x.delta, x.after, x.warning) for x in b.ledger
    ]
    assert all(x.extra == () for x in b.ledger)


@SETTINGS
@given(stream())
def test_the_fast_path_ignores_venues_and_scores_of_rule_sets_without_the_keys(
    games: list[GameRecord],
) -> None:
    from eloleague.engine.fast import available

    rules = parse_rules(BASE.format(**{**TODAY, "rest": ""}))
    assert unsupported(rules) is None
    assert available()  # numba is a dependency of the project
    fast = try_replay(rules, games, EngineState(), None, min_games=0)
    assert fast is not None
    reference = replay(rules, games, reference=True)
    assert fast.pools == reference.pools
    assert list(fast.ledger) == list(reference.ledger)
