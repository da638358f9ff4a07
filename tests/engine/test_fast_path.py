"""The compiled fast path against the reference path (engine/fast vs engine/replay.py).

Both must give the same ledger (entry by entry, every field), the same final state and the same
unrated games: exactly where the rule set rounds, within 1e-9 where nothing is rounded. Unsupported
rule sets and inputs must fall back to the reference path.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import fields
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import SupportsFloat, SupportsIndex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eloleague.engine import replay
from eloleague.engine.fast import kernel, try_replay, unsupported
from eloleague.engine.fast import support as fast_support
from eloleague.engine.fast.ledger import ColumnarLedger
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.maths import round_decimal, round_float, round_probability
from eloleague.engine.methods import ranked
from eloleague.engine.replay import EngineState, ReplayResult
from eloleague.io.jsonl import parse_jsonl
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules import load_rules, parse_rules, preset_text
from eloleague.rules.model import Rounding, RuleSet
from tests.conftest import AS_OF, PRESETS, REPLAY
from tests.engine.helpers import ROLES, duel

RULES = {name: load_rules(name) for name in PRESETS}
ROUNDED = {"bataille-empire", "bataille-empire-en", "adlg"}
NAMES = [f"P{i}" for i in range(9)]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fast(
    rules: RuleSet,
    games: list[GameRecord],
    initial: EngineState | None = None,
    as_of: dt.date | None = None,
) -> ReplayResult:
    result = try_replay(rules, games, initial or EngineState(), as_of, min_games=0)
    assert result is not None, "the fast path declined"
    assert isinstance(result.ledger, ColumnarLedger)
    return result


def _same_number(a: object, b: object, exact: bool) -> bool:
    if exact or not isinstance(a, float) or not isinstance(b, float):
        return a == b and (
            not isinstance(a, float)
            # b equals the float a: a number, whose sign copysign reads
            or (
                isinstance(b, (SupportsFloat, SupportsIndex))
                and math.copysign(1, a) == math.copysign(1, b)
            )
        )
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def assert_same(got: ReplayResult, want: ReplayResult, exact: bool) -> None:
    """Every ledger field, the final state and the unrated games are the same."""
    assert len(got.ledger) == len(want.ledger)
    for number, (g, w) in enumerate(zip(got.ledger, want.ledger, strict=True)):
        for f in fields(LedgerEntry):
            a, b = getattr(g, f.name), getattr(w, f.name)
            assert _same_number(a, b, exact), f"entry {number}, {f.name}: {a!r} != {b!r}"
    assert list(got.pools) == list(want.pools)  # pools in order of first appearance
    for key, pool in want.pools.items():
        assert got.pools[key].games == pool.games
        assert _same_number(got.pools[key].rating, pool.rating, exact), key
    state, ref = got.state, want.state
    assert (state.season_end, state.eligible, state.started) == (
        ref.season_end,
        ref.eligible,
        ref.started,
    )
    assert state.active == ref.active
    assert state.last_played == ref.last_played
    assert list(state.last_played) == list(ref.last_played)
    assert state.decay_spells == ref.decay_spells
    assert [(u.position, u.reason) for u in got.unrated] == [
        (u.position, u.reason) for u in want.unrated
    ]
    assert got.as_of == want.as_of
    if exact:
        assert got.state == ref


# The replay streams of the spec ---------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_replay_streams_give_the_reference_ledger_and_state(preset: str) -> None:
    games, problems = parse_jsonl((REPLAY / f"{preset}.jsonl").read_bytes())
    assert problems == []
    rules = RULES[preset]
    as_of = dt.date.fromisoformat(AS_OF[preset]) if preset in AS_OF else None
    want = replay(rules, games, as_of=as_of, reference=True)
    assert isinstance(want.ledger, list)
    got = fast(rules, games, as_of=as_of)
    assert_same(got, want, exact=preset in ROUNDED)
    assert got.standings() == want.standings()
    # what an import reports as made outside games, read from the columns
    outside: dict[PoolKey, float] = {}
    for e in want.ledger:
        if not e.game:
            outside[e.key] = outside.get(e.key, 0.0) + e.delta
    assert isinstance(got.ledger, ColumnarLedger)
    assert got.ledger.outside_games() == pytest.approx(outside)
    assert bool(outside) == (preset in {"bataille-empire", "bataille-empire-en", "adlg"})


@pytest.mark.parametrize("preset", ["bataille-empire", "adlg", "diplomacy"])
def test_resuming_from_a_fast_state_equals_the_reference(preset: str) -> None:
    games, _ = parse_jsonl((REPLAY / f"{preset}.jsonl").read_bytes())
    rules = RULES[preset]
    cut = len(games) // 2
    games = sorted(games, key=lambda g: g.date)
    head_fast, head_ref = fast(rules, games[:cut]), replay(rules, games[:cut], reference=True)
    tail_fast = fast(rules, games[cut:], initial=head_fast.state)
    tail_ref = replay(rules, games[cut:], initial=head_ref.state, reference=True)
    assert_same(tail_fast, tail_ref, exact=preset in ROUNDED)


# Random streams -------------------------------------------------------------------------------


@st.composite
def duel_stream(draw: st.DrawFn, rules: RuleSet) -> list[GameRecord]:
    max_size = min(rules.teams.max_size or 3, 3)
    pairs = [(a, b) for a in rules.outcomes for b in rules.outcomes[a].against]
    day = dt.date(2023, 11, 1)
    games = []
    for i in range(draw(st.integers(1, 40))):
        day += dt.timedelta(days=draw(st.integers(0, 90)))
        players = draw(st.permutations(NAMES))
        na, nb = draw(st.integers(1, max_size)), draw(st.integers(1, max_size))
        oa, ob = draw(st.sampled_from(pairs))
        games.append(
            GameRecord(
                date=day,
                sides=(
                    Side(tuple(Participant(p) for p in players[:na]), oa),
                    Side(tuple(Participant(p) for p in players[na : na + nb]), ob),
                ),
                id=draw(st.sampled_from([f"g{i}", None])),
                event=draw(st.sampled_from([None, "", "Cup", "Open"])),
                round=draw(st.sampled_from([None, 1, 2, 3])),
                rated=draw(st.booleans().map(lambda b: b or draw(st.booleans()))),
            )
        )
    # Shuffle dates a little: processing order is by (date, round), not input order.
    return draw(st.permutations(games)) if draw(st.booleans()) else games


@st.composite
def initial_state(draw: st.DrawFn, rules: RuleSet) -> EngineState | None:
    if draw(st.booleans()):
        return None
    ratings = st.one_of(
        st.integers(600, 2200).map(float),
        st.floats(600, 2200, allow_nan=False).map(lambda x: round(x, draw(st.integers(0, 3)))),
    )
    pools = {
        PoolKey(name): PoolState(draw(ratings), draw(st.integers(0, 30)))
        for name in draw(st.lists(st.sampled_from([*NAMES, "Ghost"]), unique=True, max_size=6))
    }
    return EngineState.from_pools(pools)


@st.composite
def as_of_day(draw: st.DrawFn) -> dt.date | None:
    if draw(st.booleans()):
        return None
    return dt.date(2023, 6, 1) + dt.timedelta(days=draw(st.integers(0, 2500)))


@pytest.mark.parametrize("preset", ["bataille-empire", "bataille-empire-en", "adlg", "card-battle"])
@SETTINGS
@given(data=st.data())
def test_random_duel_streams_match_the_reference(preset: str, data: st.DataObject) -> None:
    rules = RULES[preset]
    games = data.draw(duel_stream(rules))
    initial = data.draw(initial_state(rules))
    as_of = data.draw(as_of_day())
    want = replay(rules, games, initial=initial, as_of=as_of, reference=True)
    got = fast(rules, games, initial=initial, as_of=as_of)
    assert_same(got, want, exact=preset in ROUNDED)


@st.composite
def ffa_stream(draw: st.DrawFn) -> list[GameRecord]:
    games = []
    day = dt.date(2024, 1, 1)
    for i in range(draw(st.integers(1, 15))):
        day += dt.timedelta(days=draw(st.integers(0, 200)))
        n = draw(st.sampled_from([7, 7, 7, 6]))  # six players: incomplete, not rated
        players = draw(st.permutations(NAMES))[:n]
        roles = draw(st.permutations(ROLES))[:n]
        scores = draw(st.lists(st.integers(-2, 18), min_size=n, max_size=n))
        games.append(
            GameRecord(
                date=day,
                sides=tuple(
                    Side((Participant(p, r),), score=float(x))
                    for p, r, x in zip(players, roles, scores, strict=True)
                ),
                id=f"d{i}",
                mode=draw(st.sampled_from(["classic", "blitz"])),
                rated=draw(st.booleans()) or draw(st.booleans()),
            )
        )
    return games


@SETTINGS
@given(ffa_stream(), as_of_day())
def test_random_diplomacy_streams_match_the_reference(
    games: list[GameRecord], as_of: dt.date | None
) -> None:
    rules = RULES["diplomacy"]
    want = replay(rules, games, as_of=as_of, reference=True)
    got = fast(rules, games, as_of=as_of)
    assert_same(got, want, exact=False)


TUNED = parse_rules(
    preset_text("bataille-empire")
    .replace("probability_decimals = 2", "probability_decimals = 3")
    .replace('mode = "half_up"', 'mode = "half_even"')
    .replace('updates = "per_game"', 'updates = "per_event"\nrating_floor = 900')
    .replace('year_end = "12-31"', "")
    .replace("[season]", "[season]\nends = [2024-03-31, 2024-09-30, 2025-06-30]\nfloor = 1050"),
    "tuned",
)
SCORED = parse_rules(
    preset_text("diplomacy")
    .replace("renormalise = false", "renormalise = true")
    .replace("count_current_game = true", "count_current_game = false")
    + '\n[season]\ninactivity = [{ above = 1400, penalty = 25 }]\nyear_end = "06-30"\n',
    "scored",
)


@SETTINGS
@given(data=st.data())
def test_other_settings_match_the_reference(data: st.DataObject) -> None:
    """Three decimals of P, half-even deltas, floors, per-event batches, explicit season ends."""
    games = data.draw(duel_stream(TUNED))
    initial = data.draw(initial_state(TUNED))
    as_of = data.draw(as_of_day())
    want = replay(TUNED, games, initial=initial, as_of=as_of, reference=True)
    assert_same(fast(TUNED, games, initial=initial, as_of=as_of), want, exact=True)


@SETTINGS
@given(ffa_stream(), as_of_day())
def test_renormalised_ffa_with_seasons_matches_the_reference(
    games: list[GameRecord], as_of: dt.date | None
) -> None:
    want = replay(SCORED, games, as_of=as_of, reference=True)
    assert_same(fast(SCORED, games, as_of=as_of), want, exact=False)


# The kernel's exact arithmetic, value by value -----------------------------------------------


HALVES = [k / 100 + 0.005 for k in range(100)] + [
    0.285,
    0.125,
    0.995,
    0.005,
    0.5,
    0.28499999999999998,
]


@given(
    st.one_of(
        st.floats(0, 1),
        st.sampled_from(HALVES),
        st.sampled_from(HALVES).map(lambda p: math.nextafter(p, 0)),
        st.sampled_from(HALVES).map(lambda p: math.nextafter(p, 1)),
    )
)
def test_probability_rounding_is_the_reference_one(p: float) -> None:
    for decimals in (0, 1, 2, 3):
        want = round_probability(p, decimals).scaleb(decimals)
        assert kernel._round_probability(p, decimals, 10.0**decimals) == int(want)


@settings(deadline=None)  # the first example loads the compiled function
@given(st.one_of(st.floats(-5000, 5000), st.integers(-5000, 5000).map(lambda n: n + 0.5)))
def test_whole_number_rounding_is_the_exact_decimal_one(raw: float) -> None:
    """``formulas.round_whole`` (the reference's and, compiled, the kernel's) against the exact
    rounding of the shortest decimal form (``trunc``: ``math.trunc``)."""
    for code, mode in ((1, "half_up"), (2, "trunc"), (3, "half_even")):
        if mode == "trunc":
            want = float(math.trunc(raw))
        else:
            want = float(round_decimal(Decimal(repr(raw)), Rounding(mode=mode, decimals=0)))
        for got in (kernel._round_whole(raw, code), round_float(raw, Rounding(mode=mode))):
            assert got == want and math.copysign(1, got) == math.copysign(1, want)


@given(st.integers(-(10**12), 10**12), st.integers(0, 6))
def test_integer_rounding_is_decimal_quantize(num: int, exponent: int) -> None:
    modes = {1: ROUND_HALF_UP, 2: ROUND_DOWN, 3: ROUND_HALF_EVEN}
    for code, mode in modes.items():
        want = (Decimal(num).scaleb(-exponent)).quantize(Decimal(1), rounding=mode)
        assert kernel._divide_rounded(num, 10**exponent, code) == int(want)


# Falling back ---------------------------------------------------------------------------------


def _variant(old: str, new: str) -> RuleSet:
    text = preset_text("bataille-empire")
    assert old in text
    return parse_rules(text.replace(old, new), "variant")


DECLINED = {
    "decay": _variant("[season]", "[decay]\nidle_days = 30\npoints = 5\nevery_days = 30\n[season]"),
    "per_period": _variant('updates = "per_game"', 'updates = "per_period"\nperiod = "month"'),
    "deltas to decimals": _variant("decimals = 0 }", "decimals = 1 }"),
    "linear K with rounded P": _variant(
        "default = 60\ntiers = [", "linear = { start = 40, per_games = 3, minimum = 20 }\ntiers = ["
    ),
}


@pytest.mark.parametrize("name", DECLINED)
def test_unsupported_rule_sets_fall_back_to_the_reference(name: str) -> None:
    rules = DECLINED[name]
    assert unsupported(rules) is not None
    games = [duel("2025-01-01", "A", "draw", "B", "draw") for _ in range(3)]
    assert try_replay(rules, games, EngineState(), None, min_games=0) is None
    assert isinstance(replay(rules, games).ledger, list)


def test_a_key_unknown_to_the_fast_path_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A feature added to the rule-set model later is declined until the fast path learns it."""
    rules = RULES["bataille-empire"]
    assert unsupported(rules) is None
    known = dict(fast_support._KNOWN)
    known["RuleSet"] = known["RuleSet"] - {"gain_cap"}
    monkeypatch.setattr(fast_support, "_KNOWN", known)
    assert unsupported(rules) == "rule-set key RuleSet.gain_cap"
    assert unsupported(RULES["card-battle"]) is None  # no cap: the key is at its default


