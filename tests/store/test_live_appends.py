"""The append path (docs/league.md, "Live results"): whatever sequence of appends, same-day appends,
back-dated games, corrections, deletions, season closings, a merge and posts naming its alias a
league goes through, its stored
ratings, games counts, titles, ledger and tail state are exactly a fresh replay's, after each step,
on SQLite and PostgreSQL. And games that sort after everything take the append path: they replay
only themselves."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eloleague.league import _ENGINES, League
from eloleague.records import GameRecord, Participant, Side, replace
from eloleague.store import checkpoints, tail
from eloleague.store.players import player_names
from eloleague.store.tables import checkpoints as checkpoint_table
from tests.store.helpers import read_lines, replay_file

NAMES = ("Ana", "Bob", "Chloé", "Dan", "Eve", "Fred")
MISSPELT = "A. N. Other"  # a player's name misspelt: merged into hers, then an alias
OUTCOMES = {
    "bataille-empire": (
        ("decisive_victory", "defeat"),
        ("marginal_victory", "defeat"),
        ("draw", "draw"),
        ("defeat", "overwhelming_victory"),
    ),
    "adlg": (("victory", "defeat"), ("draw", "draw"), ("defeat", "victory")),
    "card-battle": (("3-0", "0-3"), ("3-2", "2-3"), ("1-3", "3-1")),
}
START = dt.date(2021, 12, 20)  # seasons end on 31 December: appends cross one


def duel(
    n: int, day: dt.date, a: int, b: int, result: int, preset: str, event: str | None
) -> GameRecord:
    oa, ob = OUTCOMES[preset][result % len(OUTCOMES[preset])]
    names = (NAMES[a], NAMES[(a + 1 + b) % len(NAMES)])
    return GameRecord(
        date=day,
        sides=(Side((Participant(names[0]),), oa), Side((Participant(names[1]),), ob)),
        id=f"g{n}",
        event=event,
    )


def assert_is_a_fresh_replay(league: League) -> None:
    """Stored ratings, games counts, titles, ledger and tail state equal a full replay's, and
    the league's own check (``League.verify``, which an officer runs) says so too."""
    full = league.replay_result()
    assert league.verify().agrees
    assert league.ledger() == list(full.ledger)
    assert league.ranking() == full.standings()
    assert league.current_pools() == dict(full.pools)
    assert list(league.current_pools()) == list(full.pools)  # order of first appearance
    with league._reading() as conn:
        end = tail.read(conn, league.id)
        if not league.games():
            assert end is None
            return
        assert end is not None
        assert end.games == len(league.games())
        assert end.ledger_next == len(full.ledger)
        state = tail.full_state(conn, league.id, end, player_names(conn, league.id))
    assert state.pools == full.state.pools
    assert state.last_played == full.state.last_played
    assert state.season_end == full.state.season_end
    assert state.eligible == full.state.eligible
    assert state.periods == full.state.periods
    assert {k: v for k, v in state.active.items() if v} == {
        k: v for k, v in full.state.active.items() if v
    }


step = st.one_of(
    st.tuples(st.just("append"), st.integers(1, 3), st.integers(0, 3)),  # games, days later
    st.tuples(st.just("backdate"), st.integers(1, 2), st.integers(1, 12)),  # games, days before
    st.tuples(st.just("correct"), st.integers(0, 50), st.integers(0, 5)),
    st.tuples(st.just("delete"), st.integers(0, 50), st.just(0)),
    st.tuples(st.just("close"), st.just(0), st.just(0)),
    st.tuples(st.just("alias"), st.just(0), st.integers(0, 3)),  # days later
)


@pytest.mark.parametrize("preset", ["bataille-empire", "adlg", "card-battle"])
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(step, min_size=1, max_size=7),
    players=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 4), st.integers(0, 5)), min_size=12, max_size=12
    ),
    events=st.booleans(),
)
def test_every_sequence_of_changes_equals_a_fresh_replay(
    new_db: Callable[[], str],
    preset: str,
    steps: list[tuple[str, int, int]],
    players: list[tuple[int, int, int]],
    events: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 5)  # regular checkpoints get taken too
    league = League.create(new_db(), "Live", preset)
    try:
        run_steps(league, preset, steps, players, events)
    finally:  # one database per example: give its connections back to the server
        league.engine.dispose()
        _ENGINES.pop(league.engine.url.render_as_string(hide_password=False), None)


