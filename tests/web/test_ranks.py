"""Ranks are ranks everywhere: players tied on rating share a rank (standard competition ranking,
1, 1, 1, 4) on the ranking page and API, the player page and API, the CLI ``ranking`` and
``player`` commands and the xlsx export; a player found by the search keeps her true rank; the
search ignores case and accents and finds former names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook
from typer.testing import CliRunner

from eloleague.cli import app
from eloleague.league import League
from eloleague.web import Settings, create_app
from tests.web.conftest import Site

NAME = "Tie Club"
GAMES = [
    ("Élodie Lefèvre", "Bruno"),
    ("Chloé", "David"),
    ("Eve", "Fanny"),
]
# three winners tied at the top, three losers tied behind them
WANT = {"Chloé": 1, "Eve": 1, "Élodie Lefèvre": 1, "Bruno": 4, "Daniel Dupont": 4, "Fanny": 4}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ties") / "ties.db"
    source = path.with_suffix(".jsonl")
    with source.open("w", encoding="utf-8") as out:
        for n, (winner, loser) in enumerate(GAMES):
            game = {
                "id": f"t{n}",
                "date": "2025-03-01",
                "event": "Open",
                "sides": [
                    {"players": [winner], "outcome": "decisive_victory"},
                    {"players": [loser], "outcome": "defeat"},
                ],
            }
            out.write(json.dumps(game, ensure_ascii=False) + "\n")
    league = League.create(str(path), NAME, "bataille-empire")
    league.import_file(source)
    league.rename_player("David", "Daniel Dupont")  # "David" stays as an alias
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> TestClient:
    return TestClient(create_app(Settings(db=str(db), secret="s" * 40)))


def test_api_ranking_shares_ranks(client: TestClient) -> None:
    rows = client.get(f"/api/v1/leagues/{NAME}").json()["rows"]
    assert {r["player"]: r["rank"] for r in rows} == WANT
    assert [r["rank"] for r in rows] == [1, 1, 1, 4, 4, 4]


def test_page_ranking_shows_shared_ranks(client: TestClient) -> None:
    html = client.get(f"/leagues/{NAME}", params={"lang": "en"}).text
    assert html.count('<td class="n rank">1</td>') == 3
    assert html.count('<td class="n rank">4</td>') == 3
    assert '<td class="n rank">2</td>' not in html


@pytest.mark.parametrize(
    ("query", "player", "rank"),
    [("elodie", "Élodie Lefèvre", 1), ("LEFEVRE", "Élodie Lefèvre", 1), ("fanny", "Fanny", 4)],
)
def test_search_ignores_case_and_accents_and_keeps_the_rank(
    client: TestClient, query: str, player: str, rank: int
) -> None:
    rows = client.get(f"/api/v1/leagues/{NAME}", params={"q": query}).json()["rows"]
    assert [(r["player"], r["rank"]) for r in rows] == [(player, rank)]


def test_search_finds_a_former_name(client: TestClient) -> None:
    rows = client.get(f"/api/v1/leagues/{NAME}", params={"q": "david"}).json()["rows"]
    assert [(r["player"], r["rank"]) for r in rows] == [("Daniel Dupont", 4)]


def test_player_page_and_api_show_the_rank(client: TestClient) -> None:
    data = client.get(f"/api/v1/leagues/{NAME}/players/Fanny").json()
    assert [(p["rank"], p["of"]) for p in data["pools"]] == [(4, 6)]
    html = client.get(f"/leagues/{NAME}/players/Fanny", params={"lang": "en"}).text
    assert "#4" in html and "of 6" in html


def test_cli_ranking_and_player_share_ranks(db: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"ELOLEAGUE_LANG": "en", "COLUMNS": "200"}
    got = runner.invoke(
        app, ["ranking", "--format", "json", "--db", str(db), "--league", NAME], env=env
    )
    assert got.exit_code == 0, got.output
    assert {r["player"]: r["rank"] for r in json.loads(got.output)} == WANT
    table = runner.invoke(app, ["ranking", "--format", "table", "--db", str(db)], env=env)
    cells = [[c.strip() for c in line.split("│")] for line in table.output.splitlines()]
    ranks = {c[2]: c[1] for c in cells if len(c) > 3}
    assert ranks == {name: str(rank) for name, rank in WANT.items()}, table.output
    player = runner.invoke(app, ["player", "Fanny", "--db", str(db)], env=env)
    assert player.exit_code == 0, player.output
    ratings = player.output.split("Last changes")[0]  # her pools: rank, rating, games, title
    rows = [[c.strip() for c in line.split("│")] for line in ratings.splitlines()]
    assert [c[1] for c in rows if len(c) > 3] == ["4"], player.output
    out = tmp_path / "ranking.xlsx"
    runner.invoke(app, ["ranking", "-o", str(out), "--db", str(db)], env=env)
    sheet = load_workbook(out).active
    assert sheet is not None
    ranks_xlsx = [sheet.cell(row=n, column=1).value for n in range(3, 9)]
    assert ranks_xlsx == [1, 1, 1, 4, 4, 4]


@pytest.mark.parametrize(
    ("league", "params"),
    [
        ("Bataille Empire", {}),
        ("Bataille Empire", {"active_since": "2022-06-01"}),
        ("Diplomatie", {"role": "*", "mode": "classic"}),
        ("Diplomatie", {"role": "", "mode": ""}),  # every row: modes and roles interleaved
        ("Diplomatie", {"role": "France"}),
    ],
)
def test_paged_ranks_equal_the_ranks_of_the_whole_ranking(
    read_client: TestClient, built_site: Site, league: str, params: dict[str, str]
) -> None:
    """Small pages cut through ties: each row keeps the rank it has in the whole ranking."""
    import datetime as dt

    from eloleague.engine.standings import competition_ranks

    db = built_site.db
    lg = League.open(str(db), league)
    since = params.get("active_since")
    rows = lg.ranking(
        mode=params.get("mode") or None,
        role=params.get("role") or None,
        active_since=dt.date.fromisoformat(since) if since else None,
    )
    want = [
        (r.player, r.mode, r.role, rank)
        for r, rank in zip(rows, competition_ranks(rows), strict=True)
    ]
    got = []
    page = 1
    while True:
        data = read_client.get(
            f"/api/v1/leagues/{league}", params={**params, "per_page": "7", "page": str(page)}
        ).json()
        got += [(r["player"], r["mode"], r["role"], r["rank"]) for r in data["rows"]]
        if page >= data["pages"]:
            break
        page += 1
    assert got == want


def test_the_search_sees_a_rename_at_once(db: Path, tmp_path: Path) -> None:
    import sqlite3

    copy = tmp_path / "copy.db"
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)  # the WAL included
    client = TestClient(create_app(Settings(db=str(copy), secret="s" * 40)))
    assert client.get(f"/api/v1/leagues/{NAME}", params={"q": "xavier"}).json()["rows"] == []
    League.open(str(copy), NAME).rename_player("Bruno", "Xavier Bruneau")
    rows = client.get(f"/api/v1/leagues/{NAME}", params={"q": "xavier"}).json()["rows"]
    assert [(r["player"], r["rank"]) for r in rows] == [("Xavier Bruneau", 4)]
    old = client.get(f"/api/v1/leagues/{NAME}", params={"q": "bruno"}).json()["rows"]
    assert [r["player"] for r in old] == ["Xavier Bruneau"]  # found by the former name
