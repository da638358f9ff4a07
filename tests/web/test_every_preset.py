"""Every page and its JSON twin answer for a league of each preset (the bundled demo samples):
duel, team and personal terms, free-for-all by role; per-game and per-event updates."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from eloleague.demo import sample_files
from eloleague.league import League
from eloleague.rules import preset_names
from eloleague.web import Settings, create_app


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    for name, path in sample_files().items():
        League.create(str(db), name, name).import_file(path)
    return TestClient(
        create_app(Settings(db=str(db), secret="d" * 40)), raise_server_exceptions=False
    )


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_of_every_preset(demo: TestClient, preset: str, lang: str) -> None:
    league = quote(preset, safe="")
    ranking = demo.get(f"/api/v1/leagues/{league}/ranking", params={"lang": lang}).json()
    assert ranking["rows"], preset
    top = ranking["rows"][0]["player"]
    player = demo.get(f"/api/v1/leagues/{league}/players/{quote(top, safe='')}").json()
    game = next(c["game"] for c in player["changes"] if c["game"])
    events = demo.get(f"/api/v1/leagues/{league}/events").json()["events"]
    paths = [
        f"/leagues/{league}",
        f"/leagues/{league}?page=2&per_page=5",
        f"/leagues/{league}/players/{quote(top, safe='')}",
        f"/leagues/{league}/games/{quote(game, safe='')}",
        f"/leagues/{league}/events",
        f"/leagues/{league}/rules",
        f"/leagues/{league}/titles",
    ]
    if events:
        paths.append(f"/leagues/{league}/events/{quote(events[0]['name'], safe='')}")
    for path in paths:
        for prefix in ("", "/api/v1"):
            got = demo.get(prefix + path, params={"lang": lang})
            assert got.status_code == 200, (prefix + path, got.text[:500])
            if not prefix:
                assert f'<html lang="{lang}">' in got.text
    svg = demo.get(f"/leagues/{league}/players/{quote(top, safe='')}").text
    # the chart is drawn wide and narrow; with many pools it shows one line (the busiest)
    shown_games = sum(1 for c in player["changes"] if c["game"])
    if len(player["history"]) > 3:
        shown_games = max(sum(1 for p in s["points"] if p["game"]) for s in player["history"])
    assert svg.count('class="game-point"') == 2 * shown_games
