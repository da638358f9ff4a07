"""``GET /api/v1/leagues/{league}/verification`` and ``POST …/recompute`` (docs/web.md, "JSON
API"): an officer's token only; a league as its imports left it agrees; a hand edit of its
history is found where it is, the repair makes it agree again and is in the journal."""

from __future__ import annotations

import sqlite3

from fastapi.testclient import TestClient

from eloleague.league import League
from tests.web.conftest import BE, Site
from tests.web.test_openapi import _answer_schema


def _officer(site: Site) -> dict[str, str]:
    return {"Authorization": f"Bearer {site.officer_token}"}


def test_only_an_officer_verifies_or_recomputes(client: TestClient, site: Site) -> None:
    referee = {"Authorization": f"Bearer {site.referee_token}"}
    for method, path in (("GET", "verification"), ("POST", "recompute")):
        url = f"/api/v1/leagues/{BE}/{path}"
        assert client.request(method, url).status_code == 401
        assert client.request(method, url, headers=referee).status_code == 403
        missing = client.request(method, f"/api/v1/leagues/Nowhere/{path}", headers=_officer(site))
        assert missing.status_code == 404


def test_a_league_agrees_then_a_hand_edit_is_found_and_repaired(
    client: TestClient, site: Site
) -> None:
    league = League.open(site.url, BE)
    games, entries, pools = len(league.games()), len(league.ledger()), len(league.current_pools())
    url = f"/api/v1/leagues/{BE}/verification"
    fine = client.get(url, headers=_officer(site))
    assert fine.status_code == 200, fine.text
    assert fine.json() == {
        "league": BE,
        "agrees": True,
        "games": games,
        "history_entries": entries,
        "ratings": pools,
        "rating_differences": [],
        "history_differences": 0,
        "first_history_differences": [],
        "live_state_differences": [],
        "checkpoints": fine.json()["checkpoints"],
        "checkpoint_differences": [],
    }
    assert fine.json()["checkpoints"] >= 1

    entry = league.ledger()[7]
    with sqlite3.connect(site.db) as conn:
        conn.execute(
            'UPDATE ledger SET "after" = "after" + 2 WHERE seq = 7 AND league_id = ?',
            (league.id,),
        )
        conn.execute("DELETE FROM ledger WHERE seq = ? AND league_id = ?", (entries - 1, league.id))
    found = client.get(url, headers=_officer(site)).json()
    assert found["agrees"] is False and found["history_differences"] == 2
    document = client.get("/api/v1/openapi.json").json()  # the answers are as documented
    _answer_schema(document, "/api/v1/leagues/{league}/verification", "get", 200).validate(found)
    first, last = found["first_history_differences"]
    assert first == {
        "entry": 8,
        "game": entry.game,
        "player": entry.key.player,
        "mode": entry.key.mode,
        "role": entry.key.role,
        "fields": ["after"],
        "stored": {"after": entry.after + 2},
        "replayed": {"after": entry.after},
    }
    assert (last["entry"], last["fields"], last["stored"]) == (entries, ["missing"], {})
    assert last["replayed"]["seq"] == entries - 1  # the whole entry the history lacks

    done = client.post(f"/api/v1/leagues/{BE}/recompute", headers=_officer(site))
    assert done.status_code == 200, done.text
    assert done.json() == {"league": BE, "ratings_changed": 0}
    _answer_schema(document, "/api/v1/leagues/{league}/recompute", "post", 200).validate(
        done.json()
    )
    assert client.get(url, headers=_officer(site)).json()["agrees"] is True
    journal = client.get(
        f"/api/v1/leagues/{BE}/journal", params={"limit": "1"}, headers=_officer(site)
    ).json()["entries"]
    assert [(j["action"], j["user"]) for j in journal] == [("recompute", "Claire")]


def test_an_officer_checks_and_repairs_a_league_on_the_site(site: Site) -> None:
    from tests.web.conftest import make_client
    from tests.web.test_officer_flows import _login

    league = League.open(site.url, BE)
    entry = league.ledger()[2]
    officer = make_client(site)
    officer.cookies.set("lang", "fr")
    token = _login(officer, "Claire")
    assert "Vérifier les cotes" in officer.get("/admin").text
    page = officer.post(f"/leagues/{BE}/verify", data={"csrf_token": token})
    assert page.status_code == 200, page.text
    assert "sont celles d’un rejeu complet de ses parties" in page.text
    assert "Recalculer depuis les parties" not in page.text  # nothing to repair

    with sqlite3.connect(site.db) as conn:
        conn.execute(
            "UPDATE ledger SET delta = delta + 1 WHERE seq = 2 AND league_id = ?", (league.id,)
        )
    page = officer.post(f"/leagues/{BE}/verify", data={"csrf_token": token})
    assert "diffèrent d’un rejeu complet" in page.text
    assert "1 ligne de l’historique diffère" in page.text
    assert entry.key.player in page.text and entry.game in page.text
    assert f"variation\u202f: {entry.delta + 1:g}".replace(".", ",") in page.text
    done = officer.post(f"/leagues/{BE}/recompute", data={"csrf_token": token})
    assert done.status_code == 200 and "recalculée depuis ses parties" in done.text
    assert League.open(site.url, BE).verify().agrees

    referee = make_client(site)
    referee_token = _login(referee, "Rémi")
    assert "Vérifier les cotes" not in referee.get("/admin").text
    assert (
        referee.post(f"/leagues/{BE}/verify", data={"csrf_token": referee_token}).status_code == 403
    )
    assert officer.post(f"/leagues/{BE}/verify", data={}).status_code == 403  # no CSRF token
