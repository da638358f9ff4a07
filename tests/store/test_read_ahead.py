"""Reads sent ahead (store/bulk.py ``read_ahead``, ``kept_ahead``): on PostgreSQL an import's first
reads travel with the league's lock, in its round trip, and each statement run later gets the rows
read ahead, once; what is not read is dropped at the end of the block. On SQLite nothing is read
ahead."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from eloleague.engine.fast import try_replay
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import live as live_module
from eloleague.store import tail as live_tail
from eloleague.store.accounts import token_holder_read
from eloleague.store.bulk import hold_for_commit, kept_ahead, read_ahead, run, run_together
from eloleague.store.db import write
from eloleague.store.games import LAST_SEQ
from eloleague.store.leagues import RULES_READ
from eloleague.store.pipeline import Pipeline
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)
from tests.store.test_live_appends import assert_is_a_fresh_replay

DAY = dt.date(2025, 1, 4)
NAMES = "SELECT name FROM players WHERE league_id = ? AND name = ?"


def _duel(gid: str, a: Participant, b: Participant) -> GameRecord:
    return GameRecord(DAY, (Side((a,), "decisive_victory"), Side((b,), "defeat")), id=gid)


def _league(db_url: str) -> League:
    league = League.create(db_url, "Ahead", "bataille-empire")
    league.import_games(
        [_duel(f"r{i}", Participant(f"P{i}"), Participant(f"P{i + 1}")) for i in range(0, 8, 2)],
        source="first",
    )
    return league


def _count_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements sent, through psycopg or through libpq's pipeline driven directly
    (:mod:`eloleague.store.pipeline`; spies: each still runs)."""
    sent: list[str] = []
    execute, send = psycopg.Cursor.execute, Pipeline.send

    def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return execute(self, query, *args, **kwargs)

    def counted_send(self: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        sent.append(sql)
        return send(self, sql, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    monkeypatch.setattr(Pipeline, "send", counted_send)
    return sent


def test_a_read_sent_ahead_is_answered_once_then_asked_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = _league(db_url)
    postgres = db_url.startswith("postgresql")
    sent = _count_statements(monkeypatch) if postgres else []
    with write(league.engine) as conn:
        ahead = [(NAMES, (league.id, "P0")), (NAMES, (league.id, "P2"))]
        with read_ahead(conn, ahead):
            before = len(sent)
            assert run(conn, NAMES, (league.id, "P0")) == [("P0",)]
            assert len(sent) == before  # answered from what was read ahead
            run(conn, "UPDATE players SET name = 'P0 bis' WHERE name = 'P0'")
            assert run(conn, NAMES, (league.id, "P0")) == []  # once only: asked again, fresh
            assert run(conn, NAMES, (league.id, "P4")) == [("P4",)]  # never read ahead
        # P2 was not read in the block: dropped, the next run asks the database
        run(conn, "UPDATE players SET name = 'P2 bis' WHERE name = 'P2'")
        assert run(conn, NAMES, (league.id, "P2")) == []
    if postgres:  # sent: the two reads ahead, then P0 again, P4, and P2 after the block
        assert sum(NAMES.replace("?", "%s") in s for s in sent) == 5


def test_reads_kept_ahead_are_answered_from_there_and_not_sent_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a caller read with the lock (kept) is not read again by a read_ahead inside it, and
    is gone when the block ends: rows kept past their write would be stale."""
    league = _league(db_url)
    postgres = db_url.startswith("postgresql")
    sent = _count_statements(monkeypatch) if postgres else []
    with write(league.engine) as conn:
        kept = [(NAMES, (league.id, "P0"))]
        with kept_ahead(conn, kept, [[("as kept",)]]):
            with read_ahead(conn, [*kept, (NAMES, (league.id, "P2"))]):
                assert run(conn, NAMES, (league.id, "P0")) == [("as kept",)]
                assert run(conn, NAMES, (league.id, "P2")) == [("P2",)]
            assert run(conn, NAMES, (league.id, "P0")) == [("P0",)]  # dropped: asked, fresh
    if postgres:  # P2 ahead (P0 was kept), then P0 after the block
        assert sum(NAMES.replace("?", "%s") in s for s in sent) == 2


def test_an_import_reads_ahead_only_what_no_registration_can_change(db_url: str) -> None:
    """Plain names: the import's first reads go ahead; a new player with a federation id is
    registered before the names are read, so nothing is read ahead then (read ahead, her name
    would be unknown and created twice). Either way the league is a full replay."""
    from tests.store.test_live_appends import assert_is_a_fresh_replay

    league = _league(db_url)
    plain = league.import_games(
        [_duel("x1", Participant("P1"), Participant("P3"))], source="a", content_hash="h1"
    )
    assert plain.added == 1 and plain.new_players == []
    again = league.import_games(
        [_duel("x1", Participant("P1"), Participant("P3"))], source="a", content_hash="h1"
    )
    assert again.added == 0 and again.already_imported is not None  # read ahead, still right
    licensed = league.import_games(  # Zoé is registered by her id, then her name is read
        [_duel("x2", Participant("Zoé", federation_id="FR-9"), Participant("P5"))], source="b"
    )
    assert licensed.added == 1 and licensed.new_players == ["Zoé"]
    assert league.identity("Zoé").federation_id == "FR-9"
    assert_is_a_fresh_replay(league)


@pytest.mark.pg
def test_an_imports_first_reads_each_reach_postgresql_once(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read ahead, then answered from there: each of a post's first reads (whether the request
    was stored, the namesakes, the names, the stored ids, the tail, the last arrival number,
    the row ids reserved for its game and batch, the pools of the players it names) reaches the
    server once, and the pools are not read again by the players' ids. A read ahead that the
    import then asked again (its statement no longer the same) would be sent twice: a round trip
    more, not fewer."""
    league = _league(pg_server.new_database())
    sent = _count_statements(monkeypatch)
    report = league.import_games(
        [_duel("x9", Participant("P1"), Participant("P3"))], source="post", content_hash="h9"
    )
    assert report.added == 1
    firsts = (
        "FROM import_batches WHERE league_id = %s AND content_hash",
        "SELECT name, federation_id FROM players",
        "UNION ALL SELECT a.alias, a.player_id, 1, p.name FROM player_aliases",
        "SELECT ext_id, id, seq, date, content_hash FROM games",
        "FROM live_tails WHERE league_id",
        "SELECT max(seq) FROM games",
        "nextval(pg_get_serial_sequence('games', 'id'))",
        "LEFT JOIN LATERAL (SELECT * FROM ratings WHERE league_id = %s AND player_id = w.id",
    )
    assert [sum(first in s for s in sent) for first in firsts] == [1] * len(firsts)
    by_ids = "SELECT player_id, mode, role, rating, games, extra, last_played FROM ratings"
    assert not [s for s in sent if s.startswith(by_ids)]


@pytest.mark.pg
def test_an_appended_game_takes_two_round_trips_to_postgresql(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lock with the rules, every first read, the row ids reserved for the game and its
    import batch, and the pools of the players it names; then the batch, the game, its players,
    the ledger, ratings, tail, journal entry and revision with the commit. A read leaving its
    round trip for one of its own, or a write leaving the commit's, would make more. A post
    naming a newcomer takes two as well: her id is reserved and the names registered since the
    process last read them are read with the lock, and she is registered with the commit; no
    pool of hers is read."""
    league = _league(pg_server.new_database())
    league.import_games([_duel("x0", Participant("P0"), Participant("P2"))], source="warm")
    trips = _count_round_trips(monkeypatch)
    report = league.import_games(
        [_duel("x9", Participant("P1"), Participant("P3"))], source="post", content_hash="h9"
    )
    assert report.added == 1
    assert len(trips) == 2, trips
    assert trips[-1] == "pipeline"  # the writes and the commit: psycopg's commit() sends nothing
    trips.clear()
    sent = _count_statements(monkeypatch)
    report = league.import_games(
        [_duel("x10", Participant("P1"), Participant("Newcomer"))], source="post"
    )
    assert report.added == 1 and report.new_players == ["Newcomer"]
    assert trips == ["pipeline"] * 2, trips  # the lock's, the commit's
    reserved = [n for n, s in enumerate(sent) if "WITH fresh AS MATERIALIZED" in s]
    put_back = [n for n, s in enumerate(sent) if "AS configured" in s]  # the lock's last
    inserted = [n for n, s in enumerate(sent) if "INSERT INTO players (id, " in s]
    assert len(reserved) == len(put_back) == len(inserted) == 1, sent
    assert reserved[0] <= put_back[0] < inserted[0], sent
    assert sent[-1] == "COMMIT"
    by_ids = "SELECT player_id, mode, role, rating, games, extra, last_played FROM ratings"
    assert not [s for s in sent if s.startswith(by_ids)]  # no pool of hers read
    monkeypatch.undo()
    league.engine.dispose()  # another connection sees the game: it was committed
    again = League.open(league.engine.url.render_as_string(hide_password=False), "Ahead")
    assert "x9" in {g.id for g in again.games()}
    with again.engine.connect() as conn:  # in its own import batch, recorded in the same round trip
        batch = conn.exec_driver_sql(
            "SELECT b.source, b.content_hash, b.added, b.user_name FROM games g "
            "JOIN import_batches b ON b.id = g.batch_id WHERE g.ext_id = 'x9'"
        ).one()
    assert tuple(batch) == ("post", "h9", 1, None)


@pytest.mark.pg
def test_an_appended_game_is_sent_to_postgresql_before_it_is_rated(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Held for the commit, the batch, the game and its players are still sent as soon as they
    are made (``store.bulk.start_held``): the server stores them while this process rates the
    game, and the commit's round trip waits on less. Held until the next write (the ledger,
    made after the rating), they would reach the server after it."""
    league = _league(pg_server.new_database())
    league.import_games([_duel("x0", Participant("P0"), Participant("P2"))], source="warm")
    sent = _count_statements(monkeypatch)
    rate = try_replay  # what store.live calls

    def rated(*args: Any, **kwargs: Any) -> Any:
        sent.append("rated")
        return rate(*args, **kwargs)

    monkeypatch.setattr(live_module, "try_replay", rated)
    trips = _count_round_trips(monkeypatch)
    report = league.import_games([_duel("x1", Participant("P1"), Participant("P3"))], source="p")
    assert report.added == 1 and len(trips) == 2, trips
    games = [n for n, s in enumerate(sent) if "INSERT INTO games " in s]
    ledger = [n for n, s in enumerate(sent) if "INSERT INTO ledger " in s]
    assert len(games) == len(ledger) == 1 and sent.count("rated") == 1, sent
    assert games[0] < sent.index("rated") < ledger[0], sent
    monkeypatch.undo()
    assert_is_a_fresh_replay(league)


@pytest.mark.pg
def test_newcomers_registered_with_the_commit_are_checked_against_every_registered_name(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Newcomers whose ids were reserved with the lock: both players of a game new, each under
    her own id; the look-alike check still sees a player another process registered since this
    one last read the names (here written by another connection, which this process's kept
    names know nothing of); a name that is an alias is no newcomer; and the league is what a
    fresh replay makes of it."""
    league = _league(pg_server.new_database())
    league.rename_player("P7", "P7 bis")  # P7 is now an alias
    # a newcomer: this process reads the league's names (then only those registered since)
    league.import_games([_duel("w", Participant("P0"), Participant("Warm"))], source="warm")
    url = league.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as other:  # another process's registrations
        other.execute(
            "INSERT INTO players (league_id, name, created_at) VALUES (%s, 'Bruno Petit', now())",
            (league.id,),
        )
    trips = _count_round_trips(monkeypatch)
    report = league.import_games(
        [_duel("n1", Participant("Bruno Peti"), Participant("Chloé Roux"))], source="post"
    )
    assert trips == ["pipeline"] * 2, trips  # the newcomers' registration took none of its own
    assert report.new_players == ["Bruno Peti", "Chloé Roux"]
    assert [(w.name, w.likely) for w in report.name_warnings] == [("Bruno Peti", "Bruno Petit")]
    trips.clear()
    report = league.import_games(
        [_duel("n2", Participant("P7"), Participant("Denise Aubert"))], source="post"
    )
    assert trips == ["pipeline"] * 2, trips
    assert report.new_players == ["Denise Aubert"]  # P7 is P7 bis's alias, no newcomer
    monkeypatch.undo()
    with league.engine.connect() as conn:
        ids: dict[str, int] = dict(
            conn.exec_driver_sql(
                "SELECT name, id FROM players WHERE league_id = %s", (league.id,)
            ).all()
        )
    assert len(set(ids.values())) == len(ids)  # each her own id
    assert {"Bruno Peti", "Chloé Roux", "Denise Aubert", "Bruno Petit"} <= set(ids)
    assert {p.name for g in league.games() for s in g.sides for p in s.players} >= {
        "Bruno Peti",
        "Chloé Roux",
        "P7 bis",
        "Denise Aubert",
    }
    assert_is_a_fresh_replay(league)


@pytest.mark.pg
def test_a_game_naming_an_alias_has_its_players_pools_read_with_the_lock(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A misspelling merged into a player is an alias: a game naming it takes two round trips
    as any other (the alias's player and her name, then her pools, found through the alias, all
    read with the lock), and rates her pool."""
    league = _league(pg_server.new_database())
    league.import_games([_duel("t0", Participant("Pone"), Participant("P4"))], source="typo")
    league.merge_players("Pone", "P1")
    before = {r.player: r.rating for r in league.ranking()}
    trips = _count_round_trips(monkeypatch)
    report = league.import_games(
        [_duel("x9", Participant("Pone"), Participant("P3"))], source="post"
    )
    assert report.added == 1
    assert trips == ["pipeline"] * 2, trips
    monkeypatch.undo()
    after = {r.player: r.rating for r in league.ranking()}
    assert after["P1"] > before["P1"] and "Pone" not in after
    assert league.ranking() == league.replay_result().standings()


def _count_round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What is sent and waited for: a statement outside a pipeline, a pipeline (psycopg's or
    libpq's driven directly, however many statements it holds), a commit. The spies let each
    through."""
    trips: list[str] = []
    inside = [0]
    execute, pipeline, commit, finish = (
        psycopg.Cursor.execute,
        psycopg.Connection.pipeline,
        psycopg.Connection.commit,
        Pipeline.finish,
    )

    def counted_finish(self: Any) -> Any:
        trips.append("pipeline")
        return finish(self)

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if not inside[0]:
            trips.append(str(query)[:60])
        return execute(self, query, *args, **kwargs)

    @contextlib.contextmanager
    def counted_pipeline(self: Any) -> Iterator[Any]:
        if not inside[0]:
            trips.append("pipeline")
        inside[0] += 1
        try:
            with pipeline(self) as p:
                yield p
        finally:
            inside[0] -= 1

    def counted_commit(self: Any) -> None:
        if self.pgconn.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            trips.append("commit")  # else the transaction ended already: nothing is sent
        commit(self)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted_execute)
    monkeypatch.setattr(psycopg.Connection, "pipeline", counted_pipeline)
    monkeypatch.setattr(psycopg.Connection, "commit", counted_commit)
    monkeypatch.setattr(Pipeline, "finish", counted_finish)
    return trips


@pytest.mark.pg
def test_a_write_held_for_the_commit_that_fails_stores_nothing(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A statement sent with the commit fails (here the league's revision, made to divide by
    zero): the import raises, nothing of it is stored, and the next one goes through on the same
    pooled connection. A read after held statements gets its rows, through the store's own
    statements or through SQLAlchemy."""
    import eloleague.league as league_module
    from eloleague.store.revisions import bump_revision as real_bump

    league = _league(pg_server.new_database())
    before = league.games()

    def failing(conn: Any, league_id: int) -> None:
        run(conn, "UPDATE leagues SET revision = revision / 0 WHERE id = ?", (league_id,))

    monkeypatch.setattr(league_module, "bump_revision", failing)
    with pytest.raises(Exception, match="division by zero"):
        league.import_games([_duel("x8", Participant("P1"), Participant("P5"))], source="post")
    assert league.games() == before
    monkeypatch.setattr(league_module, "bump_revision", real_bump)
    report = league.import_games([_duel("x8", Participant("P1"), Participant("P5"))], source="post")
    assert report.added == 1 and len(league.games()) == len(before) + 1

    start = league_revision(league)
    bump = "UPDATE leagues SET revision = revision + 1 WHERE id = ?"
    reads = [
        ("SELECT revision FROM leagues WHERE id = ?", 1),
        ("WITH r AS (SELECT revision FROM leagues WHERE id = ?) SELECT * FROM r", 2),
        (bump + " RETURNING revision", 4),
    ]
    with write(league.engine) as conn:
        for read, expected in reads:  # each after a held write: its rows, the write's effect
            hold_for_commit(conn)
            run(conn, bump, (league.id,))
            assert run(conn, read, (league.id,)) == [(start + expected,)], read
        hold_for_commit(conn)
        run(conn, bump, (league.id,))
        # the same through SQLAlchemy
        again = conn.exec_driver_sql(f"SELECT revision FROM leagues WHERE id = {league.id}")
        assert again.scalar_one() == start + 5
    assert league_revision(league) == start + 5


def league_revision(league: League) -> int:
    with league.engine.connect() as conn:
        return int(
            conn.exec_driver_sql(
                f"SELECT revision FROM leagues WHERE id = {league.id}"
            ).scalar_one()
        )


def _known_officer_guard(league: League) -> Any:
    """The check an API post from a known officer's token makes in its transaction."""
    from eloleague import accounts

    accounts.add_user(league.engine, "Server", "a long password", "officer")
    token = accounts.create_token(league.engine, "Server")
    user, _ = accounts.user_for_token_and(league.engine, token, lambda conn: None)
    assert user is not None
    accounts.remember_officer(league.engine, token, user)
    known = accounts.known_officer(league.engine, token)
    assert known is not None
    return known[1]


@pytest.mark.pg
def test_a_known_officer_s_post_checks_its_token_in_the_lock_s_round_trip(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The token's check (accounts.known_officer) is read with the lock: two round trips, as a
    post without it; a round trip of its own would make three."""
    league = _league(pg_server.new_database())
    guard = _known_officer_guard(league)
    league.import_games([_duel("x0", Participant("P0"), Participant("P2"))], source="warm")
    trips = _count_round_trips(monkeypatch)
    report = league.import_games(
        [_duel("x9", Participant("P1"), Participant("P3"))], source="api", guard=guard
    )
    assert report.added == 1
    assert len(trips) == 2, trips


@pytest.mark.pg
@pytest.mark.parametrize("known_token", [False, True], ids=["plain", "known-officer"])
def test_posts_applied_together_share_their_round_trips(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    known_token: bool,
) -> None:
    """Three plain posts queued together: the lock with the reads of them all (with their
    players' pools, and row ids reserved for their games and import batches); their writes
    with the savepoint around them; the commit. Each post a round trip of its own would make
    more (the reads after the lock were one more, the batches and the games two more, the
    savepoint one). Posts as the API makes them (a known officer's token, the body's digest) check their
    tokens and whether they were stored already in the lock's round trip too."""
    from tests.store.test_group_commit import queued_in_order

    league = _league(pg_server.new_database())
    guard = _known_officer_guard(league) if known_token else None
    league.import_games([_duel("x0", Participant("P0"), Participant("P2"))], source="warm")
    trips = _count_round_trips(monkeypatch)
    posts = [
        functools.partial(
            league.import_games,
            [_duel(f"t{n}", Participant(f"P{n}"), Participant(f"P{n + 3}"))],
            source="api",
            guard=guard,
            content_hash=f"body {n}" if known_token else None,
        )
        for n in range(3)
    ]
    outcomes, queued = queued_in_order(league, posts)
    monkeypatch.undo()
    assert queued == 3 and [o.added for o in outcomes] == [1, 1, 1]
    assert trips == ["pipeline", "pipeline", "commit"], trips
    assert {"t0", "t1", "t2"} <= {g.id for g in league.games()}


@pytest.mark.pg
def test_the_reads_made_with_the_lock_are_planned_once_per_connection(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """Posted one game at a time, the first reads (names, ids, pools), joined into one
    statement, are a prepared statement run with a generic plan, not planned again for its
    values (PostgreSQL's own choice planned the names' read afresh each time: a third of the
    server's time for one game); the rest of the write is planned as the server is configured
    to."""
    league = _league(pg_server.new_database())
    for n in range(8):  # prepared at its first run (store/pipeline.py), then run again
        league.import_games(
            [_duel(f"g{n}", Participant(f"P{n % 4}"), Participant(f"P{n % 4 + 4}"))],
            source="post",
        )
    seen: list[Any] = []

    def look(conn: Any) -> None:  # in the ninth post's transaction, after its lock's round trip
        plans = conn.exec_driver_sql(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE 'SELECT name, id, 0, name FROM players%%' "
            "OR statement LIKE 'SELECT r0.*, r1.*%%' "  # the reads of one row: rules, tail, id
            "OR statement LIKE 'SELECT w.id, r.mode, r.role, r.rating%%'"
        ).all()
        seen.append((plans, conn.exec_driver_sql("SHOW plan_cache_mode").scalar()))

    report = league.import_games(
        [_duel("g9", Participant("P1"), Participant("P6"))], source="post", guard=look
    )
    assert report.added == 1
    ((plans, mode),) = seen
    # the reads joined (rules, tail, game id, names, pools), one statement for the posts like
    # this one (the first posts, with newcomers, joined other reads: a statement of their own)
    statement, generic, _ = max(plans, key=lambda plan: plan[1])
    for read in ("ext_id = $", "SELECT name, id, 0, name FROM players", "r.rating, r.games"):
        assert read in statement, statement
    assert generic >= 4 and all(custom == 0 for _, _, custom in plans), plans
    assert mode == "auto"  # as configured, for the rest of the write


@pytest.mark.pg
def test_a_write_s_bounded_wait_for_the_lock_bounds_that_wait_alone(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """The site's writes wait a bounded time for the league's lock (then 503, see
    tests/web/test_live_results.py); the bound is set, the lock taken and the bound lifted in
    one statement, so the rest of the write waits for other locks as the server is configured."""
    league = _league(pg_server.new_database())
    league.write_wait = 5.0
    seen: list[Any] = []

    def look(conn: Any) -> None:  # in the post's transaction, after its lock's round trip
        seen.append(conn.exec_driver_sql("SHOW lock_timeout").scalar())

    for n in range(2):
        report = league.import_games(
            [_duel(f"w{n}", Participant("P1"), Participant("P6"))], source="post", guard=look
        )
        assert report.added == 1
    assert seen == ["0", "0"]


def test_reads_of_one_row_next_to_each_other_travel_as_one_statement(
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write begins with up to five reads of one row each (the rules, the poster's token, the
    post's digest, the tail, the last arrival number): on PostgreSQL those next to each other
    are one statement, and each read still gets exactly its own rows, a read that finds nothing
    none (a missing league's rules, an unknown token), an aggregate its one row."""
    league = _league(db_url)
    postgres = db_url.startswith("postgresql")
    reads: list[tuple[str, tuple[Any, ...]]] = [
        (RULES_READ, (league.id,)),
        token_holder_read("no such token"),
        (live_tail.READ, (league.id,)),
        (RULES_READ, (league.id + 1,)),  # no such league
        (LAST_SEQ, (league.id,)),
        (NAMES, (league.id, "P0")),  # not declared of one row: a statement of its own
        (LAST_SEQ, (league.id + 1,)),
    ]
    with write(league.engine) as conn:
        alone = [run(conn, sql, params) for sql, params in reads]
        sent = _count_statements(monkeypatch) if postgres else []
        together = run_together(conn, reads)
    monkeypatch.undo()
    assert together == alone
    assert alone[0] == [(league.rules_text,)] and alone[1] == [] and alone[3] == []
    assert alone[2] and alone[2][0][3] == 4  # the tail's games: the four of _league
    assert alone[4] == [(4,)] and alone[5] == [("P0",)] and alone[6] == [(None,)]
    if postgres:  # the first five, the name, the last one
        assert len(sent) == 3, sent
        assert sent[0].count("LEFT JOIN LATERAL") == 5
