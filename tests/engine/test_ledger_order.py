"""A replay's ledger is in date order wherever :func:`~eloleague.engine.replay.dated_in_order`
says so: the ranking's trends then read only the ledger's newest part (docs/league.md, "Live
results"). Random streams of every preset and of variants with what is dated outside games
(season ends with inactivity, reversions), periods, an as-of date; and the two cases where
it does not hold: per-event updates, and a decay beside periods longer than a day."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eloleague.engine import EngineState, replay
from eloleague.engine.replay import dated_in_order
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules, parse_rules, preset_text
from eloleague.rules.model import RuleSet
from tests.engine.test_fast_path import SETTINGS, as_of_day, duel_stream, ffa_stream, initial_state


def _variant(*changes: tuple[str, str]) -> RuleSet:
    """bataille-empire with each ``(old, new)`` text replaced."""
    text = preset_text("bataille-empire")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return parse_rules(text, "variant")


_DECAY = ("[season]", "[decay]\nidle_days = 30\npoints = 5\nevery_days = 30\n[season]")
"""A decay beside bataille-empire's season ends."""


DUELS = {
    "bataille-empire": load_rules("bataille-empire"),
    "bataille-empire-en": load_rules("bataille-empire-en"),
    "card-battle": load_rules("card-battle"),
    "reversion": _variant(("[season]", "[season]\nreversion = { mean = 1505, fraction = 0.75 }")),
    # a decay beside season ends: each season closes after the losses dated up to its last day
    "decay": _variant(_DECAY),
    "decay per day": _variant(
        ("[season]", '[decay]\nidle_days = 30\nstep = "0.01 * rating"\nevery_days = 20\n[season]'),
        ('updates = "per_game"', 'updates = "per_period"\nperiod = "day"'),
    ),
    **{
        f"per {period}": _variant(
            ('updates = "per_game"', f'updates = "per_period"\nperiod = "{period}"')
        )
        for period in ("day", "week", "month")
    },
}


def _in_date_order(
    rules: RuleSet,
    games: list[GameRecord],
    as_of: dt.date | None,
    initial: EngineState | None = None,
) -> bool:
    ledger = replay(rules, games, initial=initial, as_of=as_of, reference=True).ledger
    dates = [entry.date for entry in ledger]
    return dates == sorted(dates)


@pytest.mark.parametrize("name", sorted(DUELS))  # each rule set its own examples
@SETTINGS
@given(data=st.data())
def test_the_ledger_of_duels_is_in_date_order(data: st.DataObject, name: str) -> None:
    rules = DUELS[name]
    assert dated_in_order(rules)
    games = data.draw(duel_stream(rules))
    initial = data.draw(initial_state(rules))
    assert _in_date_order(rules, games, data.draw(as_of_day()), initial)


@SETTINGS
@given(ffa_stream(), as_of_day())
def test_the_ledger_of_free_for_all_games_is_in_date_order(
    games: list[GameRecord], as_of: dt.date | None
) -> None:
    rules = load_rules("diplomacy")
    assert dated_in_order(rules)
    assert _in_date_order(rules, games, as_of)


def test_under_per_event_updates_an_event_begun_meanwhile_comes_after_the_last_days() -> None:
    """Why :func:`dated_in_order` says no there: the Open (its first game on the 1st, its last on
    the 3rd) is rated before the Cup begun on the 2nd."""
    rules = load_rules("adlg")
    assert not dated_in_order(rules)

    def game(day: int, event: str, a: str, b: str) -> GameRecord:
        return GameRecord(
            date=dt.date(2025, 3, day),
            sides=(Side((Participant(a),), "victory"), Side((Participant(b),), "defeat")),
            event=event,
        )

    games = [
        game(1, "Open", "Ana", "Ben"),
        game(3, "Open", "Ana", "Cy"),
        game(2, "Cup", "Di", "Ed"),
    ]
    assert not _in_date_order(rules, games, None)


def test_under_weekly_periods_with_a_decay_a_loss_of_the_week_comes_after_its_games() -> None:
    """Why :func:`dated_in_order` says no to a decay beside periods longer than a day: the week's
    games are rated together, so Ana's and Ben's losses of Wednesday come after Thursday's game."""
    rules = _variant(_DECAY, ('updates = "per_game"', 'updates = "per_period"\nperiod = "week"'))
    assert not dated_in_order(rules)

    def game(day: dt.date, a: str, b: str) -> GameRecord:
        return GameRecord(
            date=day,
            sides=(Side((Participant(a),), "marginal_victory"), Side((Participant(b),), "defeat")),
        )

    first = dt.date(2024, 1, 6)  # Ana and Ben's first losses are due sixty days later
    due = first + dt.timedelta(days=60)
    assert due.weekday() == 2  # a Wednesday: the week's games of Tuesday and Thursday
    games = [game(first, "Ana", "Ben")]
    games += [game(due + dt.timedelta(days=d), "Cy", "Di") for d in (-1, 1)]
    ledger = replay(rules, games, reference=True).ledger
    assert [(e.date - due, e.key.player, e.warning) for e in ledger[2:]] == [
        (dt.timedelta(days=-1), "Cy", ""),
        (dt.timedelta(days=-1), "Di", ""),
        (dt.timedelta(days=1), "Cy", ""),
        (dt.timedelta(days=1), "Di", ""),
        (dt.timedelta(0), "Ana", "decay"),
        (dt.timedelta(0), "Ben", "decay"),
    ]
    assert not _in_date_order(rules, games, None)