def test_input_the_fast_path_does_not_take_falls_back() -> None:
    rules = RULES["adlg"]
    good = duel("2025-01-01", "A", "victory", "B", "defeat")
    three_sides = GameRecord(good.date, (*good.sides, good.sides[0]))
    assert try_replay(rules, [good, three_sides], EngineState(), None, min_games=0) is None
    unknown = duel("2025-01-01", "A", "triumph", "B", "defeat")
    assert try_replay(rules, [good, unknown], EngineState(), None, min_games=0) is None


def test_small_inputs_and_the_switch_use_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ELOLEAGUE_FAST_MIN_GAMES", raising=False)
    rules = RULES["adlg"]
    games = [duel("2025-01-01", "A", "victory", "B", "defeat")]
    assert isinstance(replay(rules, games).ledger, list)  # below MIN_GAMES
    assert try_replay(rules, games, EngineState(), None, min_games=0) is not None
    monkeypatch.setenv("ELOLEAGUE_ENGINE", "reference")
    assert try_replay(rules, games, EngineState(), None, min_games=0) is None


def test_large_inputs_take_the_fast_path() -> None:
    games, _ = parse_jsonl((REPLAY / "bataille-empire.jsonl").read_bytes())
    many = games * 3  # 2,370 games: above MIN_GAMES
    result = replay(RULES["bataille-empire"], many)
    assert isinstance(result.ledger, ColumnarLedger)
    assert_same(result, replay(RULES["bataille-empire"], many, reference=True), exact=True)


