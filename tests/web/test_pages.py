"""The public pages: ranking, player with its chart, game, event, rules, titles; languages;
error pages without tracebacks; names escaped."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from eloleague.league import League
from eloleague.rules import load_rules
from eloleague.web import Settings, create_app, views
from eloleague.web.numbers import yearly
from tests.web.conftest import BE, DIPLO, Site, app_of, make_client

EN = {"Accept-Language": "en-GB,en;q=0.9"}


def _top(client: TestClient, league: str = BE) -> dict[str, object]:
    row: dict[str, object] = client.get(
        f"/api/v1/leagues/{league}", params={"per_page": "1"}
    ).json()["rows"][0]
    return row


def test_french_by_default_english_when_the_browser_asks(read_client: TestClient) -> None:
    french = read_client.get(f"/leagues/{BE}", headers={"Accept-Language": ""})
    assert '<html lang="fr">' in french.text and "Classement" in french.text
    english = read_client.get(f"/leagues/{BE}", headers=EN)
    assert '<html lang="en">' in english.text and "Ranking" in english.text
    german_first = read_client.get(
        f"/leagues/{BE}", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
    )
    assert '<html lang="en">' in german_first.text


def test_the_language_switch_is_remembered(site: Site) -> None:
    client = make_client(site)
    switched = client.get(f"/leagues/{BE}?lang=en", headers={"Accept-Language": "fr"})
    assert '<html lang="en">' in switched.text
    assert client.cookies.get("lang") == "en"
    later = client.get(f"/leagues/{BE}/rules", headers={"Accept-Language": "fr"})
    assert '<html lang="en">' in later.text and "K factor" in later.text
    back = client.get(f"/leagues/{BE}/rules?lang=fr")
    assert "Coefficient K" in back.text and "K = 30 pour moins de 8 parties" in back.text
    # on a phone an outcome's label breaks after its underscores, not inside a word
    assert "<code>marginal_<wbr>victory</code>" in back.text


def test_a_query_without_lang_keeps_the_cookie_s_language(site: Site) -> None:
    """The query and the cookies are read only when the request has some (web/language.py):
    a query of other parameters leaves the choice to the cookie, then to Accept-Language."""
    client = make_client(site)
    client.cookies.set("lang", "en")
    paged = client.get(f"/leagues/{BE}", params={"page": 1}, headers={"Accept-Language": "fr"})
    assert '<html lang="en">' in paged.text
    client.cookies.clear()
    bare = client.get(f"/leagues/{BE}", params={"page": 1}, headers={"Accept-Language": "fr"})
    assert '<html lang="fr">' in bare.text
    odd = client.get(f"/leagues/{BE}?lang=de", headers={"Accept-Language": "en;q=0.5"})
    assert '<html lang="en">' in odd.text


def test_ranking_page_lists_players_with_titles_and_pages(read_client: TestClient) -> None:
    top = _top(read_client)
    page = read_client.get(f"/leagues/{BE}?per_page=10", headers=EN).text
    assert (
        f'href="/leagues/{quote(BE, safe="")}/players/{quote(str(top["player"]), safe="")}"' in page
    )
    title = load_rules("bataille-empire").label(str(top["title"]), "en")  # the API keeps the name
    assert str(escape(title)) in page and f">{top['rating']}<" in page
    assert 'rel="next"' in page and "page 1 of" in page
    second = read_client.get(f"/leagues/{BE}?page=2&per_page=5", headers=EN).text
    assert 'rel="prev"' in second
    searched = read_client.get(
        f"/leagues/{BE}", params={"q": str(top["player"])[:5]}, headers=EN
    ).text
    assert str(top["player"]) in searched
    nobody = read_client.get(f"/leagues/{BE}", params={"q": "zzzz-nobody"}, headers=EN).text
    assert "No player matches." in nobody


def test_ranking_page_offers_pools_for_role_leagues(read_client: TestClient) -> None:
    first = read_client.get(f"/leagues/{DIPLO}?lang=en", follow_redirects=False)
    # the global rows of the most played mode (one ranking, each player once)
    assert first.status_code == 307
    assert first.headers["location"].endswith("lang=en&role=%2A&mode=classic")
    every = read_client.get(f"/leagues/{DIPLO}?role=", headers=EN).text
    assert '<option value="" selected>' not in every and ">France<" in every
    page = read_client.get(f"/leagues/{DIPLO}?role=*", headers=EN).text
    assert '<option value="*" selected>global</option>' in page
    assert '<option value="France"' in page and '<option value="blitz"' in page


def test_player_page_chart_and_explanations(read_client: TestClient) -> None:
    top = _top(read_client)
    page = read_client.get(f"/leagues/{BE}/players/{top['player']}", headers=EN).text
    # drawn twice: wide for screens, narrow for phones (CSS shows one)
    assert '<svg class="history-chart chart-wide"' in page
    assert '<svg class="history-chart chart-narrow"' in page
    points = re.findall(r'<circle class="game-point"', page)
    player = read_client.get(f"/api/v1/leagues/{BE}/players/{top['player']}").json()
    games = [c for c in player["changes"] if not c["season"]]
    assert len(points) == 2 * len(games)
    seasons = [c for c in player["changes"] if c["season"]]
    assert page.count('class="season-point"') == 2 * len(seasons)
    if seasons:
        assert "season adjustment" in page
    first = games[0]
    assert f"<dd>{first['expected']}</dd>" in page and f"<dt>K</dt><dd>{first['k']:g}</dd>" in page


def test_a_player_with_a_season_adjustment_has_it_marked(read_client: TestClient) -> None:
    rows = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "50"}).json()["rows"]
    for row in rows:
        history = read_client.get(f"/api/v1/leagues/{BE}/history/{row['player']}").json()
        if any(p["season"] for s in history["series"] for p in s["points"]):
            page = read_client.get(f"/leagues/{BE}/players/{row['player']}", headers=EN).text
            assert 'class="season-mark"' in page and "season adjustment" in page
            assert '<li class="season">' in page
            return
    raise AssertionError("no player of the test league has a season adjustment")


def test_game_event_rules_titles_pages(read_client: TestClient) -> None:
    game = read_client.get(f"/leagues/{BE}/games/g1", headers=EN)
    assert game.status_code == 200 and "How each rating changed" in game.text
    explained = read_client.get(f"/api/v1/leagues/{BE}/games/g1").json()
    first = explained["entries"][0]
    assert "<strong>Decisive victory</strong>" in game.text  # the rule file's wording
    assert f"<dt>K × (S − P)</dt><dd>{first['raw_delta']}</dd>" in game.text  # before rounding
    french = read_client.get(f"/leagues/{BE}/games/g1", headers={"Accept-Language": "fr"}).text
    assert "<strong>Victoire décisive</strong>" in french and "<strong>Défaite</strong>" in french
    assert "Delete this game" not in game.text  # visitors do not see officers' buttons
    events = read_client.get(f"/api/v1/leagues/{BE}/events").json()["events"]
    event = read_client.get(f"/leagues/{BE}/events/{events[-1]['name']}", headers=EN)
    assert event.status_code == 200 and "Standings" in event.text and "Round by round" in event.text
    assert read_client.get(f"/leagues/{BE}/events", headers=EN).text.count("/events/") >= len(
        events
    )
    rules = read_client.get(f"/leagues/{BE}/rules", headers=EN).text
    for words in (
        "K = 30 for fewer than 8 games",
        "Decisive victory",
        "Marshal of the Empire",  # the French preset's titles in English ([labels.en])
        "a rating above 1300 loses 100 points",
        "500 points or more gains nothing",
    ):
        assert str(escape(words)) in rules
    titles = read_client.get(f"/leagues/{BE}/titles", headers=EN).text
    assert "Marshal of the Empire" in titles and "Maréchal" not in titles
    french = read_client.get(f"/leagues/{BE}/titles", headers={"Accept-Language": "fr"}).text
    assert str(escape("Maréchal d'Empire")) in french
    assert read_client.get(f"/leagues/{DIPLO}/titles", headers=EN).status_code == 200


def test_home_lists_the_leagues_and_pages_link_their_json_twin(read_client: TestClient) -> None:
    home = read_client.get("/", headers=EN).text
    assert BE in home and DIPLO in home
    page = read_client.get(f"/leagues/{BE}?per_page=7", headers=EN).text
    twin = re.search(r'<link rel="alternate" type="application/json" href="([^"]+)"', page)
    assert twin
    body = read_client.get(twin.group(1).replace("&amp;", "&")).json()
    assert body["per_page"] == 7 and len(body["rows"]) == 7


def test_error_pages_have_no_traceback(site: Site) -> None:
    client = make_client(site)

    def boom() -> None:
        raise RuntimeError("secret internal detail")

    app_of(client).add_api_route("/api/v1/boom", boom)
    app_of(client).add_api_route("/boom", boom)
    page = client.get("/boom", headers=EN)
    assert page.status_code == 500
    assert "secret internal detail" not in page.text and "Traceback" not in page.text
    assert "Internal error" in page.text
    api = client.get("/api/v1/boom")
    assert api.status_code == 500
    assert api.json() == {
        "error": {
            "code": "internal_error",
            "message": "erreur interne\u202f: le site n’a pas pu répondre",
            "problems": [],
        }
    }
    missing = client.get(f"/leagues/{BE}/players/Personne", headers=EN)
    assert missing.status_code == 404 and "Personne" in missing.text


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", 'A "quoted" & <b>bold</b> name'])
def test_names_are_escaped(site: Site, name: str) -> None:
    client = make_client(site)
    game = {
        "id": "x1",
        "date": "2026-02-01",
        "sides": [
            {"players": [name], "outcome": "marginal_victory"},
            {"players": ["Plain Name"], "outcome": "defeat"},
        ],
    }
    got = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=json.dumps(game),
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert got.status_code == 201, got.text
    for path in (
        f"/leagues/{BE}?q=Plain",
        f"/leagues/{BE}/games/x1",
        f"/leagues/{BE}/players/{quote(name, safe='')}",
    ):
        page = client.get(path + ("&" if "?" in path else "?") + "per_page=1000")
        assert page.status_code == 200, path
        assert "<script>alert" not in page.text and "<b>bold</b>" not in page.text


def test_a_rule_change_elsewhere_shows_at_once(site: Site) -> None:
    from eloleague.league import League

    client = make_client(site)
    assert "Rules: bataille-empire<" in client.get(f"/leagues/{BE}/rules", headers=EN).text
    before = client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    League.open(str(site.db), BE).change_rules("bataille-empire-en")  # as the CLI would
    assert "Rules: bataille-empire-en<" in client.get(f"/leagues/{BE}/rules", headers=EN).text
    after = client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    assert before["title"] == "Maréchal d'Empire" and after["title"] == "Marshal of the Empire"


def test_the_row_count_agrees_with_its_number(read_client: TestClient) -> None:
    top = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    one = read_client.get(f"/leagues/{BE}", params={"q": top["player"], "lang": "fr"}).text
    assert " · 1 ligne<" in one and "1 lignes" not in one
    many = read_client.get(f"/leagues/{BE}", params={"lang": "fr"}).text
    assert re.search(r" · \d+ lignes<", many)


def test_a_team_game_on_the_player_page_names_partners_and_opponents(site: Site) -> None:
    from eloleague.league import League
    from eloleague.records import GameRecord, Participant, Side

    cards = League.create(str(site.db), "Cartes", "card-battle")
    cards.import_games(
        [
            GameRecord(
                dt.date(2025, 5, 1),
                (
                    Side((Participant("Ana"), Participant("Bea")), "3-0"),
                    Side((Participant("Cy"), Participant("Dan")), "0-3"),
                ),
                id="t1",
            )
        ],
        source="test",
    )
    page = make_client(site).get("/leagues/Cartes/players/Ana", params={"lang": "fr"}).text
    assert " · avec Bea<" in page and "contre Cy, Dan<" in page


def test_a_database_of_one_league_opens_on_its_ranking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one league, the home page sends the visitor to its ranking at once, without the
    summaries a home page of several leagues shows (their latest events cost a read each)."""
    db = tmp_path / "one.db"
    League.create(str(db), "Ligue d'Île-de-France", "bataille-empire")
    client = TestClient(create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32)))

    def summaries(*_: object) -> None:
        raise AssertionError("the home page's summaries were computed")

    monkeypatch.setattr(views, "leagues", summaries)
    home = client.get("/", follow_redirects=False)
    assert home.status_code == 303
    assert home.headers["location"] == "/leagues/" + quote("Ligue d'Île-de-France", safe="")
    assert client.get(home.headers["location"]).status_code == 200


