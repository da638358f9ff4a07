"""Imports queued together applied as one (store/imports_together.py, docs/league.md "Live
results"): whatever writes queue for a league's lock at once (plain results, retries, games given
twice, conflicts, new players, back-dated games, a new day), each gets the answer it would have
got alone, and the league's every table ends as if they had been applied one after the other; on
SQLite and PostgreSQL. The common case (new results between registered players) is applied as
one; the others fall back to one write at a time."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import DateTime, select

from eloleague.errors import EloleagueError
from eloleague.league import _ENGINES, ImportReport, League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import imports_together, tables
from tests.store.test_group_commit import commits_of, queued_in_order
from tests.store.test_live_appends import assert_is_a_fresh_replay

NAMES = ("Ana", "Bob", "Chloé", "Dan", "Eve", "Fred")
OUTCOMES = (
    ("decisive_victory", "defeat"),
    ("marginal_victory", "defeat"),
    ("draw", "draw"),
    ("defeat", "overwhelming_victory"),
)
DAY = dt.date(2024, 3, 1)
COMPARED = (  # every table an import writes to, in an order that reads well in a failure
    "players",
    "import_batches",
    "games",
    "side_players",
    "ledger",
    "ratings",
    "live_tails",
    "live_active",
    "checkpoints",
    "journal",
)


def duel(gid: str | None, day: dt.date, a: str, b: str, result: int) -> GameRecord:
    wa, wb = OUTCOMES[result % len(OUTCOMES)]
    return GameRecord(
        date=day, sides=(Side((Participant(a),), wa), Side((Participant(b),), wb)), id=gid
    )


@dataclasses.dataclass(frozen=True)
class Post:
    """One write as a game server would send it: its games and the digest of its request."""

    games: list[GameRecord]
    digest: str


def posts_of(kinds: list[tuple[str, int, int]], last: dt.date, tag: str = "") -> list[Post]:
    """The posts a group of writes makes, ``last`` the day of the league's last game (``tag``
    tells the requests of two groups apart)."""
    posts: list[Post] = []
    for n, (kind, x, y) in enumerate(kinds):
        a, b = NAMES[x % len(NAMES)], NAMES[(x + 1 + y) % len(NAMES)]
        if kind == "plain":
            games = [duel(f"p{n}", last, a, b, y)]
        elif kind == "two":
            games = [duel(f"p{n}", last, a, b, y), duel(f"q{n}", last, b, NAMES[y % 6], x)]
        elif kind == "no id":  # the same content twice counts once as stored
            games = [duel(None, last, a, b, y % 2)]
        elif kind == "newcomer":
            games = [duel(f"p{n}", last, a, f"Newcomer {x}", y)]
        elif kind == "retry" and posts:  # the same request again
            posts.append(posts[x % len(posts)])
            continue
        elif kind == "clash" and posts:  # an earlier post's first game id, another result
            first = posts[x % len(posts)].games[0]
            games = [duel(first.id, last, a, b, y + 1)]
        elif kind == "late":
            games = [duel(f"p{n}", last - dt.timedelta(days=1 + y % 3), a, b, y)]
        elif kind == "next day":
            games = [duel(f"p{n}", last + dt.timedelta(days=1), a, b, y)]
        else:
            games = [duel(f"p{n}", last, b, a, x)]
        posts.append(Post(games, f"digest-{tag}{n}"))
    return posts


def post(league: League, p: Post) -> ImportReport:
    def answer(report: ImportReport) -> str:  # kept for a retry, as the API does
        return json.dumps({"added": report.added, "changes": len(report.rating_changes)})

    return league.import_games(
        p.games, source="api", user="server", content_hash=p.digest, answer=answer
    )


KEPT = dt.datetime.min  # a retry's answer, whatever the date of the stored post


def comparable(outcome: Any) -> Any:
    """An answer as its client reads it (a retry's date is the stored post's)."""
    if isinstance(outcome, EloleagueError):
        return (type(outcome).__name__, str(outcome))
    assert isinstance(outcome, ImportReport)
    return dataclasses.replace(
        outcome, already_imported=None if outcome.already_imported is None else KEPT
    )


# Row ids a PostgreSQL post may reserve with the league's lock (store/live.py, Early): the
# sequence skips those a post read but did not use, so the same writes applied together or one
# after the other may number their games and batches with gaps in different places. Compared by
# their order instead: the n-th game is the n-th in both, with the same batch and the same rows.
NUMBERED = {"games": ("id",), "import_batches": ("id",)}
REFERS = {("games", "batch_id"): "import_batches", ("side_players", "game_id"): "games"}
REFERS |= {("ledger", "game_id"): "games"}


def stored(league: League) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables an import writes, the clock's columns only as set or not (a run of
    several imports has its first one's time, an entry of one has none); the row ids of games and
    batches by their order (:data:`NUMBERED`)."""
    out = {}
    with league._reading() as conn:
        order = {}
        for name in NUMBERED:
            pks = tables.metadata.tables[name].c.id
            order[name] = {pk: n for n, (pk,) in enumerate(conn.execute(select(pks).order_by(pks)))}
        for name in COMPARED:
            table = tables.metadata.tables[name]
            columns = [
                c.is_(None).label(c.name) if isinstance(c.type, DateTime) else c
                for c in table.columns
            ]
            rows = conn.execute(select(*columns)).all()

            def numbered(column: str, value: Any, table: str = name) -> Any:
                if column in NUMBERED.get(table, ()):
                    return order[table][value]
                refers = REFERS.get((table, column))
                return value if refers is None or value is None else order[refers][value]

            out[name] = sorted(
                (
                    tuple(numbered(c.name, v) for c, v in zip(columns, row, strict=True))
                    for row in rows
                ),
                key=repr,
            )
    return out