def run_steps(
    league: League,
    preset: str,
    steps: list[tuple[str, int, int]],
    players: list[tuple[int, int, int]],
    events: bool,
) -> None:
    count = 0
    day = START

    def games(n: int, when: dt.date) -> list[GameRecord]:
        nonlocal count
        out = []
        for _ in range(n):
            a, b, result = players[count % len(players)]
            event = f"E{when.isoformat()}" if events and count % 3 else None
            out.append(duel(count, when, a, b, result + count, preset, event))
            count += 1
        return out

    def misspelt(opponent: int, when: dt.date) -> GameRecord:
        """A game of a player's under a misspelling of her name (merged into hers, then an alias
        of hers), against another player (never herself)."""
        nonlocal count
        won, lost = OUTCOMES[preset][0]
        other = next(n for n in NAMES[opponent:] + NAMES if n != player)
        count += 1
        return GameRecord(
            date=when,
            sides=(Side((Participant(MISSPELT),), won), Side((Participant(other),), lost)),
            id=f"g{count - 1}",
        )

    league.import_games(games(3, day), source="first")
    assert_is_a_fresh_replay(league)
    player = league.games()[0].sides[0].players[0].name
    merged = False
    for kind, x, y in steps:
        stored = league.games()
        if kind == "append":
            day = max(g.date for g in stored) + dt.timedelta(days=y) if stored else day
            league.import_games(games(x, day), source="append")
        elif kind == "backdate":
            first = min(g.date for g in stored) if stored else day
            league.import_games(games(x, first - dt.timedelta(days=y)), source="late")
        elif kind == "correct" and stored:
            old = stored[x % len(stored)]
            assert old.id is not None
            fixed = duel(0, old.date, y % 6, y % 5, y, preset, old.event)
            league.correct_game(old.id, replace(fixed, id=old.id))
        elif kind == "delete" and stored:
            victim = stored[x % len(stored)].id
            assert victim is not None
            league.delete_game(victim)
        elif kind == "alias":  # a post naming a player by an alias (a merged misspelling)
            day = max(g.date for g in stored) + dt.timedelta(days=y) if stored else day
            if merged:
                league.import_games([misspelt(2, day)], source="alias")
            else:  # first her games under the misspelling, then the merge
                league.import_games([misspelt(1, day)], source="typo")
                league.merge_players(MISSPELT, player)
                merged = True
        elif kind == "close" and stored and league.rules.season.inactivity:
            last = max(g.date for g in stored)
            end = dt.date(last.year, 12, 31)
            if end not in league.closings():
                league.close_season(end)
        assert_is_a_fresh_replay(league)


def test_games_after_everything_replay_only_themselves(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 10)
    league = League.create(db_url, "Live", "bataille-empire")
    day = dt.date(2024, 3, 1)
    first = [duel(n, day, n % 6, n % 5, n, "bataille-empire", None) for n in range(30)]
    assert league.import_games(first, source="history").replayed == 30
    for n in range(30, 60):  # same day, then later days: one game replayed each time
        when = day + dt.timedelta(days=(n - 30) // 10)
        report = league.import_games(
            [duel(n, when, n % 6, n % 4, n, "bataille-empire", None)], source="live"
        )
        assert (report.added, report.replayed) == (1, 1)
    assert_is_a_fresh_replay(league)
    # The appended games left regular checkpoints behind them (first game of a new day, every
    # ten games here): a back-dated game replays from one of them, not from the first game.
    with league._reading() as conn:
        saved = conn.execute(
            checkpoint_table.select().where(checkpoint_table.c.league_id == league.id)
        ).all()
    assert any(row.games_before >= 40 for row in saved)
    late = duel(99, day + dt.timedelta(days=2), 0, 1, 0, "bataille-empire", None)
    report = league.import_games([late], source="late")
    assert report.replayed < 30
    assert_is_a_fresh_replay(league)


def test_a_batch_of_many_games_takes_the_append_path(db_url: str) -> None:
    league = League.create(db_url, "Live", "card-battle")
    day = dt.date(2024, 3, 1)
    league.import_games(
        [duel(n, day, n % 6, n % 5, n, "card-battle", None) for n in range(20)], source="history"
    )
    batch = [duel(n, day, n % 6, n % 3, n, "card-battle", None) for n in range(20, 520)]
    report = league.import_games(batch, source="live")
    assert (report.added, report.replayed) == (500, 500)
    assert_is_a_fresh_replay(league)


def test_a_same_day_append_in_a_stored_event_replays_that_event(
    db_url: str, tmp_path: Path
) -> None:
    league = League.create(db_url, "Live", "adlg")
    day = dt.date(2024, 3, 1)
    league.import_games(
        [duel(n, day, n % 6, n % 5, n, "adlg", "Open") for n in range(6)], source="open"
    )
    # A new event after everything: the append path.
    report = league.import_games([duel(6, day, 0, 1, 0, "adlg", "Cup")], source="cup")
    assert report.replayed == 1
    # One more game of the stored event "Open": its batch is open again, the general path.
    report = league.import_games([duel(7, day, 2, 3, 1, "adlg", "Open")], source="open")
    assert report.replayed > 1
    assert_is_a_fresh_replay(league)
    # A new event the next day, then its second round: the round replays that event only (the
    # append path left a checkpoint where the event began), not the whole history.
    later = day + dt.timedelta(days=1)
    first = [duel(n, later, n % 6, n % 5, n, "adlg", "Final") for n in range(8, 11)]
    assert league.import_games(first, source="final").replayed == 3
    second = [duel(n, later, n % 6, n % 4, n, "adlg", "Final") for n in range(11, 13)]
    assert league.import_games(second, source="final").replayed == 5
    assert_is_a_fresh_replay(league)


@pytest.mark.parametrize("preset", ["diplomacy", "adlg", "bataille-empire"])
def test_a_real_history_fed_game_by_game_equals_a_fresh_replay(db_url: str, preset: str) -> None:
    """The presets' replay files (seasons, events, free-for-all games with roles), their last
    games posted one by one in date order, as a live league receives them."""
    lines = sorted(read_lines(replay_file(preset)), key=lambda g: (g["date"], g.get("round") or 0))
    cut = len(lines) * 3 // 4
    league = League.create(db_url, "Live", preset)
    league.import_games(records(lines[:cut], league), source="history")
    appended = 0
    for line in lines[cut : cut + 40]:
        report = league.import_games(records([line], league), source="live")
        appended += report.replayed == 1
    assert_is_a_fresh_replay(league)
    assert appended > 0  # some of them took the append path


def records(lines: list[dict[str, object]], league: League) -> list[GameRecord]:
    from eloleague.io.jsonl import parse_jsonl

    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines).encode()
    found, problems = parse_jsonl(text)
    assert not problems
    return found
