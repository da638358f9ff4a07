"""Odds on the player page and the predict endpoint (through eloleague.tools.predict)."""

from __future__ import annotations

from fastapi.testclient import TestClient

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
    wrong = read_client.get(f"/leagues/{BE}/players/{a}", params={"against": "Nobody Here"})
    assert wrong.status_code == 200 and 'role="alert"' in wrong.text


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
