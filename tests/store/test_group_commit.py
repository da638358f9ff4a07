"""Group commit (docs/league.md, "Live results"): writes of one process queued for a league's lock
share one transaction, each in its own savepoint. A write that fails is undone alone, every
write keeps its own batch and journal entry, none is answered before its transaction commits,
and the league is exactly a fresh replay afterwards; on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from eloleague.errors import BusyError, InputError
from eloleague.league import ImportReport, League, write_now
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import db as store_db
from eloleague.store.group_commit import group_of
from tests.store.test_live_appends import assert_is_a_fresh_replay
from tests.store.test_writer_turn import Other

DAY = dt.date(2024, 3, 1)


def game(n: int, winner: str = "Ana", loser: str = "Bob", outcome: str = "defeat") -> GameRecord:
    return GameRecord(
        date=DAY,
        sides=(
            Side((Participant(winner),), "decisive_victory"),
            Side((Participant(loser),), outcome),
        ),
        id=f"g{n}",
    )


def commits_of(league: League) -> Callable[[], int]:
    """How many transactions committed on the league's engine since this was called."""
    count = [0]

    def counted(_conn: object) -> None:
        count[0] += 1

    event.listen(league.engine, "commit", counted)
    return lambda: count[0]


def queued_behind_the_lock(league: League, writes: Sequence[Callable[[], object]]) -> list[object]:
    """What each of ``writes`` returned or raised, queued behind the lock
    (:func:`queued_in_order`)."""
    return queued_in_order(league, writes)[0]


def queued_in_order(league: League, writes: Sequence[Callable[[], Any]]) -> tuple[list[Any], int]:
    """Run ``writes`` in threads, each queued for the league's lock after the one before it,
    while this thread holds the process's turn; let go once all wait; what each returned or
    raised, and how many queued (the others were refused before)."""
    group = group_of(store_db.group_key(league.engine, league.id))
    outcomes: list[Any] = [None] * len(writes)

    def run(i: int) -> None:
        try:
            outcomes[i] = writes[i]()
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(writes))]
    queued = 0
    assert group.gate.acquire(timeout=10)
    try:
        for thread in threads:
            thread.start()
            deadline = time.monotonic() + 10
            # queued, or refused before it queued (a game the rules refuse)
            while len(group._waiting) == queued and thread.is_alive():
                assert time.monotonic() < deadline, "the write never queued"
                time.sleep(0.002)
            queued = len(group._waiting)
    finally:
        group.gate.release()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes, queued


