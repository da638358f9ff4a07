"""A league's ranking equals `eloleague rate` on the same games (issue 3, "how it will be checked")."""

from __future__ import annotations

from pathlib import Path

import pytest

from eloleague.league import League
from tests.conftest import PRESETS
from tests.store.helpers import as_of, ranking_csv, rate_csv, replay_file


@pytest.mark.parametrize("preset", PRESETS)
def test_imported_stream_ranks_as_rate_does(db_url: str, preset: str) -> None:
    league = League.create(db_url, preset, preset)
    report = league.import_file(replay_file(preset))
    games = len(replay_file(preset).read_text("utf-8").splitlines())
    assert (report.added, report.unchanged, report.replaced) == (games, 0, 0)

    when = as_of(preset)
    assert ranking_csv(league, when) == rate_csv(replay_file(preset), preset, when)
    # Without --as-of the stored ratings are those of `rate` without --as-of.
    assert ranking_csv(league) == rate_csv(replay_file(preset), preset)

    from eloleague.batch import rate_file

    assert league.ledger() == list(rate_file(replay_file(preset), preset).replay.ledger)


def test_reopened_league_keeps_rules_and_ratings(db_url: str) -> None:
    League.create(db_url, "club", "adlg").import_file(replay_file("adlg"))
    again = League.open(db_url)
    assert again.name == "club"
    assert again.rules.name == "adlg" or again.rules.method == "duel"
    assert ranking_csv(again) == rate_csv(replay_file("adlg"), "adlg")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_ledger_written_from_the_fast_engine_equals_the_reference(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, preset: str
) -> None:
    """The store writes the fast path's ledger from its columns: entry for entry the same."""
    from eloleague.engine import replay
    from eloleague.io.games import read_games
    from eloleague.rules import load_rules
    from eloleague.store import derived

    monkeypatch.setenv("ELOLEAGUE_FAST_MIN_GAMES", "1")  # every replay through the fast path
    league = League.create(str(tmp_path / "fast.db"), preset, preset)
    league.import_file(replay_file(preset))
    stored = league.ledger()

    rules = load_rules(preset)
    games = read_games(replay_file(preset), rules)
    fast = replay(rules, games).ledger
    if type(fast).__name__ == "ColumnarLedger":  # the store reads its columns (no fallback)
        pks: dict[str, int] = {}
        for n, g in enumerate(games):
            assert g.id is not None, g  # the replay files give each game its id
            pks[g.id] = n
        ids = {p.name: n for n, p in enumerate({p for g in games for p in g.participants})}
        assert derived._ledger_columns(0, fast, pks, ids, str) is not None

    monkeypatch.setenv("ELOLEAGUE_ENGINE", "reference")
    assert stored == list(replay(rules, games).ledger)
