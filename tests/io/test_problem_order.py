"""A file's problems come in the order of its lines, whoever found them: the reader (a date that
is not a date) or the rules (an unknown result). A referee fixes a file from its top. A game whose
date is wrong is checked against the rules too: all of its problems come at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eloleague.errors import InputError
from eloleague.io import read_games
from eloleague.rules import load_rules

HEADER = "game,date,event,round,mode,rated,side,player,role,outcome,score\n"


def _game(n: int, date: str, outcome: str) -> str:
    return json.dumps(
        {
            "id": f"g{n}",
            "date": date,
            "sides": [
                {"players": [f"A{n}"], "outcome": outcome},
                {"players": [f"B{n}"], "outcome": "defeat"},
            ],
        }
    )


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_file_s_problems_come_in_the_order_of_its_lines(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games{suffix}"
    if suffix == ".jsonl":  # an unknown result, a date that is not one, an unknown result
        lines = [
            _game(1, "2025-03-01", "triumph"),
            _game(2, "2025-13-01", "defeat"),
            _game(3, "2025-03-01", "triumph"),
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        expected = ["line 1", "line 2", "line 2", "line 3"]  # line 2: its date, two defeats
    else:
        path.write_text(
            HEADER
            + "g1,2025-03-01,,,,,1,A1,,triumph,\n"
            + "g1,2025-03-01,,,,,2,B1,,defeat,\n"
            + "g2,2025-13-01,,,,,1,A2,,defeat,\n"
            + "g3,2025-03-01,,,,,1,A3,,triumph,\n"
            + "g3,2025-03-01,,,,,2,B3,,defeat,\n",
            encoding="utf-8",
        )
        expected = ["line 2", "line 4", "line 4", "line 5"]  # line 4: its date, one side
    with pytest.raises(InputError) as refused:
        read_games(path, load_rules("bataille-empire"))
    # "line 4, column B (date)": the line only
    found = [str(p.location).split(",")[0] for p in refused.value.problems]
    assert found == expected, refused.value.render()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_game_with_a_wrong_date_is_checked_against_the_rules_too(
    tmp_path: Path, suffix: str
) -> None:
    """A referee learns of a game's unknown result with its wrong or missing date, not once the
    date is fixed; a game whose date is its only problem gets no other (the date it is checked
    with is no one's)."""
    path = tmp_path / f"games{suffix}"
    if suffix == ".jsonl":
        no_date = json.loads(_game(3, "", "decisive_victory"))
        del no_date["date"]
        lines = [
            _game(1, "2025-13-01", "triumph"),
            _game(2, "hier", "decisive_victory"),
            json.dumps(no_date),
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        where = ["line 1", "line 1", "line 2", "line 3"]
    else:
        path.write_text(
            HEADER
            + "g1,2025-13-01,,,,,1,A1,,triumph,\n"
            + "g1,2025-13-01,,,,,2,B1,,defeat,\n"
            + "g2,hier,,,,,1,A2,,draw,\n"
            + "g2,hier,,,,,2,B2,,draw,\n"
            + "g3,,,,,,1,A3,,decisive_victory,\n"
            + "g3,,,,,,2,B3,,defeat,\n",
            encoding="utf-8",
        )
        where = ["line 2", "line 2", "line 4", "line 6"]
    with pytest.raises(InputError) as refused:
        read_games(path, load_rules("bataille-empire"))
    problems = refused.value.problems
    assert [str(p.location).split(",")[0] for p in problems] == where, refused.value.render()
    messages = [str(p.message) for p in problems]
    assert "not a date" in messages[0] and 'unknown outcome "triumph"' in messages[1]
    assert "not a date" in messages[2]
    assert "date" in messages[3] and ("missing" in messages[3] or "empty" in messages[3])
