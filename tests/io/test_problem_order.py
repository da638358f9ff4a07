"""A file's problems come in the order of its lines, whoever found them: the reader (a date that
is not a date) or the rules (an unknown result). A referee fixes a file from its top."""

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
        expected = ["line 1", "line 2", "line 3"]
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
        expected = ["line 2", "line 4", "line 5"]
    with pytest.raises(InputError) as refused:
        read_games(path, load_rules("bataille-empire"))
    # "line 4, column B (date)": the line only
    found = [str(p.location).split(",")[0] for p in refused.value.problems]
    assert found == expected, refused.value.render()
