"""``eloleague verify`` and ``eloleague recompute`` as an officer runs them (the real command, in
a subprocess): status 0 and one sentence when the league agrees with a full replay, status 1 and
each difference where it is when not, in English and in French; the repair, then the journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from eloleague.league import League
from tests.conftest import REPLAY, run_cli

NNBSP = "\u202f"  # French typography: before « : » and inside « »


def _league(tmp_path: Path) -> tuple[Path, League]:
    path = tmp_path / "club.db"
    league = League.create(str(path), "Club", "adlg")
    league.import_file(REPLAY / "adlg.jsonl")
    return path, league


def test_a_league_that_agrees_says_so_and_exits_0(tmp_path: Path) -> None:
    path, league = _league(tmp_path)
    games, entries = len(league.games()), len(league.ledger())
    pools = len(league.current_pools())
    done = run_cli("verify", "--db", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        'the stored ratings of league "Club" are those of a full replay of its games: '
        f"{games} games, {entries} entries of the history, {pools} ratings compared\n"
    )
    french = run_cli("--lang", "fr", "verify", "--reference", "--db", str(path))
    assert french.returncode == 0, french.stderr
    assert french.stdout.startswith(
        f"les cotes enregistrées de la ligue «{NNBSP}Club{NNBSP}» sont celles d’un rejeu complet"
    )
    assert f"{games} parties, {entries} lignes d’historique, {pools} cotes comparées" in (
        french.stdout
    )


def test_a_damaged_league_is_shown_where_it_differs_then_repaired(tmp_path: Path) -> None:
    path, league = _league(tmp_path)
    entry = league.ledger()[3]
    with sqlite3.connect(path) as conn:  # a hand edit of the database
        conn.execute("UPDATE ledger SET delta = delta + 1 WHERE seq = 3")
    done = run_cli("verify", "--db", str(path))
    assert done.returncode == 1, done.stderr
    assert "1 entry of the history differs" in done.stdout
    assert f"delta: {entry.delta + 1:g} stored, {entry.delta:g} replayed" in done.stdout
    assert entry.key.player in done.stdout and entry.game in done.stdout
    assert done.stdout.endswith("to rewrite them from the games: eloleague recompute\n")

    french = run_cli("--lang", "fr", "verify", "--db", str(path))
    assert french.returncode == 1
    assert "1 ligne de l’historique diffère" in french.stdout
    plus = f"{entry.delta + 1:g}".replace(".", ",")
    assert f"variation{NNBSP}: {plus} enregistré" in french.stdout

    fixed = run_cli("recompute", "--db", str(path), env={"ELOLEAGUE_USER": "Claire"})
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stdout == 'league "Club" recomputed from its games: 0 ratings changed\n'
    assert run_cli("verify", "--db", str(path)).returncode == 0
    log = run_cli("log", "-n", "1", "--db", str(path))
    assert "every rating recomputed from the games" in log.stdout and "Claire" in log.stdout


def test_a_wrong_checkpoint_is_named_by_its_date(tmp_path: Path) -> None:
    path, _ = _league(tmp_path)
    with sqlite3.connect(path) as conn:
        ((day,),) = conn.execute("SELECT max(date) FROM checkpoints")
        conn.execute(
            "UPDATE checkpoints SET games_before = games_before - 1 WHERE date = ?", (day,)
        )
    done = run_cli("--lang", "fr", "verify", "--db", str(path))
    assert done.returncode == 1
    assert f"les états enregistrés d’où partent les recalculs diffèrent{NNBSP}: {day}" in (
        done.stdout
    )
