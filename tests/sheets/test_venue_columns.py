"""A rule set with a home advantage and formulas that read the margin gets a venue column and
score columns in the referee's sheet; a filled sheet gives the JSON Lines games (docs/sheets.md)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.engine import replay
from eloleague.io.sheets import parse_workbook
from eloleague.io.sheets.layout import layout_for
from eloleague.records import GameRecord, Participant, Side
from eloleague.rules import load_rules
from tests.sheets.fill import filled_workbook, header_columns, to_bytes, words

RULES = load_rules(Path(__file__).parent.parent / "data" / "rules" / "world-football.toml")
VENUE = {"fr": ("A reçoit", "B reçoit", "Terrain neutre"), "en": ("A at home", "B at home", "Neutral site")}  # fmt: skip


def games() -> list[GameRecord]:
    def g(
        day: int, a: str, pa: int, b: str, pb: int, home: int | None, neutral: bool
    ) -> GameRecord:
        oa, ob = ("win", "loss") if pa > pb else ("loss", "win") if pa < pb else ("draw", "draw")
        return GameRecord(
            date=dt.date(2024, 5, day),
            sides=(Side((Participant(a),), oa, float(pa)), Side((Participant(b),), ob, float(pb))),
            round=1,
            home=home,
            neutral=neutral,
        )

    return [
        g(1, "Brazil", 3, "Croatia", 1, 0, False),
        g(2, "Chile", 0, "Mexico", 2, 1, False),
        g(3, "Brazil", 1, "Mexico", 1, None, True),
        g(4, "Croatia", 2, "Chile", 0, None, False),
    ]


def test_layout_has_the_score_and_venue_columns() -> None:
    keys = [c.key for c in layout_for(RULES).columns]
    assert keys[-3:] == ["points_a", "points_b", "venue"]
    assert "venue" not in [c.key for c in layout_for(load_rules("bataille-empire")).columns]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_filled_sheet_gives_the_games_with_their_venue(lang: str) -> None:
    played = games()
    book = filled_workbook(RULES, played, lang)
    ws = book[words(lang)["results"]]
    header, cols = header_columns(ws)
    score = ("Score de A", "Score de B") if lang == "fr" else ("Score of A", "Score of B")
    venue_col = cols["Lieu" if lang == "fr" else "Venue"]
    for i, game in enumerate(played):
        row = header + 1 + i
        ws.cell(row=row, column=cols[score[0]], value=game.sides[0].score)
        ws.cell(row=row, column=cols[score[1]], value=game.sides[1].score)
        if game.neutral:
            ws.cell(row=row, column=venue_col, value=VENUE[lang][2])
        elif game.home is not None:
            ws.cell(row=row, column=venue_col, value=VENUE[lang][game.home])
    read, problems, _ = parse_workbook(to_bytes(book), RULES)
    assert problems == []
    assert [(g.home, g.neutral) for g in read] == [(g.home, g.neutral) for g in played]
    assert [[s.score for s in g.sides] for g in read] == [
        [s.score for s in g.sides] for g in played
    ]
    assert replay(RULES, read).pools == replay(RULES, played).pools


def test_an_unknown_venue_or_a_missing_score_is_located() -> None:
    played = games()[:1]
    book = filled_workbook(RULES, played, "en")
    ws = book["Results"]
    header, cols = header_columns(ws)
    ws.cell(row=header + 1, column=cols["Score of A"], value=3)
    ws.cell(row=header + 1, column=cols["Venue"], value="on the moon")
    _, problems, _ = parse_workbook(to_bytes(book), RULES)
    messages = [str(p) for p in problems]
    assert len(messages) == 2
    assert "the score of side B is empty (the rule set uses the margin)" in messages[0]
    assert (
        "unknown venue «\u202fon the moon\u202f» (choose one of: A at home, B at home, Neutral site"
        in messages[1]
    )