def test_the_columnar_ledger_is_a_sequence_of_entries() -> None:
    games, _ = parse_jsonl((REPLAY / "adlg.jsonl").read_bytes())
    got = fast(RULES["adlg"], games).ledger
    want = replay(RULES["adlg"], games, reference=True).ledger
    assert len(got) == len(want) and got == want and want == got
    assert got[-1] == want[-1] and got[0] == want[0]
    assert got[10:20] == want[10:20]
    assert list(reversed(got))[:3] == list(reversed(want))[:3]
    assert got.index(want[5]) == 5
    with pytest.raises(IndexError):
        got[len(want)]
    assert got != want[:-1]


def test_the_benchmark_data_rates_the_same_on_both_paths(tmp_path: Path) -> None:
    """A slice of the benchmark's own generated streams (benchmarks/engine_games.py)."""
    from benchmarks.engine_games import duel_rows, ffa_rows, to_record

    duels = [to_record(r) for r in duel_rows(3000, players=300)]
    rules = RULES["bataille-empire"]
    assert_same(fast(rules, duels), replay(rules, duels, reference=True), exact=True)
    adlg = [to_record(r) for r in duel_rows(3000, preset="adlg", players=200)]
    assert_same(fast(RULES["adlg"], adlg), replay(RULES["adlg"], adlg, reference=True), exact=True)
    diplomacy = [to_record(r) for r in ffa_rows(500, players=60)]
    want = replay(RULES["diplomacy"], diplomacy, reference=True)
    assert_same(fast(RULES["diplomacy"], diplomacy), want, exact=False)


