"""Authenticated writes: tokens and roles on the API, sessions and CSRF on forms, uploads that
are checked first and change nothing when they are bad."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from tests.web.conftest import BE, PASSWORD, Site

GOOD: dict[str, Any] = {  # a JSON Lines record
    "id": "web-1",
    "date": "2026-01-10",
    "event": "Web Open",
    "sides": [
        {"players": ["Nouvelle Joueuse"], "outcome": "decisive_victory"},
        {"players": ["Marc Neuf"], "outcome": "defeat"},
    ],
}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _games(site: Site) -> int:
    return len(League.open(str(site.db), BE).games())


def _shape(body: dict[str, object]) -> dict[str, object]:
    assert set(body) == {"error"}
    error = body["error"]
    assert isinstance(error, dict) and set(error) == {"code", "message", "problems"}
    return error


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", f"/api/v1/leagues/{BE}/games"),
        ("post", f"/api/v1/leagues/{BE}/games/preview"),
        ("put", f"/api/v1/leagues/{BE}/games/g1"),
        ("delete", f"/api/v1/leagues/{BE}/games/g1"),
        ("post", f"/api/v1/leagues/{BE}/seasons/close"),
    ],
)
@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer elo_not-a-real-token"}, {"Authorization": "Basic Q2xhaXJlOnB3"}],
)
def test_api_writes_without_a_valid_token_are_refused(
    client: TestClient, site: Site, method: str, path: str, headers: dict[str, str]
) -> None:
    before = _games(site)
    got = client.request(method, path, headers=headers, content=json.dumps([GOOD]))
    assert got.status_code == 401
    assert _shape(got.json())["code"] == "unauthorized"
    assert got.headers["www-authenticate"] == "Bearer"
    assert _games(site) == before


def test_officer_posts_results_and_the_ranking_changes(client: TestClient, site: Site) -> None:
    preview = client.post(
        f"/api/v1/leagues/{BE}/games/preview",
        content=json.dumps(GOOD) + "\n",
        headers=_bearer(site.officer_token),
    )
    assert preview.status_code == 200, preview.text
    assert preview.json()["added"] == 1 and preview.json()["dry_run"] is True
    changes = {c["player"]: c for c in preview.json()["rating_changes"]}
    assert changes["Nouvelle Joueuse"]["after"] > 1000 > changes["Marc Neuf"]["after"]
    assert client.get(f"/api/v1/leagues/{BE}", params={"q": "Nouvelle"}).json()["total"] == 0

    posted = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps([GOOD]),
        headers=_bearer(site.officer_token),
    )
    assert posted.status_code == 201, posted.text
    assert posted.json()["status"] == "imported"
    row = client.get(f"/api/v1/leagues/{BE}", params={"q": "Nouvelle"}).json()["rows"][0]
    assert row["rating"] == changes["Nouvelle Joueuse"]["after"]

    again = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps([GOOD]),
        headers=_bearer(site.officer_token),
    )
    # A retry of the same post (docs/web.md, "Posting results from a game server"): the same
    # answer, nothing added.
    assert (again.status_code, again.json()) == (201, posted.json())
    assert client.get(f"/api/v1/leagues/{BE}", params={"q": "Nouvelle"}).json()["rows"][0] == row
    other = client.post(  # the same game in another post: already there
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(GOOD),
        headers=_bearer(site.officer_token),
    )
    assert other.status_code == 200 and other.json()["unchanged"] == 1

    fixed = {
        **GOOD,
        "sides": [
            {**GOOD["sides"][0], "outcome": "defeat"},
            {**GOOD["sides"][1], "outcome": "marginal_victory"},
        ],
    }
    for two in ([fixed, fixed], [fixed, {**fixed, "id": "web-2"}]):  # a correction is one game
        refused = client.put(
            f"/api/v1/leagues/{BE}/games/web-1",
            content=json.dumps(two),
            headers={**_bearer(site.officer_token), "Accept-Language": "en"},
        )
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["message"] == "give exactly one game (found 2)"
    corrected = client.put(
        f"/api/v1/leagues/{BE}/games/web-1",
        content=json.dumps(fixed),
        headers=_bearer(site.officer_token),
    )
    assert corrected.status_code == 200, corrected.text
    # the correction's own label in the reader's language, as the rest of the summary
    assert corrected.json()["summary"].startswith("correction de web-1\u202f: 0 partie ajoutée")
    row = client.get(f"/api/v1/leagues/{BE}", params={"q": "Nouvelle"}).json()["rows"][0]
    assert row["rating"] < 1000

    deleted = client.delete(
        f"/api/v1/leagues/{BE}/games/web-1", headers=_bearer(site.officer_token)
    )
    assert deleted.status_code == 200
    assert client.get(f"/api/v1/leagues/{BE}/games/web-1").status_code == 404


def test_one_pretty_printed_game_is_accepted(client: TestClient, site: Site) -> None:
    got = client.post(
        f"/api/v1/leagues/{BE}/games/preview",
        content=json.dumps(GOOD, indent=2),
        headers=_bearer(site.officer_token),
    )
    assert got.status_code == 200, got.text
    assert got.json()["added"] == 1


def test_referee_results_wait_for_review(client: TestClient, site: Site) -> None:
    before = _games(site)
    got = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(GOOD),
        headers={**_bearer(site.referee_token), "Content-Type": "application/x-ndjson"},
    )
    assert got.status_code == 202, got.text
    assert got.json()["status"] == "pending_review"
    assert _games(site) == before
    for method, path in (("delete", "games/g1"), ("put", "games/g1")):
        refused = client.request(
            method,
            f"/api/v1/leagues/{BE}/{path}",
            headers=_bearer(site.referee_token),
            content=json.dumps(GOOD),
        )
        assert refused.status_code == 403
        assert _shape(refused.json())["code"] == "forbidden"


@pytest.mark.parametrize(
    ("body", "where", "words"),  # locations in the site's default language, French
    [
        (b"this is not json at all\n", "ligne 1", "JSON"),
        (json.dumps({**GOOD, "date": "2026-13-45"}).encode(), "ligne 1", "date"),
        (
            json.dumps(
                {
                    **GOOD,
                    "sides": [
                        {"players": ["A"], "outcome": "decisve_victory"},
                        {"players": ["B"], "outcome": "defeat"},
                    ],
                }
            ).encode(),
            "ligne 1",
            "decisve_victory",
        ),
        (b"\x00\xff\xfe garbage", "ligne 1", ""),
        (b"[" * 50_000 + b"]" * 50_000, "requête", "imbrication trop profonde"),
        (b'{"date": "2024-01-01", "sides": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", "ligne 1", ""),
    ],
)
def test_garbage_gets_a_located_error_and_changes_nothing(
    client: TestClient, site: Site, body: bytes, where: str, words: str
) -> None:
    before = _games(site)
    got = client.post(
        f"/api/v1/leagues/{BE}/games", content=body, headers=_bearer(site.officer_token)
    )
    assert got.status_code == 422, got.text
    error = _shape(got.json())
    assert error["code"] == "invalid_input"
    problems = error["problems"]
    assert isinstance(problems, list) and problems
    assert any(where in p["location"] and words in p["message"] for p in problems), problems
    assert _games(site) == before


# Browser sessions --------------------------------------------------------------------------


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF token in the form"
    return found.group(1)


def _login(client: TestClient, name: str = "Claire") -> None:
    token = _csrf(client.get("/login").text)
    got = client.post(
        "/login",
        data={"name": name, "password": PASSWORD, "csrf_token": token},
        follow_redirects=False,
    )
    assert got.status_code == 303, got.text


def test_login_needs_the_right_password(client: TestClient) -> None:
    token = _csrf(client.get("/login").text)
    got = client.post(
        "/login", data={"name": "Claire", "password": "wrong password", "csrf_token": token}
    )
    assert got.status_code == 401
    assert "Nom ou mot de passe incorrect" in got.text
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_wrong_passwords_slow_down_guessing_for_that_name(client: TestClient) -> None:
    def attempt(password: str) -> int:
        token = _csrf(client.get("/login").text)
        data = {"name": "Claire", "password": password, "csrf_token": token}
        return client.post("/login", data=data, follow_redirects=False).status_code

    assert [attempt(f"guess {n}") for n in range(5)] == [401] * 5
    assert attempt(PASSWORD) == 429  # even the right password waits now
    token = _csrf(client.get("/login").text)
    other = client.post(  # another account from the same address is not held up
        "/login",
        data={"name": "Rémi", "password": PASSWORD, "csrf_token": token},
        follow_redirects=False,
    )
    assert other.status_code == 303


def test_a_new_password_ends_the_sessions_opened_with_the_old_one(
    client: TestClient, site: Site
) -> None:
    from eloleague.accounts import set_password
    from eloleague.league import engine_for

    _login(client)
    assert client.get("/admin", follow_redirects=False).status_code == 200
    set_password(engine_for(str(site.db)), "Claire", "another long passphrase")
    assert client.get("/admin", follow_redirects=False).status_code == 303  # to the sign-in


@pytest.mark.parametrize(
    "path",
    [
        "/login",
        "/logout",
        f"/leagues/{BE}/upload",
        f"/leagues/{BE}/games/g1/delete",
        f"/leagues/{BE}/games/g1/edit",
        f"/leagues/{BE}/seasons/close",
        f"/leagues/{BE}/seasons/reopen",
        f"/leagues/{BE}/uploads/1/confirm",
    ],
)
def test_forms_without_their_csrf_token_are_refused(
    client: TestClient, site: Site, path: str
) -> None:
    _login(client)
    before = _games(site)
    for token in (None, "forged-token"):
        data = {
            "name": "Claire",
            "password": PASSWORD,
            "end": "2025-12-31",
            **({"csrf_token": token} if token else {}),
        }
        got = client.post(path, data=data, follow_redirects=False)
        assert got.status_code == 403, (path, got.status_code)
        assert "Le formulaire a expiré" in got.text
    assert _games(site) == before
    assert client.get(f"/leagues/{BE}/games/g1").status_code == 200


def test_forms_need_a_signed_in_officer(client: TestClient, site: Site) -> None:
    token = _csrf(client.get("/login").text)
    got = client.post(
        f"/leagues/{BE}/games/g1/delete", data={"csrf_token": token}, follow_redirects=False
    )
    assert got.status_code == 401
    _login(client, "Rémi")
    token = _csrf(client.get(f"/leagues/{BE}/upload").text)
    got = client.post(f"/leagues/{BE}/games/g1/delete", data={"csrf_token": token})
    assert got.status_code == 403
    assert client.get(f"/api/v1/leagues/{BE}/games/g1").status_code == 200


def test_an_officer_deletes_a_game_once_the_box_is_ticked(client: TestClient, site: Site) -> None:
    _login(client)
    page = client.get(f"/leagues/{BE}/games/g1")
    assert 'name="confirm" value="yes" required' in page.text
    before = _games(site)
    unticked = client.post(f"/leagues/{BE}/games/g1/delete", data={"csrf_token": _csrf(page.text)})
    assert unticked.status_code == 422 and "rien n’a été supprimé" in unticked.text
    assert _games(site) == before
    done = client.post(
        f"/leagues/{BE}/games/g1/delete",
        data={"csrf_token": _csrf(page.text), "confirm": "yes"},
    )
    assert done.status_code == 200 and "g1" in done.text  # the ranking, with the flash message
    assert _games(site) == before - 1
    assert client.get(f"/api/v1/leagues/{BE}/games/g1").status_code == 404


def test_a_tampered_session_cookie_is_not_a_session(client: TestClient) -> None:
    _login(client)
    assert client.get("/admin", follow_redirects=False).status_code == 200
    cookie = client.cookies["eloleague_session"]
    client.cookies.delete("eloleague_session")  # the signed-in one is no longer sent
    client.cookies.set(
        "eloleague_session", cookie[:-3] + ("AAA" if cookie[-3:] != "AAA" else "BBB")
    )
    sent = client.build_request("GET", "/admin").headers["cookie"]
    assert "eloleague_session=" + cookie[:-3] in sent and cookie not in sent  # the tampered one
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_upload_preview_confirm(client: TestClient, site: Site) -> None:
    _login(client)
    page = client.get(f"/leagues/{BE}/upload")
    bad = (
        json.dumps(GOOD)
        + "\n"
        + json.dumps(
            {
                **GOOD,
                "id": "web-2",
                "sides": [
                    {"players": ["X"], "outcome": "defeat"},
                    {"players": ["Y"], "outcome": "defeat"},
                ],
            }
        )
    ).encode()
    before = _games(site)
    got = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": _csrf(page.text)},
        files={"sheet": ("resultats.jsonl", bad, "application/x-ndjson")},
    )
    assert got.status_code == 422
    assert "resultats.jsonl\u202f: ligne 2" in got.text  # the site's default language
    assert _games(site) == before

    good = (json.dumps(GOOD) + "\n").encode()
    got = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": _csrf(got.text)},
        files={"sheet": ("resultats.jsonl", good, "application/x-ndjson")},
    )
    assert got.status_code == 200
    assert "Nouvelle Joueuse" in got.text and "Confirmer" in got.text
    assert _games(site) == before
    confirm = re.search(r'action="(/leagues/[^"]+/confirm)"', got.text)
    assert confirm
    twice = client.post(  # the same preview again is the same upload, not a second one
        f"/leagues/{BE}/upload",
        data={"csrf_token": _csrf(got.text)},
        files={"sheet": ("resultats.jsonl", good, "application/x-ndjson")},
    )
    confirm_twice = re.search(r'action="(/leagues/[^"]+/confirm)"', twice.text)
    assert confirm_twice is not None and confirm_twice.group(1) == confirm.group(1)
    done = client.post(confirm.group(1), data={"csrf_token": _csrf(got.text)})
    assert done.status_code == 200  # redirected to the ranking
    assert "Nouvelle Joueuse" in done.text
    assert _games(site) == before + 1
    again = client.post(confirm.group(1), data={"csrf_token": _csrf(done.text)})
    assert again.status_code == 400 and _games(site) == before + 1


def test_api_bodies_past_the_limit_are_refused(site: Site) -> None:
    from fastapi.testclient import TestClient as Client

    from eloleague.web import Settings, create_app

    client = Client(create_app(Settings(db=str(site.db), secret="l" * 40, max_upload_bytes=50)))
    before = _games(site)
    got = client.post(
        f"/api/v1/leagues/{BE}/games", content=json.dumps(GOOD), headers=_bearer(site.officer_token)
    )
    assert got.status_code == 413
    assert _shape(got.json())["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds while reading
        yield json.dumps(GOOD).encode()
        yield json.dumps(GOOD).encode()

    streamed = client.post(
        f"/api/v1/leagues/{BE}/games", content=chunks(), headers=_bearer(site.officer_token)
    )
    assert streamed.status_code == 413
    assert _games(site) == before


def test_an_uploaded_workbook_warns_of_a_look_alike_name_at_its_cell(
    client: TestClient, site: Site
) -> None:
    import datetime as dt

    from eloleague.records import GameRecord, Participant, Side
    from tests.sheets.fill import filled_workbook, to_bytes

    league = League.open(str(site.db), BE)
    known = league.players()[0]
    typo = known[:-1] + ("x" if known[-1] != "x" else "y")
    game = GameRecord(
        dt.date(2026, 5, 1),
        (
            Side((Participant(typo),), "defeat"),
            Side((Participant("Zoé Nouvelle"),), "decisive_victory"),
        ),
        event="Tournoi 2026",
        round=1,
    )
    data = to_bytes(filled_workbook(league.rules, [game], "en", "Tournoi 2026", []))
    _login(client)
    page = client.get(f"/leagues/{BE}/upload")
    got = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": _csrf(page.text)},
        files={"sheet": ("tournoi.xlsx", data, "application/octet-stream")},
    )
    assert got.status_code == 200, got.text
    # The sheet keeps its English name; the message comes in the page's language.
    assert f"Results, ligne 3, colonne D\u202f: le nom «\u202f{typo}\u202f» ressemble" in got.text
    assert got.text.count(f"«\u202f{typo}\u202f»") == 1  # not repeated by the league's own check
