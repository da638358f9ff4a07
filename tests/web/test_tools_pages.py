"""The officers' tools on the web site: balance teams, compare rule sets, evaluate predictions, as
pages (forms with the CSRF token) and as JSON endpoints (session or API token), against the
library's own answers on the same league (eloleague.tools)."""

from __future__ import annotations

import math
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.engine.methods import expected_score, venue_points
from eloleague.league import League, engine_for
from eloleague.rules import load_rules
from eloleague.tools.balance import balance
from eloleague.tools.evaluate import evaluate
from eloleague.tools.players import player_ratings
from eloleague.web import Settings, create_app
from tests.web.conftest import BE, DIPLO, PASSWORD, Site

BALANCE = f"/leagues/{BE}/tools/balance"
COMPARE = f"/leagues/{BE}/tools/compare"
EVALUATE = f"/leagues/{BE}/tools/evaluate"


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found.group(1)


def _login(client: TestClient, name: str = "Claire") -> str:
    """Sign in; the session's CSRF token."""
    page = client.get("/login").text
    client.post("/login", data={"name": name, "password": PASSWORD, "csrf_token": _csrf(page)})
    return _csrf(client.get("/admin").text)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _players(client: TestClient, n: int) -> list[str]:
    rows = client.get(f"/api/v1/leagues/{BE}", params={"per_page": str(n)}).json()["rows"]
    return [r["player"] for r in rows]


def _teams(body: dict[str, Any]) -> list[tuple[str, ...]]:
    return [tuple(p["player"] for p in t["players"]) for t in body["teams"]]


def _page_teams(html: str) -> list[tuple[str, ...]]:
    tables = re.findall(r'<table class="team-players">(.*?)</table>', html, re.S)
    return [tuple(re.findall(r'/players/[^"]+">([^<]+)</a>', t)) for t in tables]


@pytest.fixture(scope="module")
def league(built_site: Site) -> League:
    return League.open(str(built_site.db), BE)


# balance -------------------------------------------------------------------------------------


def test_balance_page_and_api_give_the_library_s_teams(
    read_client: TestClient, league: League, built_site: Site
) -> None:
    names = _players(read_client, 8)
    apart = [names[0], names[1]]
    together = [names[2], names[7]]
    ratings = player_ratings(league.rules, league.replay_result().pools, names)
    expected = balance(
        ratings,
        teams=2,
        together=[together],
        apart=[apart],
        expected_score=partial(expected_score, league.rules),
    )
    want = [t.players for t in expected.teams]

    api = read_client.post(
        f"/api/v1{BALANCE}",
        json={"players": names, "teams": 2, "together": [together], "apart": [apart]},
        headers=_bearer(built_site.officer_token),
    )
    assert api.status_code == 200, api.text
    body = api.json()
    assert _teams(body) == want
    assert body["exact"] is True and body["method"] == "meet-in-the-middle"
    assert body["spread"] == pytest.approx(expected.spread)
    assert body["expected"] == pytest.approx(expected.expected)
    assert [t["mean"] for t in body["teams"]] == pytest.approx([t.mean for t in expected.teams])
    team_of = {p: i for i, t in enumerate(want) for p in t}
    assert team_of[apart[0]] != team_of[apart[1]] and team_of[together[0]] == team_of[together[1]]

    typo = read_client.post(
        f"/api/v1{BALANCE}",
        json={"players": names, "mode": "blitz"},
        headers={**_bearer(built_site.officer_token), "Accept-Language": "en"},
    )
    assert typo.status_code == 400, typo.text  # not everyone at the start rating
    assert "rule set bataille-empire has no modes" in typo.json()["error"]["message"]

    token = _login(read_client, "Rémi")  # a referee balances teams at an event
    form = read_client.get(BALANCE + "?lang=en")
    assert form.status_code == 200 and 'list="league-players"' in form.text
    assert f'<option value="{names[0]}">' in form.text  # the datalist of the league's players
    page = read_client.post(
        BALANCE,
        data={
            "csrf_token": token,
            "players": "\n".join(names),
            "teams": "2",
            "together": ", ".join(together),
            "apart": ", ".join(apart),
        },
    )
    assert page.status_code == 200, page.text
    assert _page_teams(page.text) == [tuple(t) for t in want]
    assert "This split is the most even possible (proven by meet-in-the-middle)." in page.text
    assert "Expected score of team 1 against team 2" in page.text


