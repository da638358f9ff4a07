"""The site on a real PostgreSQL server: the ranking's SQL (order by code point, pagination,
global rows) equals `eloleague ranking --format csv`, and the accounts work there too."""

from __future__ import annotations

import csv
import io
import json

import pytest
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.league import League, engine_for
from eloleague.web import Settings, create_app
from tests.conftest import REPLAY, run_cli
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)

pytestmark = pytest.mark.pg


def test_ranking_and_writes_on_postgresql(pg_server: PgServer) -> None:  # noqa: F811
    url = pg_server.new_database()
    League.create(url, "BE", "bataille-empire").import_file(REPLAY / "bataille-empire.jsonl")
    League.create(url, "Diplo", "diplomacy").import_file(REPLAY / "diplomacy.jsonl")
    accounts.add_user(engine_for(url), "Claire", "a long password", "officer")
    token = accounts.create_token(engine_for(url), "Claire")
    client = TestClient(create_app(Settings(db=url, secret="pg-" + "s" * 40)))
    for league, args in (("BE", []), ("Diplo", []), ("Diplo", ["--role", "*"])):
        done = run_cli("ranking", "--db", url, "--league", league, "--format", "csv", *args)
        assert done.returncode == 0, done.stderr
        expected = list(csv.DictReader(io.StringIO(done.stdout)))
        params = {"per_page": "1000", **({"role": "*"} if args else {})}
        rows = client.get(f"/api/v1/leagues/{league}/ranking", params=params).json()["rows"]
        assert [(r["player"], r["mode"], r["role"], r["games"], r["title"]) for r in rows] == [
            (e["player"], e["mode"], e["role"], int(e["games"]), e["title"]) for e in expected
        ]
        for row, want in zip(rows, expected, strict=True):
            assert row["rating"] == pytest.approx(float(want["rating"]), abs=1e-9)
    game = {
        "id": "pg-1",
        "date": "2026-01-10",
        "sides": [
            {"players": ["Zoé Postgres"], "outcome": "marginal_victory"},
            {"players": ["Émile Postgres"], "outcome": "defeat"},
        ],
    }
    assert client.post("/api/v1/leagues/BE/games", content=json.dumps(game)).status_code == 401
    posted = client.post(
        "/api/v1/leagues/BE/games",
        content=json.dumps(game),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert posted.status_code == 201, posted.text
    found = client.get("/api/v1/leagues/BE/ranking", params={"q": "postgres"}).json()["rows"]
    assert {r["player"] for r in found} == {"Zoé Postgres", "Émile Postgres"}


def test_ranks_with_ties_player_page_and_search_on_postgresql(
    pg_server: PgServer,  # noqa: F811
) -> None:
    from eloleague.engine.standings import competition_ranks

    url = pg_server.new_database()
    League.create(url, "BE", "bataille-empire").import_file(REPLAY / "bataille-empire.jsonl")
    league = League.create(url, "Diplo", "diplomacy")
    league.import_file(REPLAY / "diplomacy.jsonl")
    client = TestClient(create_app(Settings(db=url, secret="pg-" + "s" * 40)))
    for name, params in (("BE", {}), ("Diplo", {"role": "", "mode": ""})):
        rows = League.open(url, name).ranking()
        want = [
            (r.player, r.mode, r.role, n)
            for r, n in zip(rows, competition_ranks(rows), strict=True)
        ]
        got: list[tuple[str, str, str, int]] = []
        page = 1
        while True:  # pages of 9 rows cut through the ties
            data = client.get(
                f"/api/v1/leagues/{name}", params={**params, "per_page": "9", "page": str(page)}
            ).json()
            got += [(r["player"], r["mode"], r["role"], r["rank"]) for r in data["rows"]]
            if page >= data["pages"]:
                break
            page += 1
        assert got == want
    top = League.open(url, "BE").ranking()[3]
    data = client.get(f"/api/v1/leagues/BE/players/{top.player}").json()
    assert data["pools"][0]["rank"] == competition_ranks(League.open(url, "BE").ranking())[3]
    folded = top.player.upper().replace("É", "E").replace("Ç", "C")
    found = client.get("/api/v1/leagues/BE", params={"q": folded}).json()["rows"]
    assert top.player in [r["player"] for r in found]
    assert client.get(f"/leagues/BE/players/{top.player}").status_code == 200
    assert client.get("/leagues/BE/list.pdf").status_code == 200