def registered(url: str) -> League:
    """A league whose players (:data:`NAMES`) have played a few games."""
    league = League.create(url, "Live", "bataille-empire")
    # one clock for both leagues of a comparison: the journal's runs go by the hour
    league.now = lambda: dt.datetime(2024, 3, 1, 18, 30, tzinfo=dt.UTC)
    first = [duel(f"s{n}", DAY, NAMES[n % 6], NAMES[(n + 2) % 6], n) for n in range(9)]
    league.import_games(first, source="first")
    return league


def two_leagues(new_db: Callable[[], str]) -> tuple[League, League]:
    """Two leagues with the same stored games: one for writes queued together, one for the
    same writes one after the other."""
    return registered(new_db()), registered(new_db())


def dispose(*leagues: League) -> None:
    for league in leagues:  # one database per example: give its connections back
        league.engine.dispose()
        _ENGINES.pop(league.engine.url.render_as_string(hide_password=False), None)


KINDS = ("plain", "two", "no id", "newcomer", "retry", "clash", "late", "next day", "reversed")
COMMON = ("plain", "two", "reversed")  # results between registered players: applied as one
write = st.tuples(st.sampled_from(KINDS), st.integers(0, 11), st.integers(0, 11))
common = st.tuples(st.sampled_from(COMMON), st.integers(0, 11), st.integers(0, 11))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kinds=st.one_of(
        st.lists(common, min_size=2, max_size=7), st.lists(write, min_size=2, max_size=7)
    ),
    before=st.lists(write, max_size=2),
)
def test_writes_queued_together_end_as_one_after_the_other(
    new_db: Callable[[], str],
    kinds: list[tuple[str, int, int]],
    before: list[tuple[str, int, int]],
) -> None:
    together, alone = two_leagues(new_db)
    try:
        # Posts stored before the group (its retries and clashes may name them).
        for p in posts_of(before, DAY, "before-"):
            for league in (together, alone):
                with contextlib.suppress(EloleagueError):  # a clash: refused on both
                    post(league, p)
        last = max(g.date for g in alone.games())
        posts = posts_of(kinds, last)
        commits = commits_of(together)
        got, queued = queued_in_order(
            together, [functools.partial(post, together, p) for p in posts]
        )
        expected: list[ImportReport | EloleagueError] = []
        for p in posts:
            try:
                expected.append(post(alone, p))
            except EloleagueError as exc:
                expected.append(exc)
        assert [comparable(o) for o in got] == [comparable(o) for o in expected]
        # the writes that queued share one transaction (rolled back if it held one failed write)
        assert commits() <= min(queued, 1)
        assert commits() == 1 or not any(isinstance(o, ImportReport) for o in got)
        assert stored(together) == stored(alone)
        assert_is_a_fresh_replay(together)
    finally:
        dispose(together, alone)