def test_balance_reads_its_players_ratings_alone(
    read_client: TestClient, league: League, built_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The teams of players the league knows come from their own pools (League.pools_of), the
    same teams as from the whole league's; a mode the league never played is still refused."""
    names = _players(read_client, 6)
    ratings = player_ratings(league.rules, league.current_pools(), names)
    want = balance(ratings, teams=2, expected_score=partial(expected_score, league.rules))

    def every_pool(self: League) -> None:
        raise AssertionError("the whole league's pools were read")

    monkeypatch.setattr(League, "current_pools", every_pool)
    api = read_client.post(
        f"/api/v1{BALANCE}",
        json={"players": names, "teams": 2},
        headers=_bearer(built_site.officer_token),
    )
    assert api.status_code == 200, api.text
    assert _teams(api.json()) == [t.players for t in want.teams]
    assert [t["mean"] for t in api.json()["teams"]] == pytest.approx([t.mean for t in want.teams])


def test_balance_picks_a_name_from_the_list_and_splits_three_teams(
    read_client: TestClient, league: League
) -> None:
    names = _players(read_client, 9)
    token = _login(read_client)
    added = read_client.post(
        BALANCE,
        data={"csrf_token": token, "players": "\n".join(names[:8]), "add_player": names[8]},
        params={"lang": "en"},
        files={"add": (None, "1")},
    )
    assert added.status_code == 200
    listed = re.search(r'<textarea name="players"[^>]*>([^<]*)</textarea>', added.text)
    assert listed and listed.group(1).split("\n") == names and 'id="result"' not in added.text

    got = read_client.post(
        f"/api/v1{BALANCE}", json={"players": names, "teams": 3, "sizes": [3, 3, 3]}
    )
    assert got.status_code == 200, got.text
    ratings = player_ratings(league.rules, league.replay_result().pools, names)
    expected = balance(
        ratings, teams=3, sizes=[3, 3, 3], expected_score=partial(expected_score, league.rules)
    )
    assert _teams(got.json()) == [t.players for t in expected.teams]
    assert got.json()["exact"] == expected.exact


def test_impossible_balance_requests_are_explained_in_both_languages(
    read_client: TestClient,
) -> None:
    names = _players(read_client, 6)
    three_apart = {"players": names, "teams": 2, "apart": [names[:3]]}
    token = _login(read_client)
    english = read_client.post(f"/api/v1{BALANCE}?lang=en", json=three_apart)
    assert english.status_code == 400
    error = english.json()["error"]
    assert error["code"] == "bad_request"
    assert (
        error["message"]
        == f"{', '.join(names[:3])} must all play apart, but there are only 2 teams"
    )
    french = read_client.post(f"/api/v1{BALANCE}?lang=fr", json=three_apart)
    assert french.status_code == 400
    assert "doivent tous jouer séparés" in french.json()["error"]["message"]

    page = read_client.post(
        BALANCE + "?lang=fr",
        data={"csrf_token": token, "players": "\n".join(names), "apart": ", ".join(names[:3])},
    )
    assert page.status_code == 400
    assert 'role="alert"' in page.text and "doivent tous jouer séparés" in page.text
    assert names[5] in page.text  # the form comes back filled in
    assert "Traceback" not in page.text

    typo = names[1][:-1] + ("x" if names[1][-1] != "x" else "y")
    unknown = read_client.post(
        BALANCE + "?lang=en",
        data={"csrf_token": token, "players": "\n".join([names[0], typo, *names[2:]])},
    )
    assert unknown.status_code == 400
    suggestion = re.search(
        rf"Unknown player &#34;{typo}&#34;; did you mean: ([^<]+)\?", unknown.text
    )
    assert suggestion and names[1] in suggestion.group(1).split(", ")

    sizes = read_client.post(
        BALANCE + "?lang=en",
        data={"csrf_token": token, "players": "\n".join(names), "sizes": "4,x"},
    )
    assert sizes.status_code == 422 and "Team sizes: give whole numbers" in sizes.text

    ffa = read_client.post(f"/api/v1/leagues/{DIPLO}/tools/balance?lang=en", json=three_apart)
    assert ffa.status_code == 400 and "free-for-all" in ffa.json()["error"]["message"]


# compare -------------------------------------------------------------------------------------


def test_compare_with_its_own_rules_shows_no_change(
    read_client: TestClient, built_site: Site
) -> None:
    got = read_client.post(
        f"/api/v1{COMPARE}",
        json={"preset": "bataille-empire"},
        headers=_bearer(built_site.officer_token),
    )
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["identical"] is True and body["changed_entries"] == 0 and body["movers"] == []
    assert all(r["rating_a"] == r["rating_b"] and r["rank_a"] == r["rank_b"] for r in body["rows"])
    assert [s["mean_a"] for s in body["seasons"]] == [s["mean_b"] for s in body["seasons"]]

    token = _login(read_client)
    league = League.open(str(built_site.db), BE)
    page = read_client.post(
        COMPARE + "?lang=en",
        data={"csrf_token": token, "rules": league.rules_text},
        files={"rules_file": ("", b"", "application/octet-stream")},
    )
    assert page.status_code == 200, page.text
    assert "No change: every rating and rank is the same" in page.text


def test_compare_with_another_preset_shows_changes_and_the_chart(
    read_client: TestClient, league: League
) -> None:
    token = _login(read_client)
    page = read_client.post(
        COMPARE + "?lang=fr", data={"csrf_token": token, "preset": "bataille-empire-en"}
    )
    assert page.status_code == 200, page.text
    assert "variations du registre diffèrent" in page.text
    assert "Plus grands changements" in page.text and "Elo moyen par saison" in page.text
    chart = re.search(r'<figure class="season-chart">(<svg.*?</svg>)</figure>', page.text, re.S)
    assert chart and chart.group(1).count('class="series"') == 2

    api = read_client.post(f"/api/v1{COMPARE}", json={"preset": "bataille-empire-en"}).json()
    assert api["identical"] is False and api["rules_b"] == "bataille-empire-en"
    assert len(api["rows"]) == len(league.ranking())
    top = api["rows"][0]
    assert top["rating_b"] - top["rating_a"] == top["delta"]
    assert api["movers"] and all(m["places"] or m["delta"] for m in api["movers"])
    # the league's own column is its ranking
    ranking = {r.player: r.rating for r in league.ranking()}
    assert {r["player"]: r["rating_a"] for r in api["rows"]} == ranking


def test_a_bad_rule_file_comes_back_located_and_translated(read_client: TestClient) -> None:
    token = _login(read_client)
    bad = b'name = "mine"\nmethod = "duel"\nscale = -3\nfoo = 1\n'
    fr = read_client.post(
        COMPARE + "?lang=fr",
        data={"csrf_token": token},
        files={"rules_file": ("club.toml", bad, "text/plain")},
    )
    assert fr.status_code == 422
    assert "Le fichier de règles club.toml est inutilisable" in fr.text
    assert "club.toml, clé foo" in fr.text and "Traceback" not in fr.text
    en = read_client.post(
        f"/api/v1{EVALUATE}?lang=en", json={"rules": "method = [", "filename": "x.toml"}
    )
    assert en.status_code == 422
    error = en.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["problems"][0]["location"] == "x.toml"
    assert error["problems"][0]["message"].startswith("not valid TOML: ")
    unknown = read_client.post(f"/api/v1{COMPARE}?lang=en", json={"preset": "../../etc/passwd"})
    assert unknown.status_code == 422 and "unknown rule set" in unknown.json()["error"]["message"]
    neither = read_client.post(f"/api/v1{COMPARE}?lang=en", json={})
    assert neither.status_code == 422
    misfit = read_client.post(  # seven-player games under a two-sided rule set
        f"/api/v1/leagues/{DIPLO}/tools/compare?lang=en", json={"preset": "bataille-empire"}
    )
    assert misfit.status_code == 422
    error = misfit.json()["error"]
    assert error["message"].startswith("the league's games do not fit rule set bataille-empire")
    assert len(error["problems"]) == 21 and error["problems"][0]["location"].startswith("game ")
    assert error["problems"][-1]["message"].startswith("… and ")


# evaluate ------------------------------------------------------------------------------------


def test_evaluate_gives_the_library_s_metrics(
    read_client: TestClient, league: League, built_site: Site
) -> None:
    expected = evaluate(league.rules, league.games())
    got = read_client.post(f"/api/v1{EVALUATE}", json={}, headers=_bearer(built_site.officer_token))
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["games"] == expected.games
    assert [m["model"] for m in body["models"]] == [m.name for m in expected.models]
    for mine, theirs in zip(body["models"], expected.models, strict=True):
        assert mine["samples"] == theirs.samples
        assert mine["log_loss"] == pytest.approx(theirs.log_loss, abs=1e-12)
        assert mine["brier"] == pytest.approx(theirs.brier, abs=1e-12)
        assert mine["accuracy"] == pytest.approx(theirs.accuracy, abs=1e-12)
        counts = [b["count"] for b in mine["calibration"]]
        assert counts == [b.count for b in theirs.calibration]

    other = read_client.post(
        f"/api/v1{EVALUATE}",
        json={"preset": "bataille-empire-en", "baselines": False},
        headers=_bearer(built_site.officer_token),
    ).json()
    alone = evaluate(load_rules("bataille-empire-en"), league.games(), baselines=False)
    assert [m["model"] for m in other["models"]] == ["bataille-empire-en"]
    assert other["models"][0]["log_loss"] == pytest.approx(alone.models[0].log_loss, abs=1e-12)

    token = _login(read_client)
    page = read_client.post(EVALUATE + "?lang=en", data={"csrf_token": token, "baselines": "on"})
    assert page.status_code == 200, page.text
    first = expected.models[0]
    # each model's row: its name, its predictions under it on a phone, its figures
    row = f'<td>{first.name}<span class="sub narrow-only">{first.samples} predictions</span></td>'
    assert row in page.text and f"{first.log_loss:.4f}" in page.text
    assert "Glicko-2" in page.text and "OpenSkill" in page.text
    assert re.search(r'<figure class="calibration-chart"><svg.*?class="diagonal"', page.text, re.S)
    assert not math.isnan(first.log_loss)


# who may use the tools -------------------------------------------------------------------------


def test_tools_need_a_session_or_a_token(read_client: TestClient, built_site: Site) -> None:
    names = _players(read_client, 4)
    read_client.cookies.clear()
    for path, body in (
        (BALANCE, {"players": names}),
        (COMPARE, {"preset": "bataille-empire-en"}),
        (EVALUATE, {}),
    ):
        got = read_client.post(f"/api/v1{path}", json=body)
        assert got.status_code == 401, (path, got.text)
        assert got.json()["error"]["code"] == "unauthorized"
        assert got.headers["www-authenticate"] == "Bearer"
        forged = read_client.post(f"/api/v1{path}", json=body, headers=_bearer("elo_forged"))
        assert forged.status_code == 401
        page = read_client.get(path, follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"].startswith("/login?next=")
        posted = read_client.post(path, data={"players": "x"}, follow_redirects=False)
        assert posted.status_code == 401
    # a referee may balance, not replay the league
    referee = _bearer(built_site.referee_token)
    ok = read_client.post(f"/api/v1{BALANCE}", json={"players": names}, headers=referee)
    assert ok.status_code == 200
    for path in (COMPARE, EVALUATE):
        refused = read_client.post(
            f"/api/v1{path}", json={"preset": "bataille-empire-en"}, headers=referee
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    _login(read_client, "Rémi")
    assert read_client.get(COMPARE).status_code == 403
    tools = read_client.get(f"/leagues/{BE}/tools?lang=en")
    assert "Balance teams" in tools.text and "Compare rule sets" not in tools.text


def test_tool_forms_without_their_csrf_token_are_refused(read_client: TestClient) -> None:
    names = _players(read_client, 4)
    _login(read_client)
    for path in (BALANCE, COMPARE, EVALUATE):
        for token in (None, "forged-token"):
            data = {"players": "\n".join(names), "preset": "bataille-empire-en"}
            if token:
                data["csrf_token"] = token
            got = read_client.post(path + "?lang=fr", data=data)
            assert got.status_code == 403, (path, got.status_code)
            assert "Le formulaire a expiré" in got.text


def test_the_tools_are_linked_and_documented(read_client: TestClient) -> None:
    assert (
        f"/leagues/{BE.replace(' ', '%20')}/tools"
        not in read_client.get(f"/leagues/{BE}/rules").text
    )
    _login(read_client)
    league_url = f"/leagues/{BE.replace(' ', '%20')}/tools"
    assert league_url in read_client.get(f"/leagues/{BE}/rules").text
    assert league_url in read_client.get("/admin").text
    spec = read_client.get("/api/v1/openapi.json").json()
    for tool in ("balance", "compare", "evaluate"):
        operation = spec["paths"][f"/api/v1/leagues/{{league}}/tools/{tool}"]["post"]
        assert operation["requestBody"]["required"] is True
        assert "401" in operation["responses"]


# balance with a team at home (tests/data/rules/home-club.toml: home_advantage = 100) ----------

HOME_RULES = Path(__file__).parents[1] / "data" / "rules" / "home-club.toml"
CLUB_BALANCE = "/leagues/Club/tools/balance"


@pytest.fixture
def club(tmp_path: Path) -> tuple[TestClient, League, str]:
    """A league starting from published ratings (A 1650, B 1550, C 1450, D 1350), an officer
    and the officer's API token."""
    db = tmp_path / "club.db"
    initial = tmp_path / "ratings.csv"
    rows = ["player,mode,role,rating,games,title"]
    rows += [f"{p},,,{r},20," for p, r in (("A", 1650), ("B", 1550), ("C", 1450), ("D", 1350))]
    initial.write_text("\n".join(rows) + "\n", "utf-8")
    league = League.create(str(db), "Club", str(HOME_RULES), initial=initial)
    engine = engine_for(str(db))
    accounts.add_user(engine, "Claire", PASSWORD, "officer")
    token = accounts.create_token(engine, "Claire")
    app = create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32))
    return TestClient(app, raise_server_exceptions=False), league, token


def test_balance_api_evens_the_teams_with_the_team_at_home(
    club: tuple[TestClient, League, str],
) -> None:
    web, league, token = club
    players = ["A", "B", "C", "D"]
    ratings = player_ratings(league.rules, league.current_pools(), players)
    score = partial(expected_score, league.rules)
    for home in (1, 2):
        got = web.post(
            f"/api/v1{CLUB_BALANCE}",
            json={"players": players, "home": home},
            headers=_bearer(token),
        )
        assert got.status_code == 200, got.text
        body = got.json()
        want = balance(ratings, expected_score=score, bonus=venue_points(league.rules, home - 1))
        assert _teams(body) == [t.players for t in want.teams]
        assert body["home"] == home and body["spread"] == want.spread == 0
        assert [t["advantage"] for t in body["teams"]] == list(want.bonus)
        assert body["expected"] == pytest.approx(want.expected)
    at_home = web.post(
        f"/api/v1{CLUB_BALANCE}", json={"players": players, "home": 1}, headers=_bearer(token)
    ).json()
    assert set(_teams(at_home)[0]) == {"B", "D"}  # 1450 + 100 against 1550
    plain = web.post(f"/api/v1{CLUB_BALANCE}", json={"players": players}, headers=_bearer(token))
    assert set(_teams(plain.json())[0]) == {"A", "D"} and plain.json()["home"] is None

    for lang, message in (
        ("en", 'the side at home is 1 or 2, not "3"'),
        ("fr", "le camp qui reçoit est 1 ou 2, pas «\u202f3\u202f»"),
    ):
        bad = web.post(
            f"/api/v1{CLUB_BALANCE}?lang={lang}",
            json={"players": players, "home": 3},
            headers=_bearer(token),
        )
        assert bad.status_code == 422, bad.text
        assert bad.json()["error"]["problems"] == [{"location": "home", "message": message}]


def test_balance_page_asks_the_team_at_home(club: tuple[TestClient, League, str]) -> None:
    web, _, _ = club
    csrf = _login(web)
    form = web.get(CLUB_BALANCE + "?lang=fr")
    assert form.status_code == 200 and '<select name="home">' in form.text
    assert "Équipe qui reçoit (deux équipes)" in form.text
    # The intro says what a team at home adds (home-club.toml: 100 points).
    assert "Une équipe qui reçoit ajoute à sa moyenne l’avantage du terrain (100 points)." in (
        form.text
    )
    page = web.post(
        CLUB_BALANCE + "?lang=fr",
        data={"csrf_token": csrf, "players": "A\nB\nC\nD", "teams": "2", "home": "2"},
    )
    assert page.status_code == 200, page.text
    assert [set(t) for t in _page_teams(page.text)] == [{"A", "C"}, {"B", "D"}]
    assert "reçoit\u202f: +100" in page.text and '<option value="2" selected>' in page.text
    assert "Écart entre les forces des équipes (moyenne + avantage du terrain)" in page.text
    bad = web.post(
        CLUB_BALANCE + "?lang=en",
        data={"csrf_token": csrf, "players": "A\nB\nC\nD", "teams": "2", "home": "5"},
    )
    assert bad.status_code == 422 and 'role="alert"' in bad.text
    assert "the side at home is 1 or 2, not &#34;5&#34;" in bad.text
    three = web.post(
        CLUB_BALANCE + "?lang=en",
        data={"csrf_token": csrf, "players": "A\nB\nC\nD", "teams": "3", "home": "1"},
    )
    assert three.status_code == 400
    assert "The team at home is one of the two teams of a game, but there are 3 teams" in three.text


def test_balance_without_a_home_advantage_ignores_the_team_at_home(
    read_client: TestClient, built_site: Site
) -> None:
    names = _players(read_client, 6)
    headers = _bearer(built_site.officer_token)
    plain = read_client.post(f"/api/v1{BALANCE}", json={"players": names}, headers=headers)
    home = read_client.post(
        f"/api/v1{BALANCE}", json={"players": names, "home": 2}, headers=headers
    )
    assert home.status_code == 200, home.text
    assert _teams(home.json()) == _teams(plain.json())
    assert home.json()["spread"] == plain.json()["spread"]
    _login(read_client)
    form = read_client.get(BALANCE).text
    assert '<select name="home">' not in form
    assert "A team at home adds" not in form and "Une équipe qui reçoit ajoute" not in form