def test_why_a_game_is_not_rated_is_said_in_the_page_s_language(site: Site) -> None:
    """A Diplomacy game lacking countries: its page and its event's say why it is not rated in
    the page's language, the countries as the rule set's labels name them (the reason came in
    English on a French page: « Non classée : incomplete: no player for England, … »)."""
    league = League.open(site.url, DIPLO)
    rules = league.rules
    sides = [
        {"players": [{"name": f"Joueur {n}", "role": role}], "score": 10 - n}
        for n, role in enumerate(rules.roles[:5])
    ]
    game = {"id": "five-of-seven", "date": "2025-06-01", "mode": "classic", "event": "Open 2025"}
    path = site.db.parent / "incomplete.jsonl"
    path.write_text(json.dumps({**game, "sides": sides}) + "\n", encoding="utf-8")
    league.import_file(path)
    client = make_client(site)
    missing = rules.roles[5:]
    for url in (f"/leagues/{DIPLO}/games/five-of-seven", f"/leagues/{DIPLO}/events/Open 2025"):
        french = client.get(url, headers={"Accept-Language": "fr"}).text
        shown = ", ".join(rules.label(r, "fr") for r in missing)
        assert f"incomplète\u202f: aucun joueur pour {shown}</p>" in french, url
        assert "incomplete" not in french and missing[0] not in french, url
        english = client.get(url, headers=EN).text
        assert f"incomplete: no player for {', '.join(missing)}</p>" in english, url
    # the API answers in the asker's language too (a game's page and its event's, as JSON)
    shown = ", ".join(rules.label(r, "fr") for r in missing)
    api = f"/api/v1/leagues/{DIPLO}"
    for lang, reason in (
        ("fr", f"incomplète\u202f: aucun joueur pour {shown}"),
        ("en", f"incomplete: no player for {', '.join(missing)}"),
    ):
        asked = {"Accept-Language": lang}
        played = client.get(f"{api}/games/five-of-seven", headers=asked).json()
        assert played["unrated_reason"] == reason
        held = client.get(f"{api}/events/Open 2025", headers=asked).json()
        assert [g["unrated_reason"] for g in held["games"]] == [reason]