@pytest.fixture
def together_calls(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each call of ``apply_writes`` did: how many imports it applied, or what it raised."""
    calls: list[object] = []
    apply = imports_together.apply_writes

    def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            reports = apply(*args, **kwargs)
        except Exception as exc:
            calls.append(type(exc).__name__)
            raise
        calls.append(len(reports))
        return reports

    monkeypatch.setattr(imports_together, "apply_writes", counted)
    return calls


def test_results_between_registered_players_are_applied_as_one(
    db_url: str, together_calls: list[object]
) -> None:
    league = registered(db_url)
    posts = posts_of([("plain", n, n) for n in range(5)] + [("two", 1, 2)], DAY)
    reports, _ = queued_in_order(league, [functools.partial(post, league, p) for p in posts])
    assert together_calls == [6]  # the six writes, as one
    assert [r.added for r in reports] == [1, 1, 1, 1, 1, 2]
    # each its own batch and kept answer; in the journal, the run of the six imports
    run = league.journal()[0]
    assert (run.user, run.changes, run.games, run.detail["added"]) == ("server", 6, 7, 7)
    assert all(league.posted_answer(p.digest) for p in posts)
    # Each answer says what its own games did: Bob's next game starts where his last ended.
    bob = [c for r in reports for c in r.rating_changes if c.key.player == "Bob"]
    assert len(bob) == 4 and all(a.after == b.before for a, b in itertools.pairwise(bob))
    assert_is_a_fresh_replay(league)


def test_a_retry_among_queued_writes_gets_its_kept_answer(
    db_url: str, together_calls: list[object]
) -> None:
    league = registered(db_url)
    first, second = posts_of([("plain", 0, 0), ("plain", 2, 1)], DAY)
    post(league, first)
    reports, _ = queued_in_order(
        league, [lambda: post(league, second), lambda: post(league, first)]
    )
    assert together_calls == ["NotTogether"]  # tried together, then each alone
    assert (reports[0].added, reports[1].added, reports[1].unchanged) == (1, 0, 1)
    assert reports[1].already_imported is not None
    assert len(league.games()) == 11  # nine, then the two posts once each
    assert_is_a_fresh_replay(league)


def test_a_newcomer_among_queued_writes_goes_alone_between_the_others(
    db_url: str, together_calls: list[object]
) -> None:
    league = registered(db_url)
    posts = posts_of(
        [("plain", 0, 0), ("reversed", 1, 1), ("newcomer", 2, 2), ("plain", 3, 3), ("two", 4, 4)],
        DAY,
    )
    reports, _ = queued_in_order(league, [functools.partial(post, league, p) for p in posts])
    # all five tried, the first two together, the newcomer's alone, the last two together
    assert together_calls == ["NotTogether", 2, 2]
    assert [r.added for r in reports] == [1, 1, 1, 1, 2]
    assert reports[2].new_players == ["Newcomer 2"]
    assert [g.id for g in league.games()][-6:] == ["p0", "p1", "p2", "p3", "p4", "q4"]
    assert_is_a_fresh_replay(league)


class Refused(Exception):
    """What a guard raises: the write's token is no longer its officer's (a stand-in)."""


def refuse(conn: Any) -> None:
    conn.exec_driver_sql("SELECT 1")  # it reads in the write's transaction, as the API's does
    raise Refused


def test_a_write_its_guard_refuses_stores_nothing_among_queued_writes(
    db_url: str, together_calls: list[object]
) -> None:
    """League.import_games(guard=...): the API checks a known token in the write's own
    transaction. Queued with others, the refused write is applied alone and stores nothing; the
    others go together around it, each with its answer (docs/web.md)."""
    league = registered(db_url)
    posts = posts_of([("plain", n, n) for n in range(4)], DAY)

    def guarded(p: Post, guard: Callable[[Any], None] | None) -> ImportReport:
        return league.import_games(
            p.games, source="api", user="server", content_hash=p.digest, guard=guard
        )

    guards = [None, refuse, None, None]
    outcomes, _ = queued_in_order(
        league, [functools.partial(guarded, p, g) for p, g in zip(posts, guards, strict=True)]
    )
    assert isinstance(outcomes[1], Refused)
    assert [o.added for o in outcomes if isinstance(o, ImportReport)] == [1, 1, 1]
    assert together_calls == [2]  # the first alone before it (refused before any was applied),
    # the refused one alone, the last two as one
    assert [g.id for g in league.games()][-3:] == ["p0", "p2", "p3"]
    assert league.posted_answer(posts[1].digest) is None
    assert [(e.action, e.changes) for e in league.journal()] == [
        ("import", 3),  # the run of the three imports made
        ("import", 1),
        ("create", 1),
    ]
    assert_is_a_fresh_replay(league)