# The readers' quick check ---------------------------------------------------------------------


@st.composite
def any_game(draw: st.DrawFn, rules: RuleSet) -> GameRecord:
    """Games right and wrong: sizes, repeated players, outcomes, scores, roles."""
    labels = [*rules.outcomes, "bogus", None]
    sides = []
    for _ in range(draw(st.integers(1, 8 if ranked(rules) else 3))):
        players = tuple(
            Participant(draw(st.sampled_from(NAMES[:5])), draw(st.sampled_from([*ROLES, "", "X"])))
            for _ in range(draw(st.integers(0, 3)))
        )
        sides.append(
            Side(
                players,
                draw(st.sampled_from(labels)),
                draw(st.one_of(st.none(), st.floats(-3, 20, allow_nan=False))),
            )
        )
    return GameRecord(dt.date(2025, 1, 1), tuple(sides))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_quick_check_passes_only_games_without_problems(
    preset: str, data: st.DataObject
) -> None:
    from eloleague.engine.validate import check_game, quick_check

    rules = RULES[preset]
    game = data.draw(any_game(rules))
    if quick_check(rules)(game):
        assert check_game(rules, game) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_the_quick_check_passes_the_replay_streams(preset: str) -> None:
    from eloleague.engine.validate import quick_check

    games, _ = parse_jsonl((REPLAY / f"{preset}.jsonl").read_bytes())
    fine = quick_check(RULES[preset])
    assert all(fine(g) for g in games if preset != "diplomacy" or len(g.sides) == 7)


