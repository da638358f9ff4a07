"""``League.verify`` and ``League.recompute`` (docs/league.md, "Checking a league"): a league as its
writes left it agrees with a full replay (every preset, the reference engine too, after live
appends), and each kind of damage to its derived tables is found where it is, then repaired by a
recompute noted in the journal; on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import text

from eloleague.league import League
from eloleague.records import PoolKey
from eloleague.store import checkpoints
from eloleague.store import verify as store_verify
from tests.store.helpers import replay_file
from tests.store.test_live_appends import assert_is_a_fresh_replay, duel

PRESETS = ["bataille-empire", "bataille-empire-en", "adlg", "card-battle", "diplomacy"]


def _sql(league: League, statement: str, **params: object) -> None:
    """Change the database behind the league's back, as a hand edit or a faulty program would."""
    with league.engine.begin() as conn:
        conn.execute(text(statement), {"league": league.id, **params})


@pytest.mark.parametrize("preset", PRESETS)
def test_a_league_as_its_imports_left_it_agrees(db_url: str, preset: str) -> None:
    league = League.create(db_url, preset, preset)
    league.import_file(replay_file(preset))
    found = league.verify()
    assert found.agrees, found
    full = league.replay_result()
    assert (found.games, found.ledger_entries, found.pools) == (
        len(league.games()),
        len(full.ledger),
        len(full.pools),
    )
    assert found.checkpoints >= 1  # at least the one after the last game
    assert league.verify(reference=True).agrees


