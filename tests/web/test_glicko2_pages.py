"""A Glicko-2 league on the site and in the API: deviations and volatilities beside the ratings,
in both languages; Elo leagues show no such columns."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app

RULES = Path(__file__).parents[1] / "data" / "rules" / "glicko2.toml"
NAME = "Club Glicko"


def _league(tmp_path: Path) -> tuple[League, TestClient]:
    rng = random.Random(4)
    lines = []
    for i in range(60):
        a, b = rng.sample(["Ana", "Ben", "Chloé", "David", "Eve"], 2)
        day = dt.date(2024, 1, 1) + dt.timedelta(days=i // 3)
        sides = [{"players": [a], "outcome": "win"}, {"players": [b], "outcome": "loss"}]
        lines.append(json.dumps({"id": f"g{i}", "date": day.isoformat(), "sides": sides}))
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "league.db"
    league = League.create(str(db), NAME, RULES)
    league.import_file(games)
    app = create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32))
    return league, TestClient(app, raise_server_exceptions=False)


def test_the_ranking_shows_deviations_in_the_api_and_the_page(tmp_path: Path) -> None:
    league, client = _league(tmp_path)
    want = {r.player: r for r in league.replay_result().standings()}
    got = client.get(f"/api/v1/leagues/{NAME}")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["shown_fields"] == ["deviation", "volatility"]
    for row in body["rows"]:
        deviation, volatility = want[row["player"]].shown
        assert row["deviation"] == round(deviation, 6)
        assert row["volatility"] == round(volatility, 6)
        assert 0 < row["deviation"] < 350
    page = client.get(f"/leagues/{NAME}", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert (
        '<th class="n wide-only">écart type</th><th class="n wide-only">volatilité</th>'
        in page.text
    )
    first = body["rows"][0]
    assert f'<td class="n wide-only">{first["deviation"]}</td>' in page.text
    english = client.get(f"/leagues/{NAME}", headers={"Accept-Language": "en"})
    assert (
        '<th class="n wide-only">deviation</th><th class="n wide-only">volatility</th>'
        in english.text
    )
    ana = client.get(f"/leagues/{NAME}/players/Ana", headers={"Accept-Language": "fr"})
    assert ana.status_code == 200
    deviation = round(want["Ana"].shown[0], 6)
    assert f"<dt>écart type</dt><dd>{deviation}</dd>" in ana.text  # her one pool's facts
    history = client.get(f"/api/v1/leagues/{NAME}/players/Ana").json()
    assert history["pools"][0]["deviation"] == deviation
    assert all("deviation" in change for change in history["changes"])
    rules = client.get(f"/leagues/{NAME}/rules", headers={"Accept-Language": "en"})
    assert rules.status_code == 200 and "Glicko-2" in rules.text