def test_queued_writes_commit_together_and_a_failing_one_is_undone_alone(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([game(0)], source="api")
    commits = commits_of(league)
    clash = GameRecord(  # g0 again with another result: refused without --update
        date=DAY,
        sides=(
            Side((Participant("Ana"),), "defeat"),
            Side((Participant("Bob"),), "decisive_victory"),
        ),
        id="g0",
    )
    writes: list[Callable[[], object]] = [
        lambda: league.import_games([game(1, "Chloé", "Dan")], source="api", user="s1"),
        lambda: league.import_games([clash], source="api", user="s2"),
        lambda: league.import_games([game(2), game(3, "Bob", "Eve")], source="api", user="s3"),
        lambda: league.import_games([game(4, "Eve", "Chloé")], source="api", user="s4"),
    ]
    outcomes = queued_behind_the_lock(league, writes)

    assert isinstance(outcomes[1], InputError)
    assert "g0" in str(outcomes[1])
    assert [getattr(o, "added", None) for o in outcomes] == [1, None, 2, 1]
    assert commits() == 1  # four writes, one transaction
    assert sorted(g.id or "" for g in league.games()) == ["g0", "g1", "g2", "g3", "g4"]
    assert [e.user for e in league.journal()[:3]] == ["s4", "s3", "s1"]  # one entry each
    assert_is_a_fresh_replay(league)


def test_a_write_nobody_took_gets_busy_and_stores_nothing(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.write_wait = 0.2
    group = group_of(store_db.group_key(league.engine, league.id))
    assert group.gate.acquire(timeout=10)
    try:
        with pytest.raises(BusyError):
            league.import_games([game(1)], source="api")
        assert not group._waiting  # it left the queue
    finally:
        group.gate.release()
    assert league.games() == []
    league.import_games([game(1)], source="api")  # the same call again, later: stored
    assert [g.id for g in league.games()] == ["g1"]


def test_a_transaction_that_cannot_begin_fails_every_write_it_held(db_url: str) -> None:
    """Another process holds the league's lock past the writes' wait: the transaction that took
    the queued writes never begins, each writer hears it (busy), and nothing is stored."""
    league = League.create(db_url, "live", "bataille-empire")
    league.write_wait = 0.5
    writes: list[Callable[[], object]] = [
        functools.partial(league.import_games, [game(n)], source="api") for n in range(3)
    ]
    if store_db.is_sqlite(league.engine):
        holder = sqlite3.connect(str(league.engine.url.database), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the database's one write lock
        outcomes = queued_behind_the_lock(league, writes)
        holder.close()
    else:
        with league.engine.connect() as conn:
            lock = {"ns": store_db.LEAGUE_LOCK, "league": league.id}
            conn.execute(text("SELECT pg_advisory_lock(:ns, :league)"), lock)
            outcomes = queued_behind_the_lock(league, writes)
            conn.execute(text("SELECT pg_advisory_unlock(:ns, :league)"), lock)
    assert all(isinstance(o, BusyError) for o in outcomes), outcomes
    assert league.games() == []
    assert_is_a_fresh_replay(league)


def test_writes_to_two_leagues_of_one_sqlite_file_share_a_transaction_and_both_change(
    tmp_path: Path,
) -> None:
    """SQLite has one write lock per file: the writes of all its leagues queue together, and
    each league's revision (what servers keep of it depends on it) changes with its own games."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    first = League.create(url, "first", "bataille-empire")
    second = League.create(url, "second", "adlg")
    second_game = GameRecord(
        date=DAY,
        sides=(Side((Participant("Zoé"),), "victory"), Side((Participant("Yann"),), "defeat")),
        id="z1",
    )
    kept_first = first.kept("games", lambda: len(first.games()))
    kept_second = second.kept("games", lambda: len(second.games()))
    commits = commits_of(first)
    outcomes = queued_behind_the_lock(
        first,
        [
            lambda: first.import_games([game(1)], source="api"),
            lambda: second.import_games([second_game], source="api"),
        ],
    )
    assert [getattr(o, "added", o) for o in outcomes] == [1, 1]
    assert commits() == 1
    assert (kept_first, kept_second) == (0, 0)
    assert first.kept("games", lambda: len(first.games())) == 1  # the revision moved: asked again
    assert second.kept("games", lambda: len(second.games())) == 1
    assert_is_a_fresh_replay(first)
    assert_is_a_fresh_replay(second)


def test_a_write_whose_last_statements_fail_is_undone_alone_and_told(db_url: str) -> None:
    """The first of two queued writes fails in its last statements (the league's revision, sent
    on PostgreSQL with whatever follows it): that write gets the error and is undone, the next
    one is stored and answered, whatever its statements travel with."""
    import eloleague.league as league_module
    from eloleague.store.bulk import run
    from eloleague.store.revisions import bump_revision as real_bump

    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([game(0)], source="api")
    calls = [0]

    def first_fails(conn: Any, league_id: int) -> None:
        calls[0] += 1
        if calls[0] == 1:
            run(conn, "UPDATE leagues SET revision = revision / 0 WHERE id = ?", (league_id,))
        else:
            real_bump(conn, league_id)

    with pytest.MonkeyPatch.context() as patch:  # undone on leaving, as a finally would
        patch.setattr(league_module, "bump_revision", first_fails)
        # update=True: written each in its own savepoint, not applied together
        outcomes = queued_behind_the_lock(
            league,
            [
                functools.partial(league.import_games, [game(n)], source="api", update=True)
                for n in (1, 2)
            ],
        )
    failed, stored = outcomes
    assert isinstance(failed, Exception), failed  # PostgreSQL: division by zero; SQLite: NULL
    assert isinstance(stored, ImportReport) and stored.added == 1, stored
    assert {g.id for g in league.games()} == {"g0", "g2"}
    assert_is_a_fresh_replay(league)


def test_writes_made_ready_run_now_in_one_transaction_and_a_failing_one_alone(
    db_url: str,
) -> None:
    """What a server's event loop does (docs/league.md, "Live results"): imports made ready
    (``import_later``) run at once in the calling thread, one transaction, each answered as if it
    had been alone; a refused one is undone alone."""
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([game(0)], source="api")
    clash = GameRecord(
        date=DAY,
        sides=(
            Side((Participant("Ana"),), "defeat"),
            Side((Participant("Bob"),), "decisive_victory"),
        ),
        id="g0",
    )
    commits = commits_of(league)
    ready = [
        league.import_later([game(1, "Chloé", "Dan")], source="api", user="s1"),
        league.import_later([clash], source="api", user="s2"),
        league.import_later([game(2), game(3, "Bob", "Eve")], source="api", user="s3"),
    ]
    assert commits() == 0  # made ready: nothing run yet
    assert write_now(ready)
    assert all(each.write.done.is_set() for each in ready)  # answered without a wait
    assert commits() == 1
    assert ready[0].result().added == 1 and ready[2].result().added == 2
    with pytest.raises(InputError, match="g0"):
        ready[1].result()
    assert sorted(g.id or "" for g in league.games()) == ["g0", "g1", "g2", "g3"]
    assert [e.user for e in league.journal()[:2]] == ["s3", "s1"]
    assert_is_a_fresh_replay(league)


def test_writes_that_would_wait_are_left_as_they_were_and_run_when_asked(db_url: str) -> None:
    """A write of another thread under way (the process's turn taken), or one queued before
    them: nothing is run, nothing waits; the writes run when their result is asked."""
    league = League.create(db_url, "live", "bataille-empire")
    group = group_of(store_db.group_key(league.engine, league.id))
    first = league.import_later([game(1)], source="api")
    assert group.gate.acquire(timeout=10)  # as a thread running a transaction holds it
    try:
        assert not write_now([first])
    finally:
        group.gate.release()
    assert not first.write.done.is_set() and not first.write.taken and league.games() == []
    assert first.result().added == 1

    queued_before = league.import_later([game(2)], source="api")
    queued_before.queue()  # as a thread's write waiting for the lock
    second = league.import_later([game(3)], source="api")
    assert not write_now([second]) and not second.write.done.is_set()
    assert queued_before.result().added == 1 and second.result().added == 1
    assert [g.id for g in league.games()] == ["g1", "g2", "g3"]
    assert_is_a_fresh_replay(league)


def test_a_write_made_ready_waits_what_is_left_of_its_bound_when_asked(db_url: str) -> None:
    """``write_wait`` bounds a write's whole wait from the moment it was made ready: a post the
    server's loop held a moment for the database's turn (docs/league.md, "Live results") then
    waits in a thread only what is left, and is told busy by its bound, nothing stored."""
    league = League.create(db_url, "live", "bataille-empire")
    league.write_wait = 1.0
    group = group_of(store_db.group_key(league.engine, league.id))
    ready = league.import_later([game(1)], source="api")
    assert group.gate.acquire(timeout=10)  # another write of the process holds the league
    try:
        time.sleep(0.8)  # the loop's moment: most of the bound is gone
        started = time.monotonic()
        with pytest.raises(BusyError):
            ready.result()
        assert time.monotonic() - started < 0.7  # not the whole second again
    finally:
        group.gate.release()
    assert league.games() == []
    assert league.import_games([game(1)], source="api").added == 1


def test_writes_are_not_run_now_while_another_process_has_the_writers_turn(
    tmp_path: Path,
) -> None:
    """SQLite: another process holds the database's writers' turn (store/writer_turn.py): the
    writes are left at once (the loop does not wait for it), and stored once it lets go."""
    path = tmp_path / "turn.db"
    league = League.create(f"sqlite:///{path}", "live", "bataille-empire")
    holder = Other(path)
    try:
        assert holder.ask("take") == "held"
        league.write_wait = 60.0
        ready = league.import_later([game(1)], source="api")
        started = time.monotonic()
        assert not write_now([ready])
        assert time.monotonic() - started < 10  # far from the write's own wait: none at all
        assert not ready.write.done.is_set() and league.games() == []
        assert holder.ask("release") == "released"
    finally:
        holder.close()
    assert write_now([ready]) and ready.result().added == 1
    assert [g.id for g in league.games()] == ["g1"]