# The ledger CSV written from the columns -----------------------------------------------------


def _both_ledger_csvs(result: ReplayResult) -> tuple[str, str]:
    import io

    from eloleague.io.ledger_columns import write_ledger_columns
    from eloleague.io.ledger_csv import write_ledger

    assert isinstance(result.ledger, ColumnarLedger)
    fast_out, plain_out = io.StringIO(newline=""), io.StringIO(newline="")
    write_ledger_columns(result.ledger, fast_out)
    write_ledger(list(result.ledger), plain_out)
    return fast_out.getvalue(), plain_out.getvalue()


@pytest.mark.parametrize("preset", PRESETS)
def test_the_ledger_csv_from_columns_is_byte_for_byte_the_same(preset: str) -> None:
    games, _ = parse_jsonl((REPLAY / f"{preset}.jsonl").read_bytes())
    as_of = dt.date(2031, 1, 1)  # late: every season closes, with inactivity entries
    got, want = _both_ledger_csvs(fast(RULES[preset], games, as_of=as_of))
    assert got == want
    assert got.count("\r\n") == want.count("\r\n") > len(games)


def test_the_ledger_csv_quotes_names_and_ids_as_the_csv_module_does() -> None:
    odd = ['Dupont, "le Grand"', "Line\nbreak", "Émile", "plain"]
    games = [
        duel(f"2024-0{1 + i % 9}-01", odd[i % 4], "victory", odd[(i + 1) % 4], "defeat", gid=gid)
        for i, gid in enumerate(["a,b", 'say "hi"', None, "g4", None, "x\r\ny"])
    ]
    got, want = _both_ledger_csvs(fast(RULES["adlg"], games, as_of=dt.date(2026, 1, 1)))
    assert got == want
    assert '"Dupont, ""le Grand"""' in got


