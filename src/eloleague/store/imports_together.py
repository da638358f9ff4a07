"""Imports of several writes applied as one (docs/league.md, "Live results").

Game servers post each result as its game ends, from many connections at once; the writes that
queue for a league's lock meanwhile share one transaction (:mod:`eloleague.store.group_commit`).
Applied one after the other, each would still make its own reads and statements: its names, its
stored ids, the tail, its players' pools, its ledger rows, its pools' rows, the tail again.
:func:`apply_writes` applies them together: the reads once, each write's games stored under its
own import batch, each write rated from the state the one before it left
(:func:`~eloleague.store.live.append_writes`), the derived tables written once. Each write gets
the report it would have got alone, and the league ends as it would have.

Only the common case is taken: every game new (no retry of a stored post, no game already
stored, no id or content twice among the writes), every player registered, per-game updates,
each write's games appended after the one before it, on the same day. Anything else raises
:class:`~eloleague.store.group_commit.NotTogether` before anything is written (on PostgreSQL an
id drawn is not given back), naming the first write that cannot join those before it: the caller
undoes what was done (a savepoint), applies the writes before it together, that one alone, and
the rest the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection

from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet
from eloleague.store import live
from eloleague.store import tail as live_tail
from eloleague.store.bulk import drop_ahead, hold_for_commit, read_ahead, run, run_together
from eloleague.store.games import LAST_SEQ, NewGame, insert_games, seq_after
from eloleague.store.group_commit import NotTogether
from eloleague.store.imports import (
    Plan,
    appended_outcome,
    import_report,
    new_batch,
    plan,
    posted_at,
    posted_read,
    reads_ahead,
    resolve_players,
    wanted_names,
)
from eloleague.store.reports import ImportReport

T = TypeVar("T")


@dataclass(frozen=True)
class Post:
    """One write's import: its games (checked against the rules), where they come from, the
    digest of its request (its retries are recognised by it), its user."""

    records: list[GameRecord]
    source: str
    digest: str | None
    user: str | None


def reads(
    conn: Connection, league_id: int, posts: Sequence[Post]
) -> list[tuple[str, Sequence[Any]]]:
    """The reads :func:`apply_writes` begins with (PostgreSQL; none elsewhere), for a caller to
    make in a round trip of its own before (:func:`~eloleague.store.bulk.read_ahead`): the
    posts' names, stored ids, tail and last arrival number, and which of the posts were stored
    already."""
    records = [g for post in posts for g in post.records]
    found = reads_ahead(conn, league_id, records, None, early=False)
    if found:  # each a read of one row (joined, bulk.one_row): a stored digest's is found by key
        found += [posted_read(league_id, p.digest) for p in posts if p.digest is not None]
        found += _early_reads(conn, league_id, posts)
    return found


def _early_reads(
    conn: Connection, league_id: int, posts: Sequence[Post]
) -> list[tuple[str, tuple[Any, ...]]]:
    """The reads that let the posts' writes all go with the commit (:class:`~eloleague.store.
    live.Early`: row ids for their games and a batch each, their players' pools)."""
    records = [g for post in posts for g in post.records]
    return live.early_reads(conn, league_id, records, wanted_names(records), batches=len(posts))


def apply_writes(
    conn: Connection, league_id: int, rules: RuleSet, posts: Sequence[Post]
) -> list[ImportReport]:
    """Import ``posts`` in the caller's transaction as if each were imported (:func:`~eloleague.
    store.imports.apply`) right after the one before it; their reports, in order. Raises
    :class:`NotTogether` (the first post that cannot join those before it, ``None`` when none
    can) when they are not the common case the module describes."""
    if rules.updates != "per_game" or not live.appends(rules):
        raise NotTogether  # none can
    records = [g for post in posts for g in post.records]
    owner = [n for n, post in enumerate(posts) for _ in post.records]  # each game's post
    _first_of(
        len(p.records) >= live.FAST_FROM  # the compiled engine's: alone
        or any(q.identified for g in p.records for q in g.participants)  # its own registrations
        for p in posts
    )
    # A post twice, a game twice: alone, the later ones find them stored.
    _first_of(_seen_before([[p.digest] if p.digest is not None else [] for p in posts]))
    _first_of(_seen_before([[g.id for g in p.records if g.id is not None] for p in posts]))
    with read_ahead(conn, reads(conn, league_id, posts)):
        # a retry of a stored post gets the answer kept for it, alone
        _first_of(
            p.digest is not None and posted_at(conn, league_id, p.digest) is not None for p in posts
        )
        # Each post reports the players it registers, and their look-alikes: alone.
        found = resolve_players(conn, league_id, records, posts[0].source, register=False)
        unknown = set(found.new_names)
        _first_of(any(q.name in unknown for g in p.records for q in g.participants) for p in posts)
        todo = plan(conn, league_id, found.records, found.ids, update=False)
        new = {id(g): h for g, h in todo.new}  # the others are stored already, or conflict
        _first_of((id(g) not in new for g in found.records), owner)
        # The same game without id in two posts: the later finds it stored.
        by_post: list[list[str]] = [[] for _ in posts]
        for g, n in zip(found.records, owner, strict=True):
            if g.id is None:
                by_post[n].append(new[id(g)])
        _first_of(_seen_before(by_post))
        end = live_tail.from_rows(run(conn, live_tail.READ, (league_id,)))
        seq = seq_after(run(conn, LAST_SEQ, (league_id,)))
        early = live.early(conn, _early_reads(conn, league_id, posts))  # read ahead, if at all
    turns = _by_post(found.records, posts)  # each post's games, their players resolved
    late = live.out_of_turn(conn, league_id, rules, end, turns)
    if end is None or late is not None:  # no tail: the first post is alone
        raise NotTogether(late)

    written: list[tuple[Plan, list[NewGame]]] = []
    for games in turns:  # each post its batch; the games together
        own = Plan(new=[(g, new[id(g)]) for g in games])
        written.append((own, [NewGame(g, seq + n, h) for n, (g, h) in enumerate(own.new)]))
        seq += len(own.new)
    inserted = [g for _, to_insert in written for g in to_insert]
    if early is not None:  # PostgreSQL: ids reserved, pools read: every write with the commit
        hold_for_commit(conn)
        batch_ids = early.batch_ids
        for post, (own, _), batch_id in zip(posts, written, batch_ids, strict=True):
            run(
                conn,
                *new_batch(conn, league_id, post.source, post.digest, post.user, own, batch_id),
            )
        batches = [
            batch_id for (own, _), batch_id in zip(written, batch_ids, strict=True) for _ in own.new
        ]
        stored = insert_games(conn, league_id, inserted, found.ids, batches, row_ids=early.game_ids)
        games_of = _by_post(stored, posts)  # every game is new: as many as each post's
        appended = live.append_writes(conn, league_id, rules, end, games_of, found.ids, early)
    else:
        recorded = run_together(  # PostgreSQL: in one round trip
            conn,
            [
                new_batch(conn, league_id, post.source, post.digest, post.user, own)
                for post, (own, _) in zip(posts, written, strict=True)
            ],
        )
        batches = [
            batch_id
            for ((batch_id,),), (own, _) in zip(recorded, written, strict=True)
            for _ in own.new
        ]
        pools = live.pools_ahead(conn, league_id, found.records, found.ids)  # with the games
        try:
            stored = insert_games(conn, league_id, inserted, found.ids, batches, along=pools)
            games_of = _by_post(stored, posts)  # every game is new: as many as each post's
            appended = live.append_writes(conn, league_id, rules, end, games_of, found.ids)
        finally:
            drop_ahead(conn)  # the pools, had the append not read them
    return [  # no post registered a player, none was stored before (see above)
        import_report(
            post.source,
            False,
            own,
            [],
            [],
            None,
            *appended_outcome(done, to_insert, rules.start_rating),
        )
        for post, (own, to_insert), done in zip(posts, written, appended, strict=True)
    ]


def _by_post(items: Sequence[T], posts: Sequence[Post]) -> list[Sequence[T]]:
    """``items``, one for each game of the posts in turn, cut into each post's."""
    out: list[Sequence[T]] = []
    at = 0
    for post in posts:
        out.append(items[at : at + len(post.records)])
        at += len(post.records)
    return out


def _first_of(flags: Iterable[bool], owner: Sequence[int] | None = None) -> None:
    """Raise :class:`NotTogether` for the first post flagged (``owner``: the post of each
    flag, when the flags are the games')."""
    for n, flag in enumerate(flags):
        if flag:
            raise NotTogether(n if owner is None else owner[n])


def _seen_before(keys: Sequence[Sequence[str]]) -> list[bool]:
    """For each post, whether one of its keys (its request's digest, its games' ids) was in an
    earlier post."""
    seen: set[str] = set()
    out = []
    for own in keys:
        out.append(any(k in seen for k in own))
        seen.update(own)
    return out