def test_a_game_ranked_by_score_lists_its_sides_by_place(site: Site) -> None:
    """A Diplomacy game's page lists its players by place, tied ones sharing it (numbered in the
    order they were given, 1. to 7., its sides read as places they were not); the API gives
    each side's place, the ledger's rank."""
    league = League.open(site.url, DIPLO)
    game = next(g for g in league.games() if g.rated and len({s.score for s in g.sides}) < 7)
    entries = league.explain(game.id or "").entries
    rank = {e.key.player: e.rank for e in entries if e.rank is not None}
    assert len(rank) == 7
    client = make_client(site)
    page = client.get(f"/leagues/{DIPLO}/games/{quote(game.id or '', safe='')}", headers=EN).text
    listed = re.findall(r'<li value="(\d+)"><a href="[^"]*">([^<]+)</a>', page)
    assert [(int(n), p) for n, p in listed] == sorted(
        ((rank[s.players[0].name], str(escape(s.players[0].name))) for s in game.sides),
        key=lambda x: x[0],
    )
    assert [int(n) for n, _ in listed] != list(range(1, 8))  # a tie shares its place
    # each player's change in the same order (it was the order the sides were given)
    changes = page.split('class="changes', 1)[1]
    changed = re.findall(r'<span class="what"><strong>([^<]+)</strong>', changes)
    assert changed == [p for _, p in listed]
    api = client.get(f"/api/v1/leagues/{DIPLO}/games/{quote(game.id or '', safe='')}").json()
    assert [s["place"] for s in api["game"]["sides"]] == [
        rank[s.players[0].name] for s in game.sides
    ]
    # an event's page sums its games up in the same order
    sides = [
        {"players": [{"name": f"Joueur {n}", "role": role}], "score": score}
        for n, (role, score) in enumerate(
            zip(league.rules.roles, [1, 9, 4, 4, 0, 12, 2], strict=True)
        )
    ]
    path = site.db.parent / "ranked.jsonl"
    held = {"id": "ranked-1", "date": "2025-06-02", "mode": "classic", "event": "Coupe 2025"}
    path.write_text(json.dumps({**held, "sides": sides}) + "\n", encoding="utf-8")
    league.import_file(path)
    summary = client.get(f"/leagues/{DIPLO}/events/Coupe 2025", headers=EN).text
    order = [int(n) for n in re.findall(r"Joueur (\d)", summary.split('class="what"')[1])[:7]]
    assert order == [5, 1, 2, 3, 6, 0, 4]  # 12, 9, 4, 4, 2, 1, 0
    changes = summary.split('class="changes', 2)[2]  # the game's changes, below its summary
    changed = [int(n) for n in re.findall(r"<strong>Joueur (\d)</strong>", changes)]
    assert changed == order
    api_event = client.get(f"/api/v1/leagues/{DIPLO}/events/Coupe 2025").json()
    (held_game,) = api_event["games"]
    assert [e["player"] for e in held_game["entries"]] == [f"Joueur {n}" for n in order]
    be = League.open(site.url, BE).games()[0]
    duel = client.get(f"/api/v1/leagues/{BE}/games/{quote(be.id or '', safe='')}").json()
    assert all("place" not in s for s in duel["game"]["sides"])  # a duel's sides are sides