def test_a_live_league_agrees_after_appends_back_dated_games_and_a_closing(db_url: str) -> None:
    league = League.create(db_url, "Live", "bataille-empire")
    day = dt.date(2024, 12, 20)
    league.import_games(
        [duel(n, day, n % 6, n % 5, n, "bataille-empire", None) for n in range(20)], source="a"
    )
    for n in range(20, 40):  # one game a post, as a game server posts them: the append path
        report = league.import_games(
            [duel(n, day + dt.timedelta(days=n // 8), n % 6, n % 4, n, "bataille-empire", None)],
            source="live",
        )
        assert report.replayed == 1
    assert league.verify().agrees
    league.import_games([duel(99, day, 1, 2, 0, "bataille-empire", None)], source="late")
    league.close_season(dt.date(2024, 12, 31))
    assert_is_a_fresh_replay(league)
    assert league.verify().agrees


@pytest.fixture
def damaged(db_url: str) -> League:
    league = League.create(db_url, "club", "adlg")
    league.import_file(replay_file("adlg"))
    assert league.verify().agrees
    return league


def _a_pool(league: League) -> tuple[PoolKey, int]:
    key = next(iter(league.current_pools()))
    with league.engine.connect() as conn:
        pid = conn.execute(
            text("SELECT id FROM players WHERE league_id = :league AND name = :name"),
            {"league": league.id, "name": key.player},
        ).scalar_one()
    return key, pid


def test_a_changed_rating_is_found_and_repaired(damaged: League) -> None:
    key, pid = _a_pool(damaged)
    before = damaged.current_pools()[key]
    _sql(
        damaged,
        "UPDATE ratings SET rating = rating + 7, games = games + 1 "
        "WHERE league_id = :league AND player_id = :pid AND mode = :mode AND role = :role",
        pid=pid,
        mode=key.mode,
        role=key.role,
    )
    found = damaged.verify()
    assert not found.agrees
    assert [(d.key, d.replayed) for d in found.pool_differences] == [(key, before)]
    (diff,) = found.pool_differences
    assert diff.stored is not None
    assert (diff.stored.rating, diff.stored.games) == (before.rating + 7, before.games + 1)
    assert (found.ledger_differences, found.tail_differences) == (0, [])

    assert damaged.recompute(user="Claire") == 1
    assert damaged.verify().agrees
    assert damaged.current_pools()[key] == before
    entry = damaged.journal(1)[0]
    assert (entry.action, entry.user, entry.players) == ("recompute", "Claire", 1)


def test_a_changed_history_entry_is_found_with_its_game_player_and_field(damaged: League) -> None:
    entry = damaged.ledger()[5]
    _sql(damaged, "UPDATE ledger SET delta = delta + 1 WHERE league_id = :league AND seq = 5")
    found = damaged.verify()
    assert found.ledger_differences == 1 and found.pool_differences == []
    (diff,) = found.first_ledger_differences
    assert (diff.position, diff.game, diff.key, diff.fields) == (
        5,
        entry.game,
        entry.key,
        ("delta",),
    )
    assert (diff.stored["delta"], diff.replayed["delta"]) == (entry.delta + 1, entry.delta)
    assert damaged.recompute() == 0  # the ratings were right: only the history is rewritten
    assert damaged.verify().agrees


def test_a_missing_history_entry_shifts_every_later_one(damaged: League) -> None:
    total = len(damaged.ledger())
    _sql(damaged, "DELETE FROM ledger WHERE league_id = :league AND seq = :seq", seq=total - 1)
    found = damaged.verify()
    assert found.ledger_differences == 1
    assert found.first_ledger_differences[0].fields == ("missing",)
    assert found.first_ledger_differences[0].position == total - 1


def test_differences_past_the_shown_ones_are_counted(damaged: League) -> None:
    _sql(damaged, "UPDATE ledger SET fired = 'cap' WHERE league_id = :league AND seq < 30")
    found = damaged.verify()
    assert found.ledger_differences == 30
    assert len(found.first_ledger_differences) == store_verify.SHOWN
    assert [d.position for d in found.first_ledger_differences] == list(range(store_verify.SHOWN))
    assert {d.fields for d in found.first_ledger_differences} == {("fired",)}


def test_a_pool_only_one_side_has_is_found(damaged: League) -> None:
    key, pid = _a_pool(damaged)
    _sql(
        damaged,
        "DELETE FROM ratings "
        "WHERE league_id = :league AND player_id = :pid AND mode = :mode AND role = :role",
        pid=pid,
        mode=key.mode,
        role=key.role,
    )
    (diff,) = damaged.verify().pool_differences
    assert (diff.key, diff.stored) == (key, None)


def test_the_state_kept_for_live_results_is_checked(damaged: League) -> None:
    _sql(damaged, "UPDATE live_tails SET periods = periods + 3, games = games - 1")
    found = damaged.verify()
    assert sorted(found.tail_differences) == ["games", "periods"]
    assert found.pool_differences == [] and found.ledger_differences == 0
    damaged.recompute()
    assert damaged.verify().agrees


def test_an_empty_league_agrees(db_url: str) -> None:
    league = League.create(db_url, "empty", "adlg")
    found = league.verify()
    assert found.agrees and (found.games, found.ledger_entries, found.pools) == (0, 0, 0)
    assert league.recompute() == 0


def test_a_checkpoint_that_is_not_the_replay_s_is_found_by_its_date(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint is where the recompute of a later back-dated game begins: one whose state
    or place is wrong is found, and the recompute writes it again."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 100)
    league = League.create(db_url, "club", "adlg")
    league.import_file(replay_file("adlg"))
    found = league.verify()
    assert found.agrees and found.checkpoints >= 3
    with league.engine.connect() as conn:
        dates = [
            d
            for (d,) in conn.execute(
                text("SELECT date FROM checkpoints WHERE league_id = :league ORDER BY date"),
                {"league": league.id},
            )
        ]
    with league.engine.begin() as conn:  # the second one's state is the first one's
        first = conn.execute(
            text("SELECT state FROM checkpoints WHERE league_id = :league AND date = :d"),
            {"league": league.id, "d": dates[0]},
        ).scalar_one()
        conn.execute(
            text("UPDATE checkpoints SET state = :s WHERE league_id = :league AND date = :d"),
            {"s": first, "league": league.id, "d": dates[1]},
        )
    _sql(
        league,
        "UPDATE checkpoints SET ledger_pos = ledger_pos + 1 WHERE league_id = :league "
        "AND date = :d",
        d=dates[2],
    )
    found = league.verify()
    assert [str(d) for d in found.checkpoint_differences] == [str(d) for d in dates[1:3]]
    assert not found.agrees
    assert (found.pool_differences, found.ledger_differences, found.tail_differences) == (
        [],
        0,
        [],
    )
    league.recompute()
    assert league.verify().agrees


def test_ratings_in_another_order_are_found(damaged: League) -> None:
    """Ties in the ranking follow the order in which the ratings first appeared."""
    _sql(damaged, "UPDATE ratings SET position = -1 WHERE league_id = :league AND position = 0")
    _sql(damaged, "UPDATE ratings SET position = 0 WHERE league_id = :league AND position = 1")
    _sql(damaged, "UPDATE ratings SET position = 1 WHERE league_id = :league AND position = -1")
    found = damaged.verify()
    assert (found.pool_differences, found.tail_differences) == ([], ["order"])
    assert not found.agrees


WRITER = """
import datetime as dt, sys, time
from eloleague.league import League
from tests.store.test_live_appends import duel
league = League.open(sys.argv[1], "club")
day, n = dt.date.today(), 0
print("ready", flush=True)
until = time.monotonic() + float(sys.argv[2])
while time.monotonic() < until:
    league.import_games(
        [duel(10_000 + n, day, n % 6, n % 5, n, "adlg", None) for _ in range(1)], source="live"
    )
    n += 1
print(n, flush=True)
"""


def test_a_verification_sees_each_write_whole_while_another_process_posts(db_url: str) -> None:
    """The check reads the games, the history, the ratings and the live state in one snapshot:
    games posted meanwhile by another process are either wholly seen or not at all."""
    import subprocess
    import sys

    league = League.create(db_url, "club", "adlg")
    league.import_file(replay_file("adlg"))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, db_url, "3"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        seen = set()
        for _ in range(200):  # about two seconds of checks while the writer posts for three
            found = league.verify()
            assert found.agrees, found
            seen.add(found.games)
            if len(seen) >= 5:
                break
        posted = int(writer.stdout.readline())
    finally:
        writer.kill()
        writer.wait()
    assert posted > 0 and len(seen) > 1  # the checks ran while games came in
