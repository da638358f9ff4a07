"""Reads sent ahead (store/bulk.py ``read_ahead``): on PostgreSQL an import's first reads travel in
one round trip, and each statement run later in the block gets the rows read ahead, once; what
the block does not read is dropped at its end. On SQLite nothing is read ahead."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import read_ahead, run
from eloleague.store.db import write
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)

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
    """The statements psycopg sends (a spy: each still runs)."""
    sent: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
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
    was stored, the namesakes, the names, the stored ids) reaches the server once. A read
    ahead that the import then asked again (its statement no longer the same) would be sent
    twice: a round trip more, not fewer."""
    league = _league(pg_server.new_database())
    sent = _count_statements(monkeypatch)
    report = league.import_games(
        [_duel("x9", Participant("P1"), Participant("P3"))], source="post", content_hash="h9"
    )
    assert report.added == 1
    firsts = (
        "FROM import_batches WHERE league_id = %s AND content_hash",
        "SELECT name, federation_id FROM players",
        "UNION ALL SELECT alias, player_id, 1 FROM player_aliases",
        "SELECT ext_id, id, seq, date, content_hash FROM games",
    )
    assert [sum(first in s for s in sent) for first in firsts] == [1, 1, 1, 1]
