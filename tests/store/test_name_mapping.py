"""A misspelt name is mapped to the registered player before anything is stored; the spelling
becomes an alias, so the next sheet with it is recognised (docs/league.md, "Imports")."""

from __future__ import annotations

from pathlib import Path

import pytest

from eloleague.errors import InputError
from eloleague.league import League
from tests.store.helpers import assert_equals_full_replay, read_lines, replay_file, write_lines


def _game(n: int, a: str, b: str) -> dict[str, object]:
    return {
        "id": f"new-{n}",
        "date": "2026-01-10",
        "sides": [{"players": [a], "outcome": "victory"}, {"players": [b], "outcome": "defeat"}],
    }


def test_a_mapped_spelling_is_the_registered_player_now_and_later(
    db_url: str, tmp_path: Path
) -> None:
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(replay_file("adlg"))
    known = league.players()
    target, other = known[0], known[1]
    typo = target[:-1] + target[-1].swapcase() + "x"  # a spelling the league does not know
    path = write_lines(tmp_path / "sheet.jsonl", [_game(1, typo, other)])

    plain = league.import_file(path, dry_run=True)
    assert plain.new_players == [typo]
    mapped = league.import_file(path, dry_run=True, names={typo: target})
    assert mapped.new_players == [] and league.aliases() == {}  # a dry run stores nothing

    report = league.import_file(path, names={typo: target})
    assert report.added == 1 and report.new_players == []
    assert league.players() == known
    assert league.aliases() == {typo: target}
    assert league.explain("new-1").game.sides[0].players[0].name == target
    # The next file that spells it so goes to the same player, without --map.
    later = write_lines(tmp_path / "later.jsonl", [_game(2, typo, other)])
    assert league.import_file(later).new_players == []
    assert_equals_full_replay(league)


def test_a_mapping_to_nobody_or_onto_another_player_is_refused_and_stores_nothing(
    db_url: str, tmp_path: Path
) -> None:
    league = League.create(db_url, "adlg", "adlg")
    lines = read_lines(replay_file("adlg"))[:50]
    league.import_file(write_lines(tmp_path / "start.jsonl", lines))
    a, b = league.players()[:2]
    path = write_lines(tmp_path / "sheet.jsonl", [_game(1, "Someone New", b)])
    with pytest.raises(InputError) as refused:
        league.import_file(path, names={"Someone New": "Nobody Here", a: b})
    text = refused.value.render("en")
    assert "--map Someone New=Nobody Here: no player named 'Nobody Here' to map to" in text
    assert f"--map {a}={b}: '{a}' is already another player" in text
    assert len(league.games()) == 50 and league.aliases() == {}
    # Mapped onto a player of the same game: the game is refused as any such game is.
    with pytest.raises(InputError, match="cannot face himself"):
        league.import_file(path, names={"Someone New": b})
