"""Odds on the player page and the predict endpoint (through eloleague.tools.predict)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.records import Participant
from eloleague.tools.predict import predict
from eloleague.web import Settings, create_app
from tests.web.conftest import BE, DIPLO


def _two(client: TestClient) -> tuple[str, str]:
    rows = client.get(f"/api/v1/leagues/{BE}", params={"per_page": "2"}).json()["rows"]
    return rows[0]["player"], rows[1]["player"]


def test_predict_endpoint_gives_p_k_and_every_result(read_client: TestClient) -> None:
    a, b = _two(read_client)
    got = read_client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[a], [b]]})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["scenarios"] == [
        "defeat",
        "draw",
        "marginal_victory",
        "decisive_victory",
        "overwhelming_victory",
    ]
    first, second = body["players"]
    assert first["player"] == a and second["player"] == b
    assert abs(first["expected"] + second["expected"] - 1) < 1e-9
    deltas = [first["changes"][s]["delta"] for s in body["scenarios"]]
    assert deltas == sorted(deltas) and deltas[0] < 0 < deltas[-1]
    for s in body["scenarios"]:  # rounded rule set: whole points, after = rating + change
        change = first["changes"][s]
        assert isinstance(change["delta"], int)
        assert change["after"] == first["rating"] + change["delta"]


def test_predict_refuses_unknown_names_and_free_for_all(read_client: TestClient) -> None:
    a, b = _two(read_client)
    typo = b[:-1] + ("x" if b[-1] != "x" else "y")
    got = read_client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[a], [typo]]})
    assert got.status_code == 400
    assert b in got.json()["error"]["message"]  # did you mean
    ffa = read_client.post(f"/api/v1/leagues/{DIPLO}/predict", json={"sides": [["x"], ["y"]]})
    assert ffa.status_code == 400 and ffa.json()["error"]["code"] == "bad_request"


def test_player_page_shows_the_odds_against_someone(read_client: TestClient) -> None:
    a, b = _two(read_client)
    api = read_client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[a], [b]]}).json()
    page = read_client.get(f"/leagues/{BE}/players/{a}", params={"against": b, "lang": "fr"})
    assert page.status_code == 200
    assert "Chances contre un autre joueur" in page.text
    win = api["players"][0]["changes"]["decisive_victory"]["delta"]
    assert f'<td>Victoire décisive</td><td class="n delta up">+{win}</td>' in page.text
    # P and K as French writes them (« P = 0,64 », not 0.64), as every figure of the page
    p, k = api["players"][0]["expected"], api["players"][0]["k"]
    french = f"P = {round(p, 3):g}, K = {round(k, 3):g}".replace(".", ",")
    assert french in page.text, french
    wrong = read_client.get(f"/leagues/{BE}/players/{a}", params={"against": "Nobody Here"})
    assert wrong.status_code == 200 and 'role="alert"' in wrong.text


def test_an_error_box_reads_as_a_sentence(read_client: TestClient) -> None:
    """The API says a refusal as words that follow a place (« joueur inconnu … »); the page's
    error box shows it alone, as a sentence: its first letter a capital, the rest the same."""
    a, _ = _two(read_client)
    sides = {"sides": [[a], ["Nobody Here"]]}
    said = read_client.post(f"/api/v1/leagues/{BE}/predict?lang=fr", json=sides)
    message = said.json()["error"]["message"]
    assert message.startswith("joueur inconnu")
    page = read_client.get(f"/leagues/{BE}/players/{a}", params={"against": "Nobody Here"})
    found = re.search(r'role="alert">\s*<p><strong>(.*?)</strong>', page.text)
    assert found is not None, page.text
    assert html.unescape(found[1]) == "J" + message[1:]


def test_predict_refuses_three_sides_in_a_two_sided_game(read_client: TestClient) -> None:
    rows = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "3"}).json()["rows"]
    a, b, c = (r["player"] for r in rows)
    got = read_client.post(
        f"/api/v1/leagues/{BE}/predict",
        json={"sides": [[a], [b], [c]]},
        headers={"Accept-Language": "en"},
    )
    assert got.status_code == 400, got.text
    assert "exactly two sides, not 3" in got.json()["error"]["message"]
    fr = read_client.post(
        f"/api/v1/leagues/{BE}/predict",
        json={"sides": [[a], [b], [c]]},
        headers={"Accept-Language": "fr"},
    )
    assert "exactement deux camps, pas 3" in fr.json()["error"]["message"]
    huge = read_client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[a]] * 65})
    assert huge.status_code == 422 and huge.json()["error"]["code"] == "invalid_request"


# The venue: a league whose rule set has a home advantage (tests/data/rules/home-club.toml) ------

HOME_RULES = Path(__file__).parents[1] / "data" / "rules" / "home-club.toml"
HISTORY = [
    {"id": "g1", "date": "2025-01-04", "home": 0,
     "sides": [{"players": ["Ana"], "outcome": "win"}, {"players": ["Ben"], "outcome": "loss"}]},
    {"id": "g2", "date": "2025-01-11", "home": 1,
     "sides": [{"players": ["Ana"], "outcome": "draw"}, {"players": ["Ben"], "outcome": "draw"}]},
]  # fmt: skip
PREDICT = "/api/v1/leagues/Club/predict"


@pytest.fixture
def club(tmp_path: Path) -> tuple[TestClient, League]:
    db = tmp_path / "club.db"
    source = tmp_path / "games.jsonl"
    source.write_text("".join(json.dumps(g) + "\n" for g in HISTORY), "utf-8")
    league = League.create(str(db), "Club", str(HOME_RULES))
    league.import_file(source)
    app = create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32))
    return TestClient(app, raise_server_exceptions=False), league


def _deltas(body: dict[str, Any]) -> list[dict[str, float]]:
    return [{s: c["delta"] for s, c in p["changes"].items()} for p in body["players"]]


def test_predict_endpoint_takes_the_venue(club: tuple[TestClient, League]) -> None:
    web, league = club
    sides = [["Ana"], ["Ben"]]
    pools = league.current_pools()
    bare = web.post(PREDICT, json={"sides": sides}).json()
    for home in (1, 2):
        got = web.post(PREDICT, json={"sides": sides, "home": home})
        assert got.status_code == 200, got.text
        body = got.json()
        want = predict(
            league.rules, pools, [[Participant("Ana")], [Participant("Ben")]], home=home - 1
        )
        assert body["home"] == home and body["neutral"] is False
        assert [s["advantage"] for s in body["sides"]] == [s.advantage for s in want.sides]
        assert [s["expected"] for s in body["sides"]] == [s.expected for s in want.sides]
        assert [p["expected"] for p in body["players"]] == [p.expected for p in want.players]
        assert _deltas(body) == [{c.scenario: c.delta for c in p.changes} for p in want.players]
        assert _deltas(body) != _deltas(bare)
    at_home = web.post(PREDICT, json={"sides": sides, "home": 1}).json()
    assert at_home["sides"][0]["expected"] > bare["sides"][0]["expected"]
    neutral = web.post(PREDICT, json={"sides": sides, "home": 1, "neutral": True}).json()
    assert _deltas(neutral) == _deltas(bare) and neutral["neutral"] is True


@pytest.mark.parametrize("home", [3, 0, -1])
def test_predict_endpoint_refuses_a_side_at_home_other_than_1_or_2(
    club: tuple[TestClient, League], home: int
) -> None:
    web, _ = club
    body = {"sides": [["Ana"], ["Ben"]], "home": home}
    en = web.post(PREDICT, json=body, headers={"Accept-Language": "en"})
    assert en.status_code == 422, en.text
    error = en.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["problems"] == [
        {"location": "home", "message": f'the side at home is 1 or 2, not "{home}"'}
    ]
    fr = web.post(PREDICT, json=body, headers={"Accept-Language": "fr"}).json()["error"]
    assert (
        fr["problems"][0]["message"] == f"le camp qui reçoit est 1 ou 2, pas «\u202f{home}\u202f»"
    )
    text = web.post(PREDICT, json={**body, "home": "1"})  # a number, as the schema says
    assert text.status_code == 422 and text.json()["error"]["code"] == "invalid_request"


def test_the_openapi_says_the_venue(read_client: TestClient) -> None:
    schema = read_client.get("/api/v1/openapi.json").json()["components"]["schemas"]["OddsIn"]
    home = schema["properties"]["home"]
    assert home["enum"] == [1, 2, None] and "side at home" in home["description"]
    assert "neutral" in schema["properties"]


def test_player_page_asks_the_venue_and_shows_its_odds(club: tuple[TestClient, League]) -> None:
    web, _ = club
    api = web.post(PREDICT, json={"sides": [["Ana"], ["Ben"]], "home": 2}).json()
    page = web.get(
        "/leagues/Club/players/Ana", params={"against": "Ben", "home": "2", "lang": "fr"}
    )
    assert page.status_code == 200
    assert '<select name="home">' in page.text and '<option value="2" selected>' in page.text
    assert "Ana reçoit" in page.text and "L’adversaire reçoit" in page.text
    assert "Ben reçoit\u202f: 100 points de classement de plus dans le score attendu." in page.text
    loss = api["players"][0]["changes"]["loss"]["delta"]
    assert f'<td>Défaite</td><td class="n delta down">{loss}</td>' in page.text
    neutral = web.get("/leagues/Club/players/Ana", params={"against": "Ben", "lang": "en"})
    assert "plays at home" not in neutral.text
    assert f'<td>Loss</td><td class="n delta down">{loss}</td>' not in neutral.text
    bad = web.get("/leagues/Club/players/Ana", params={"against": "Ben", "home": "3", "lang": "fr"})
    assert bad.status_code == 200 and 'role="alert"' in bad.text
    assert "le camp qui reçoit est 1 ou 2, pas «\u202f3\u202f»" in bad.text


def test_without_a_home_advantage_the_venue_changes_nothing(read_client: TestClient) -> None:
    a, b = _two(read_client)
    bare = read_client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[a], [b]]}).json()
    home = read_client.post(
        f"/api/v1/leagues/{BE}/predict", json={"sides": [[a], [b]], "home": 2, "neutral": False}
    )
    assert home.status_code == 200, home.text
    assert _deltas(home.json()) == _deltas(bare)
    assert home.json()["sides"] == bare["sides"]
    page = read_client.get(f"/leagues/{BE}/players/{a}", params={"against": b, "home": "2"})
    assert page.status_code == 200 and '<select name="home">' not in page.text


@pytest.mark.parametrize(
    ("body", "location", "english", "french"),
    [
        ({"sides": "x"}, "body.sides", "expected a list", "attendu\u202f: une liste"),
        ({}, "body.sides", "required", "obligatoire"),
        ({"sides": [[1], ["B"]]}, "body.sides.0.0", "expected a text", "attendu\u202f: un texte"),
        (
            {"sides": [["A"]] * 65},
            "body.sides",
            "expected at most 64 items, not 65",
            "attendu\u202f: 64 éléments au plus, pas 65",
        ),
        (
            {"sides": [["A"], ["B"]], "neutral": "maybe"},
            "body.neutral",
            "expected true or false",
            "attendu\u202f: true ou false",
        ),
    ],
)
def test_a_malformed_body_is_told_in_the_readers_language(
    read_client: TestClient, body: dict[str, Any], location: str, english: str, french: str
) -> None:
    """pydantic says its problems in English only: the site says them in its own words."""
    for lang, message in (("en", english), ("fr", french)):
        got = read_client.post(
            f"/api/v1/leagues/{BE}/predict", json=body, headers={"Accept-Language": lang}
        )
        assert got.status_code == 422 and got.json()["error"]["code"] == "invalid_request"
        assert got.json()["error"]["problems"] == [{"location": location, "message": message}]


def test_a_prediction_reads_its_players_pools_alone(
    club: tuple[TestClient, League], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds read the named players' pools, not the league's (League.pools_of), and are the
    odds the league's whole pools give, an alias included; a name the league does not know
    still gets the close names of the whole league."""
    web, league = club
    more = [
        {"id": f"m{i}", "date": "2025-02-01",
         "sides": [{"players": [a], "outcome": "win"}, {"players": [b], "outcome": "loss"}]}
        for i, (a, b) in enumerate([("Chloé", "Dan"), ("Dan", "Ana"), ("Ben", "Chloé")])
    ]  # fmt: skip
    source = tmp_path / "more.jsonl"
    source.write_text("".join(json.dumps(g) + "\n" for g in more), "utf-8")
    league.import_file(source)
    league.rename_player("Ben", "Benoît")
    pools = league.current_pools()
    mine, aliases = league.pools_of(["Ana", "Ben", "Nobody"])
    assert {key.player for key in mine} == {"Ana", "Benoît"}
    assert mine == {k: v for k, v in pools.items() if k.player in ("Ana", "Benoît")}
    assert aliases == {"Ben": "Benoît"}
    whole = League.current_pools

    def every_pool(self: League) -> dict[Any, Any]:
        raise AssertionError("the whole league's pools were read")

    monkeypatch.setattr(League, "current_pools", every_pool)
    got = web.post(PREDICT, json={"sides": [["Ana"], ["Ben"]], "home": 2})
    assert got.status_code == 200, got.text
    body = got.json()
    want = predict(league.rules, pools, [[Participant("Ana")], [Participant("Benoît")]], home=1)
    assert [p["player"] for p in body["players"]] == ["Ana", "Benoît"]
    assert [p["expected"] for p in body["players"]] == [p.expected for p in want.players]
    assert _deltas(body) == [{c.scenario: c.delta for c in p.changes} for p in want.players]
    monkeypatch.setattr(League, "current_pools", whole)
    typo = web.post(PREDICT, json={"sides": [["Ana"], ["Chloe"]]})
    assert typo.status_code == 400 and "Chloé" in typo.json()["error"]["message"]