def test_the_rules_page_says_a_season_s_end_as_a_day_of_the_year(
    read_client: TestClient,
) -> None:
    """The season's end reads as a date in the visitor's language: « (le 31 décembre) », « (ending
    31 December) »; it read « le 12-31 », the rule file's MM-DD; the JSON twin says the same."""
    french = read_client.get(f"/leagues/{BE}/rules", headers={"Accept-Language": "fr"}).text
    assert "À la fin de chaque saison (le 31 décembre), " in french and "12-31" not in french
    english = read_client.get(f"/leagues/{BE}/rules", headers=EN).text
    assert "At the end of each season (ending 31 December), " in english
    twin = read_client.get(f"/api/v1/leagues/{BE}/rules", headers=EN).text
    assert "(ending 31 December)" in twin and "12-31" not in twin
    assert yearly("07-01", "fr") == "1er juillet" and yearly("02-29", "en") == "29 February"


@pytest.mark.parametrize(
    ("change", "shown"),
    [(12, "+12"), (-4, "-4"), (0, "0"), (2.5, "+2.5"), (-0.04, "0.0"), (-0.0, "0")],
)
def test_a_change_that_rounds_to_nothing_has_no_sign(change: float, shown: str) -> None:
    """A page's change (``signed``): -0.04 read « -0.0 », a loss of nothing."""
    from eloleague.web.numbers import signed

    assert signed(change) == shown
