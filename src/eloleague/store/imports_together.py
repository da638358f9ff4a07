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
id drawn is not given back); the caller undoes what was done (a savepoint) and applies each write
alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet
from eloleague.store import live
from eloleague.store import tail as live_tail
from eloleague.store.bulk import one_of, read_ahead, run
from eloleague.store.games import LAST_SEQ, NewGame, insert_games, seq_after
from eloleague.store.group_commit import NotTogether
from eloleague.store.imports import (
    Plan,
    appended_report,
    new_batch,
    plan,
    reads_ahead,
    resolve_players,
)
from eloleague.store.reports import ImportReport


@dataclass(frozen=True)
class Post:
    """One write's import: its games (checked against the rules), where they come from, the
    digest of its request (its retries are recognised by it), its user."""

    records: list[GameRecord]
    source: str
    digest: str | None
    user: str | None


def apply_writes(
    conn: Connection, league_id: int, rules: RuleSet, posts: Sequence[Post]
) -> list[ImportReport]:
    """Import ``posts`` in the caller's transaction as if each were imported (:func:`~eloleague.
    store.imports.apply`) right after the one before it; their reports, in order. Raises
    :class:`NotTogether` when they are not the common case the module describes."""
    records = [g for post in posts for g in post.records]
    if rules.updates != "per_game" or any(len(p.records) >= live.FAST_FROM for p in posts):
        raise NotTogether
    if any(p.identified for g in records for p in g.participants):
        raise NotTogether  # found by id, or registered: what each post says of it is its own
    digests = [p.digest for p in posts if p.digest is not None]
    given = [g.id for g in records if g.id is not None]
    if len(set(digests)) < len(digests) or len(set(given)) < len(given):
        raise NotTogether  # a post twice, a game twice: alone, the later ones find them stored
    with read_ahead(conn, reads_ahead(conn, league_id, records, None)):
        if digests:  # a retry of a stored post gets the answer kept for it, alone
            listed, values = one_of(conn, digests)
            ((posted,),) = run(
                conn,
                f"SELECT count(*) FROM import_batches WHERE league_id = ? AND content_hash {listed}",
                (league_id, *values),
            )
            if posted:
                raise NotTogether
        # Each post reports the players it registers, and their look-alikes: alone.
        found = resolve_players(conn, league_id, records, posts[0].source, register=False)
        if found.new_names:
            raise NotTogether
        todo = plan(conn, league_id, found.records, found.ids, update=False)
        unnamed = [h for g, h in todo.new if g.id is None]
        if len(todo.new) < len(records) or len(set(unnamed)) < len(unnamed):
            raise NotTogether
        end = live_tail.from_rows(run(conn, live_tail.READ, (league_id,)))
        seq = seq_after(run(conn, LAST_SEQ, (league_id,)))
    at = 0
    turns = []
    for post in posts:  # each write's games, their players resolved
        turns.append(found.records[at : at + len(post.records)])
        at += len(post.records)
    if end is None or not live.appendable_in_turn(conn, league_id, rules, end, turns):
        raise NotTogether

    written: list[tuple[Plan, list[NewGame]]] = []
    batches: list[int] = []
    for post in posts:  # each write its batch (its games are written together, below)
        own = Plan(new=todo.new[: len(post.records)])
        del todo.new[: len(post.records)]
        ((batch_id,),) = run(
            conn, *new_batch(conn, league_id, post.source, post.digest, post.user, own)
        )
        written.append((own, [NewGame(g, seq + n, h) for n, (g, h) in enumerate(own.new)]))
        batches += [batch_id] * len(own.new)
        seq += len(own.new)
    games = [g for _, to_insert in written for g in to_insert]
    stored = insert_games(conn, league_id, games, found.ids, batches)
    at = 0
    by_write = []
    for _, to_insert in written:
        by_write.append(stored[at : at + len(to_insert)])
        at += len(to_insert)
    appended = live.append_writes(conn, league_id, rules, end, by_write, found.ids)
    return [  # no post registered a player, none was stored before (see above)
        appended_report(post.source, False, own, ([], [], None), done, to_insert, rules)
        for post, (own, to_insert), done in zip(posts, written, appended, strict=True)
    ]