# End to end -----------------------------------------------------------------------------------


def test_rate_on_a_large_file_writes_what_the_reference_path_writes(tmp_path: Path) -> None:
    """``eloleague rate`` on 12,000 games (above batch.LARGE_FILE): ratings and ledger files are
    byte for byte those of ``ELOLEAGUE_ENGINE=reference``."""
    from benchmarks.engine_games import duel_rows, write_jsonl

    from eloleague.batch import LARGE_FILE
    from tests.conftest import run_cli

    games = write_jsonl(duel_rows(12_000, players=400), tmp_path / "games.jsonl")
    assert games.stat().st_size >= LARGE_FILE
    outputs = {}
    for engine in ("fast", "reference"):
        ledger = tmp_path / f"{engine}.csv"
        done = run_cli(
            "rate", str(games), "--rules", "bataille-empire", "--as-of", "2026-06-01",
            "--ledger", str(ledger), env={"ELOLEAGUE_ENGINE": engine},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs[engine] = (done.stdout, ledger.read_bytes())
    assert outputs["fast"] == outputs["reference"]
    assert outputs["fast"][1].count(b"inactivity") > 0


def test_the_kernel_is_compiled_ahead_only_when_its_cache_is_empty() -> None:
    from eloleague.engine.fast import warmup

    fast(RULES["adlg"], [duel("2025-01-01", "A", "victory", "B", "defeat")])  # cached now
    assert warmup._compiled() is True
    assert warmup.start() is None
    warmup.finish(None)


def test_the_reader_shares_equal_sides_and_keeps_translatable_line_origins() -> None:
    from eloleague.i18n import Text, render

    line = b'{"date": "2025-01-01", "sides": [{"players": ["A"], "outcome": "victory"}, '
    data = line + b'{"players": ["B"], "outcome": "defeat"}]}\n\n' + line
    data += b'{"players": [" B "], "outcome": "defeat"}]}\n'
    games, problems = parse_jsonl(data)
    assert problems == []
    assert games[0].sides[0] is games[1].sides[0]  # the same text: one object
    assert games[0].sides[1] == games[1].sides[1]  # " B " is B once normalised
    assert [g.origin for g in games] == ["line 1", "line 3"]
    want = Text.of("line {line}", line=3)
    assert isinstance(games[1].origin, Text)
    assert render(games[1].origin, "fr") == render(want, "fr") != render(want, "en")


def test_the_kernel_compiles_the_reference_formulas() -> None:
    """Each formula the kernel calls is compiled from the function the reference path calls."""
    from eloleague.engine import formulas

    compiled = {
        kernel._expected: formulas.expected,
        kernel._in_tier: formulas.in_tier,
        kernel._k_linear: formulas.k_linear,
        kernel._elo_delta: formulas.elo_delta,
        kernel._team_delta: formulas.team_delta,
        kernel._ffa_delta: formulas.ffa_delta,
        kernel._round_whole: formulas.round_whole,
        kernel._cap_reached: formulas.cap_reached,
        kernel._floored: formulas.floored,
        kernel._inactivity_penalty: formulas.inactivity_penalty,
        kernel._ffa_performances: formulas.ffa_performances,
    }
    for dispatcher, function in compiled.items():
        assert dispatcher.py_func is function
    assert kernel._expected(0.0, 4000.0, 1.0) == 0.0  # the overflow the kernel hands over
    with pytest.raises(OverflowError):
        formulas.expected(0.0, 4000.0, 1.0)
