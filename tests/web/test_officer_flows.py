"""Officers' and referees' flows through the pages: review of a referee's upload, correcting a
game, closing a season (form and API), and the limits of an upload."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from fastapi.testclient import TestClient

from eloleague.league import League
from tests.web.conftest import BE, PASSWORD, Site, app_of, make_client

GAME = {
    "id": "flow-1",
    "date": "2026-02-07",
    "event": "Flow Cup",
    "sides": [
        {"players": ["Agathe Flux"], "outcome": "overwhelming_victory"},
        {"players": ["Basile Flux"], "outcome": "defeat"},
    ],
}


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found.group(1)


def _login(client: TestClient, name: str) -> str:
    page = client.get("/login").text
    client.post("/login", data={"name": name, "password": PASSWORD, "csrf_token": _csrf(page)})
    return _csrf(client.get("/admin").text)


def test_a_referee_upload_waits_for_an_officer(site: Site) -> None:
    referee = make_client(site)
    token = _login(referee, "Rémi")
    sent = referee.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("flow.jsonl", json.dumps(GAME).encode(), "text/plain")},
    )
    assert sent.status_code == 200
    assert "Envoyé pour vérification" in sent.text and "Confirmer" not in sent.text
    upload = re.search(r"/uploads/(\d+)", referee.get("/admin").text)
    assert upload is not None
    refused = referee.post(
        f"/leagues/{BE}/uploads/{upload.group(1)}/confirm", data={"csrf_token": token}
    )
    assert refused.status_code == 403
    assert "Agathe Flux" not in League.open(str(site.db), BE).players()

    officer = make_client(site)
    token = _login(officer, "Claire")
    admin = officer.get("/admin").text
    assert "flow.jsonl" in admin and "Rémi" in admin
    review = officer.get(f"/leagues/{BE}/uploads/{upload.group(1)}")
    assert "Agathe Flux" in review.text and "Confirmer l’import" in review.text
    # a game of 2026 brings the 2024 and 2025 seasons' inactivity penalties: shown apart
    assert ">Ajustement</th>" in review.text
    assert 'title="La part de la variation faite hors des parties : ' in review.text
    done = officer.post(
        f"/leagues/{BE}/uploads/{upload.group(1)}/confirm", data={"csrf_token": token}
    )
    assert done.status_code == 200
    flash = re.search(r'<p class="flash" role="status">([^<]+)</p>', done.text)
    assert flash and "flow.jsonl" in flash.group(1) and "1 partie" in flash.group(1), done.text
    assert "Agathe Flux" in League.open(str(site.db), BE).players()
    admin = officer.get("/admin").text
    assert f"/uploads/{upload.group(1)}" not in admin  # no longer waiting for review
    assert "Claire · flow.jsonl\u202f: 1 partie ajoutée, 0 remplacée" in admin  # in the journal
    closed = officer.get(f"/leagues/{BE}/uploads/{upload.group(1)}").text
    assert "Cet envoi est clos\u202f: importé." in closed and "/confirm" not in closed


def test_an_officer_corrects_a_game(site: Site) -> None:
    client = make_client(site)
    token = _login(client, "Claire")
    before = client.get(f"/api/v1/leagues/{BE}/games/g1").json()
    form = client.get(f"/leagues/{BE}/games/g1/edit")
    line = re.search(r'<textarea name="line"[^>]*>([^<]*)</textarea>', form.text)
    assert line
    game = json.loads(
        line.group(1).replace("&#34;", '"').replace("&quot;", '"').replace("&#39;", "'")
    )
    assert game["id"] == "g1" and game["sides"] == [
        {"players": [p["name"] for p in s["players"]], "outcome": s["outcome"]}
        for s in before["game"]["sides"]
    ]
    game["sides"][0]["outcome"], game["sides"][1]["outcome"] = "defeat", "marginal_victory"
    bad = client.post(
        f"/leagues/{BE}/games/g1/edit",
        data={"csrf_token": token, "line": json.dumps({**game, "id": "other"})},
    )
    assert bad.status_code == 422 and "g1" in bad.text
    done = client.post(
        f"/leagues/{BE}/games/g1/edit", data={"csrf_token": token, "line": json.dumps(game)}
    )
    assert done.status_code == 200, done.text
    after = client.get(f"/api/v1/leagues/{BE}/games/g1").json()
    assert [s["outcome"] for s in after["game"]["sides"]] == ["defeat", "marginal_victory"]
    assert after["entries"][0]["delta"] < 0 < before["entries"][0]["delta"]


def test_an_officer_corrects_a_game_without_id_in_place(site: Site) -> None:
    client = make_client(site)
    game = {
        "date": "2026-03-01",
        "sides": [
            {"players": ["Sans Id Un"], "outcome": "marginal_victory"},
            {"players": ["Sans Id Deux"], "outcome": "defeat"},
        ],
    }
    posted = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(game),
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert posted.status_code == 201, posted.text
    number = League.open(str(site.db), BE).player("Sans Id Un").history[-1].game
    assert number.startswith("#")
    token = _login(client, "Claire")
    form = client.get(f"/leagues/{BE}/games/{quote(number)}/edit")
    line = re.search(r'<textarea name="line"[^>]*>([^<]*)</textarea>', form.text)
    assert line
    shown = json.loads(line.group(1).replace("&#34;", '"').replace("&quot;", '"'))
    assert "id" not in shown  # #N names the game; it is not an id the game carries
    shown["sides"][0]["outcome"], shown["sides"][1]["outcome"] = "defeat", "marginal_victory"
    done = client.post(
        f"/leagues/{BE}/games/{quote(number)}/edit",
        data={"csrf_token": token, "line": json.dumps(shown)},
    )
    assert done.status_code == 200, done.text
    after = client.get(f"/api/v1/leagues/{BE}/games/{quote(number)}").json()
    assert [s["outcome"] for s in after["game"]["sides"]] == ["defeat", "marginal_victory"]


def test_a_correction_of_a_game_that_does_not_exist_adds_nothing(site: Site) -> None:
    client = make_client(site)
    games = client.get(f"/api/v1/leagues/{BE}/games/g1").json()["game"]
    line = {
        "id": "no-such-game",
        "date": games["date"],
        "sides": [
            {"players": [p["name"] for p in s["players"]], "outcome": s["outcome"]}
            for s in games["sides"]
        ],
    }
    put = client.put(
        f"/api/v1/leagues/{BE}/games/no-such-game",
        content=json.dumps(line),
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert put.status_code == 404 and put.json()["error"]["code"] == "not_found"
    token = _login(client, "Claire")
    form = client.post(
        f"/leagues/{BE}/games/no-such-game/edit",
        data={"csrf_token": token, "line": json.dumps(line)},
    )
    assert form.status_code == 404
    assert client.get(f"/api/v1/leagues/{BE}/games/no-such-game").status_code == 404


def test_closing_a_season_applies_inactivity(site: Site) -> None:
    client = make_client(site)
    last = max(g.date for g in League.open(str(site.db), BE).games())
    end = f"{last.year}-12-31"
    before = {
        r["player"]: r["rating"]
        for r in client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()["rows"]
    }
    refused = client.post(
        f"/api/v1/leagues/{BE}/seasons/close",
        json={"end": end},
        headers={"Authorization": f"Bearer {site.referee_token}"},
    )
    assert refused.status_code == 403
    bad = client.post(
        f"/api/v1/leagues/{BE}/seasons/close",
        json={"end": f"{last.year}-06-30"},
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    message = bad.json()["error"]["message"]  # the site's default language is French
    assert bad.status_code == 400 and "n’est pas le dernier jour d’une saison" in message
    token = _login(client, "Claire")
    # The form first shows what the closing will do, and changes nothing.
    shown = client.post(f"/leagues/{BE}/seasons/close", data={"csrf_token": token, "end": end})
    assert shown.status_code == 200 and "Clore la saison se terminant le" in shown.text
    planned = client.post(
        f"/api/v1/leagues/{BE}/seasons/close",
        json={"end": end, "dry_run": True},
        headers={"Authorization": f"Bearer {site.officer_token}"},
    ).json()["adjustments"]
    assert len(planned) > 1 and all(a["player"] in shown.text for a in planned)
    assert f"applique maintenant ces {len(planned)} ajustements, et seulement" in shown.text
    unchanged = client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()["rows"]
    assert {r["player"]: r["rating"] for r in unchanged} == before
    done = client.post(
        f"/leagues/{BE}/seasons/close", data={"csrf_token": token, "end": end, "confirm": "yes"}
    )
    assert (
        done.status_code == 200 and f"{end} close\u202f: {len(planned)} Elo modifiés" in done.text
    )
    after = {
        r["player"]: r["rating"]
        for r in client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()["rows"]
    }
    assert {p: after[p] - before[p] for p in after if after[p] != before[p]} == {
        a["player"]: a["after"] - a["before"] for a in planned
    }  # exactly the list that was shown
    journal = client.get(
        f"/api/v1/leagues/{BE}/journal",
        params={"limit": "1"},
        headers={"Authorization": f"Bearer {site.officer_token}"},
    ).json()["entries"]
    assert [
        (j["action"], j["user"], j["players"], j["changes"], j["first_at"]) for j in journal
    ] == [("close", "Claire", len(planned), 1, None)]
    admin = client.get("/admin").text
    assert f"saison se terminant le {end} close" in admin and "Rouvrir" in admin
    reopened = client.post(f"/leagues/{BE}/seasons/reopen", data={"csrf_token": token, "end": end})
    assert reopened.status_code == 200
    back = client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1000"}).json()["rows"]
    assert {r["player"]: r["rating"] for r in back} == before
    client.post(
        f"/leagues/{BE}/seasons/close", data={"csrf_token": token, "end": end, "confirm": "yes"}
    )
    again = client.post(
        f"/api/v1/leagues/{BE}/seasons/close",
        json={"end": end},
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert again.status_code == 400 and "déjà close" in again.json()["error"]["message"]


def test_upload_limits(site: Site) -> None:
    client = make_client(site)
    app = app_of(client)
    app.state.settings = type(app.state.settings)(
        db=str(site.db), secret="s" * 40, max_upload_bytes=100
    )
    token = _login(client, "Claire")
    big = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("big.jsonl", b"x" * 200, "text/plain")},
    )
    assert big.status_code == 413 and "100" in big.text
    empty = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("empty.jsonl", b"  \n", "text/plain")},
    )
    assert empty.status_code == 422 and "le fichier est vide" in empty.text
    odd = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("../../etc/passwd.txt", b"hello", "text/plain")},
    )
    assert odd.status_code == 422 and "passwd.txt" in odd.text and "../" not in odd.text


def test_an_officer_maps_a_new_name_to_the_player_it_looks_like(site: Site) -> None:
    client = make_client(site)
    token = _login(client, "Claire")
    league = League.open(str(site.db), BE)
    known, other = league.players()[:2]
    spelled = known.upper()  # the same letters but for case: a look-alike
    game = {**GAME, "id": "map-1"}
    game["sides"] = [
        {"players": [spelled], "outcome": "decisive_victory"},
        {"players": [other], "outcome": "defeat"},
    ]
    preview = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("map.jsonl", json.dumps(game).encode(), "text/plain")},
    )
    assert preview.status_code == 200 and "<h1>Aperçu\u202f: " in preview.text
    assert f'<option value="{known}">' in preview.text
    upload = re.search(r"/uploads/(\d+)/confirm", preview.text)
    assert upload
    done = client.post(
        f"/leagues/{BE}/uploads/{upload.group(1)}/confirm",
        data={"csrf_token": token, "name_0": spelled, "map_0": known},
    )
    assert done.status_code == 200
    league = League.open(str(site.db), BE)
    assert spelled not in league.players() and league.aliases() == {spelled: known}
    assert league.explain("map-1").game.sides[0].players[0].name == known


def test_an_uploaded_game_stored_with_other_content_names_the_site_s_way_to_replace_it(
    site: Site,
) -> None:
    """The upload page cannot replace a stored game: its refusal says how the site does it (the
    game's page), not the command line's `--update`; nothing is stored."""
    client = make_client(site)
    token = _login(client, "Claire")
    game = {**GAME, "id": "conflict-1"}
    sent = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("first.jsonl", json.dumps(game).encode(), "text/plain")},
    )
    upload = re.search(r"/uploads/(\d+)/confirm", sent.text)
    assert upload
    client.post(f"/leagues/{BE}/uploads/{upload.group(1)}/confirm", data={"csrf_token": token})
    changed = {
        **game,
        "sides": [GAME["sides"][0], {"players": ["Other Flux"], "outcome": "defeat"}],
    }
    refused = client.post(
        f"/leagues/{BE}/upload",
        data={"csrf_token": token},
        files={"sheet": ("changed.jsonl", json.dumps(changed).encode(), "text/plain")},
    )
    assert refused.status_code == 422
    text = re.sub(r"[ \n]+", " ", re.sub(r"<[^>]+>", " ", refused.text))
    assert "la partie «\u202fconflict-1\u202f» est déjà dans la ligue" in text, text
    # French typography in the heading and before each problem, as in the messages
    assert "Le fichier n’a pas été accepté\u202f: changed.jsonl" in text, text
    assert "changed.jsonl\u202f: ligne 1</span>\u202f: la partie" in refused.text
    assert (
        "pour la remplacer, un responsable du classement corrige la partie depuis sa page" in text
    )
    assert "--update" not in refused.text and "update=true" not in refused.text
    assert "Other Flux" not in League.open(str(site.db), BE).players()
