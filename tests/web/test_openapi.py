"""The OpenAPI says what the API does (docs/web.md, "Headers and schema"): every status an
operation answers is documented, what the schema calls a date or a number is refused otherwise
(an empty value too), and a 405's Allow lists every method the path accepts."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import BE, DIPLO, Site

API = "/api/v1/leagues/{league}"  # as the OpenAPI writes the paths


def _documented(client: TestClient, path: str, method: str) -> set[str]:
    schema: dict[str, Any] = client.get("/api/v1/openapi.json").json()
    return set(schema["paths"][path][method]["responses"])


@pytest.mark.parametrize(
    ("method", "path", "statuses"),
    [
        ("get", API, {"200", "404", "422", "503"}),
        ("get", API + "/events", {"200", "404", "422", "503"}),
        ("get", API + "/players/{name}", {"200", "404", "422", "503"}),  # FastAPI: 422 everywhere
        ("post", API + "/predict", {"200", "400", "404", "413", "415", "422", "503"}),
        (
            "post",
            API + "/games",
            {"200", "201", "202", "400", "401", "404", "413", "415", "422", "503"},
        ),
        ("post", API + "/games/preview", {"200", "400", "401", "404", "413", "415", "422", "503"}),
        (
            "put",
            API + "/games/{game}",
            {"200", "400", "401", "403", "404", "413", "415", "422", "503"},
        ),
        ("delete", API + "/games/{game}", {"200", "400", "401", "403", "404", "422", "503"}),
        (
            "post",
            API + "/seasons/close",
            {"200", "400", "401", "403", "404", "413", "415", "422", "503"},
        ),
        (
            "post",
            API + "/seasons/reopen",
            {"200", "400", "401", "403", "404", "413", "415", "422", "503"},
        ),
        ("get", API + "/journal", {"200", "401", "403", "404", "422", "503"}),
    ],
)
def test_every_status_an_operation_answers_is_documented(
    read_client: TestClient, method: str, path: str, statuses: set[str]
) -> None:
    assert _documented(read_client, path, method) == statuses


def test_the_documented_400s_are_the_ones_given(client: TestClient, site: Site) -> None:
    officer = {"Authorization": f"Bearer {site.officer_token}"}
    odds = client.post(f"/api/v1/leagues/{DIPLO}/predict", json={"sides": [["A"], ["B"], ["C"]]})
    assert odds.status_code == 400 and odds.json()["error"]["code"] == "bad_request"
    closing = client.post(
        f"/api/v1/leagues/{BE}/seasons/close", json={"end": "2000-01-01"}, headers=officer
    )
    assert closing.status_code == 400 and closing.json()["error"]["code"] == "bad_request"
    game = {
        "date": "2026-01-10",
        "sides": [
            {"players": ["Ann"], "outcome": "decisive_victory"},
            {"players": ["Bob"], "outcome": "defeat"},
        ],
    }
    refereed = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(game),
        headers={"Authorization": f"Bearer {site.referee_token}"},
    )
    assert refereed.status_code == 202 and refereed.json()["status"] == "pending_review"


@pytest.mark.parametrize(
    "query",
    [
        "active_since=",
        "active_since=20240101",
        "active_since=2024-W01-1",
        "page=",
        "per_page=",
        "page=1_0",
        "page=%20 2",
        "page=%D9%A3",  # an Arabic-Indic three: int() would take it
    ],
)
def test_empty_or_loose_values_are_refused_by_the_api(read_client: TestClient, query: str) -> None:
    got = read_client.get(f"/api/v1/leagues/{BE}?{query}")
    assert got.status_code == 422, got.text
    location = got.json()["error"]["problems"][0]["location"]
    assert location == "paramètre " + query.split("=")[0]  # the site's default language


def test_pages_stay_lenient_with_an_empty_filter(read_client: TestClient) -> None:
    assert read_client.get(f"/leagues/{BE}?active_since=&page=").status_code == 200


def test_strict_bodies_are_not_coerced(client: TestClient, site: Site) -> None:
    got = client.post(f"/api/v1/leagues/{BE}/predict", json={"sides": [[1], ["B"]]})
    assert got.status_code == 422
    officer = {"Authorization": f"Bearer {site.officer_token}"}
    for end in (20241231, True):
        season = client.post(
            f"/api/v1/leagues/{BE}/seasons/close", json={"end": end}, headers=officer
        )
        assert season.status_code == 422, season.text


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PATCH", f"/api/v1/leagues/{BE}/games/g1", "GET, PUT, DELETE"),
        ("GET", f"/api/v1/leagues/{BE}/games", "POST"),
        ("DELETE", f"/api/v1/leagues/{BE}/seasons/close", "POST"),
        ("PUT", "/api/v1/leagues", "GET, POST"),  # POST creates a league (officer)
        ("PATCH", "/login", "GET, POST"),
        ("POST", "/static/style.css", "GET, HEAD"),
    ],
)
def test_a_405_lists_every_method_the_path_accepts(
    read_client: TestClient, method: str, path: str, allowed: str
) -> None:
    got = read_client.request(method, path)
    assert got.status_code == 405
    assert got.headers["allow"] == allowed


def _answer_schema(document: dict[str, Any], path: str, method: str, status: int) -> Any:
    """A validator of the JSON answer an operation documents for ``status`` (its ``$ref`` to the
    document's components resolved against the document)."""
    content = document["paths"][path][method]["responses"][str(status)]["content"]
    schema = content["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


def test_a_post_of_games_describes_the_game_and_its_example_is_taken(
    client: TestClient, site: Site
) -> None:
    """A game server's developer reads the game's fields and bounds in the OpenAPI (the reader's
    own, tests/io/test_game_schema.py), may post its example as it is, and gets the answer the
    document describes: to a post, its dry run, a correction, a referee's post."""
    document = client.get("/api/v1/openapi.json").json()
    paths = document["paths"]
    posted = paths[API + "/games"]["post"]["requestBody"]["content"]["application/json"]
    games = jsonschema_rs.validator_for(posted["schema"])
    example = posted["example"]
    assert games.is_valid(example) and games.is_valid(example[0])  # an array, or one game
    assert not games.is_valid([{**example[0], "evnt": "Austerlitz"}])
    assert not games.is_valid([{**example[0], "sides": example[0]["sides"][:1]}])
    corrected = paths[API + "/games/{game}"]["put"]["requestBody"]["content"]["application/json"]
    one = jsonschema_rs.validator_for(corrected["schema"])
    assert one.is_valid(example[0]) and not one.is_valid(example * 2)

    officer = {"Authorization": f"Bearer {site.officer_token}"}
    games_url = f"/api/v1/leagues/{BE}/games"
    dry = client.post(games_url + "/preview", json=example, headers=officer)
    assert dry.status_code == 200 and dry.json()["added"] == 1
    _answer_schema(document, API + "/games/preview", "post", 200).validate(dry.json())
    answer = client.post(games_url, json=example, headers=officer)
    assert answer.status_code == 201 and answer.json()["added"] == 1
    assert answer.json()["rating_changes"]  # what the schema checks below is there
    _answer_schema(document, API + "/games", "post", 201).validate(answer.json())
    again = client.post(
        games_url, json=[{**example[0], "id": "other"}, example[0]], headers=officer
    )
    assert again.status_code == 201 and again.json()["unchanged"] == 1
    _answer_schema(document, API + "/games", "post", 201).validate(again.json())
    fixed = {**example[0], "round": 2}
    put = client.put(f"{games_url}/{example[0]['id']}", json=fixed, headers=officer)
    assert put.status_code == 200 and put.json()["replaced"] == 1
    _answer_schema(document, API + "/games/{game}", "put", 200).validate(put.json())
    held = client.post(
        games_url,
        json=[{**example[0], "id": "held"}],
        headers={"Authorization": f"Bearer {site.referee_token}"},
    )
    assert held.status_code == 202
    _answer_schema(document, API + "/games", "post", 202).validate(held.json())
    refused = client.post(games_url, json=[{**example[0], "evnt": "x"}], headers=officer)
    assert refused.status_code == 422 and refused.json()["error"]["problems"]
    _answer_schema(document, API + "/games", "post", 422).validate(refused.json())
    with pytest.raises(jsonschema_rs.ValidationError):  # the schema does check the answers
        _answer_schema(document, API + "/games", "post", 202).validate(answer.json())
