"""Warnings for new names that look like a registered player's (docs/league.md, "Imports"),
when the registered names are kept by the process between writes: players registered by an
earlier write are compared with, a refused write leaves no name behind (even one whose id SQLite
hands out again), and a rename made by another process is seen. On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from eloleague.errors import InputError
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from tests.store.test_group_commit import queued_behind_the_lock

DAY = dt.date(2025, 3, 1)


def duel(n: int, a: Participant | str, b: Participant | str, won: bool = False) -> GameRecord:
    """Game ``g<n>``: a draw, or a decisive victory of ``a``."""

    def side(p: Participant | str, outcome: str) -> Side:
        return Side((p if isinstance(p, Participant) else Participant(p),), outcome)

    if won:
        return GameRecord(DAY, (side(a, "decisive_victory"), side(b, "defeat")), id=f"g{n}")
    return GameRecord(DAY, (side(a, "draw"), side(b, "draw")), id=f"g{n}")


def warned(league: League, game: GameRecord) -> dict[str, str]:
    report = league.import_games([game], source="api")
    return {w.name: w.likely for w in report.name_warnings}


def refused_with_a_newcomer(n: int) -> list[GameRecord]:
    """A post registering Zoé Martin (by her licence, before the names are compared) and
    naming a newcomer, refused whole because its other game contradicts stored game g0."""
    zoe = Participant("Zoé Martin", federation_id="F-1")
    return [duel(n, zoe, "Nouveau Venu"), duel(0, "Ana Lopez", "Bruno Petit", won=True)]


def test_a_name_registered_by_an_earlier_post_is_compared_with(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    assert warned(league, duel(0, "Ana Lopez", "Bruno Petit")) == {}
    assert warned(league, duel(1, "Ana Lopez", "Chloé Roux")) == {}  # the names kept
    assert warned(league, duel(2, "Bruno Peti", "Chloe Roux")) == {
        "Bruno Peti": "Bruno Petit",
        "Chloe Roux": "Chloé Roux",  # registered by the write just before
    }
    assert warned(league, duel(3, "Bruno Petit", "chloe roux")) == {"chloe roux": "Chloé Roux"}


def test_a_refused_post_leaves_no_name_behind(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([duel(0, "Ana Lopez", "Bruno Petit")], source="api")
    with pytest.raises(InputError):
        league.import_games(refused_with_a_newcomer(1), source="api")
    # SQLite gives Zoé's id to the next player registered: her name must not come back with it
    assert warned(league, duel(2, "Alice Durand", "Ana Lopez")) == {}
    assert warned(league, duel(3, "Zoe Martin", "Alice Durant")) == {"Alice Durant": "Alice Durand"}
    assert "Zoé Martin" not in league.players()


def test_a_write_of_a_group_undone_alone_leaves_no_name_behind(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([duel(0, "Ana Lopez", "Bruno Petit")], source="api")
    writes: list[Callable[[], object]] = [
        lambda: league.import_games([duel(1, "Alice Durand", "Ana Lopez")], source="api"),
        lambda: league.import_games(refused_with_a_newcomer(2), source="api"),
    ]
    outcomes = queued_behind_the_lock(league, writes)
    assert getattr(outcomes[0], "added", None) == 1
    assert isinstance(outcomes[1], InputError)
    assert warned(league, duel(3, "Carl Dupuis", "Ana Lopez")) == {}  # may take Zoé's id
    assert warned(league, duel(4, "Zoe Martin", "Carl Dupui")) == {"Carl Dupui": "Carl Dupuis"}


def test_a_rename_made_by_another_process_is_seen(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([duel(0, "Ana Lopez", "Bruno Petit")], source="api")
    assert warned(league, duel(1, "Ana Lopez", "Chloé Roux")) == {}  # the names kept
    rename = [sys.executable, "-m", "eloleague", "player", "rename", "Bruno Petit", "Bruno Martin"]
    done = subprocess.run(
        [*rename, "--db", db_url, "--league", "live"],
        capture_output=True,
        text=True,
        env={**os.environ, "ELOLEAGUE_LANG": "en"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert warned(league, duel(2, "Bruno Petti", "Bruno Martn")) == {"Bruno Martn": "Bruno Martin"}


def test_a_dry_run_leaves_no_name_behind(db_url: str) -> None:
    league = League.create(db_url, "live", "bataille-empire")
    league.import_games([duel(0, "Ana Lopez", "Bruno Petit")], source="api")
    zoe = Participant("Zoé Martin", federation_id="F-1")
    report = league.import_games([duel(1, zoe, "Nouveau Venu")], source="api", dry_run=True)
    assert report.added == 1 and "Zoé Martin" not in league.players()
    assert warned(league, duel(2, "Alice Durand", "Ana Lopez")) == {}  # may take Zoé's id
    assert warned(league, duel(3, "Zoe Martin", "Alice Durant")) == {"Alice Durant": "Alice Durand"}
