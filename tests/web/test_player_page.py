"""The player page as a player reads it: rank, peak rating and its date, games, wins, draws and
losses (free-for-all: average place), events played, the next title and what it needs,
head-to-head, the last games compactly, and one chart line at a time for many pools."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import player_facts
from tests.web.conftest import BE, DIPLO, Site, make_client

EN = {"Accept-Language": "en"}


def _busiest(client: TestClient, league: str, **params: str) -> str:
    rows = client.get(f"/api/v1/leagues/{league}", params={"per_page": "1000", **params}).json()
    return str(max(rows["rows"], key=lambda r: (r["games"], r["player"]))["player"])


def test_record_peak_events_and_head_to_head_agree_with_the_games(
    read_client: TestClient, built_site: Site
) -> None:
    name = _busiest(read_client, BE)
    data = read_client.get(f"/api/v1/leagues/{BE}/players/{name}").json()
    league = League.open(str(built_site.db), BE)
    report = league.player(name)
    wins = draws = losses = 0
    opponents: Counter[str] = Counter()
    for game in report.games:
        mine = next(s for s in game.sides if any(p.name == name for p in s.players))
        value = league.rules.outcomes[str(mine.outcome)].score
        wins += value > 0.5
        draws += value == 0.5
        losses += value < 0.5
        for side in game.sides:
            if side is not mine:
                opponents.update(p.name for p in side.players)
    record = data["record"]
    assert (record["games"], record["wins"], record["draws"], record["losses"]) == (
        len(report.games),
        wins,
        draws,
        losses,
    )
    assert data["events_played"] == len({g.event for g in report.games if g.event})
    assert {h["opponent"]: h["games"] for h in data["head_to_head"]} == dict(opponents)
    after_games = [
        (r, e.date) for e, r in zip(report.history, report.ratings, strict=True) if e.game
    ]
    best = max(r for r, _ in after_games)
    assert data["peak"]["rating"] == round(best)
    assert data["peak"]["date"] == next(d for r, d in after_games if r == best).isoformat()
    page = read_client.get(f"/leagues/{BE}/players/{name}", headers=EN).text
    assert "Peak rating" in page and "Wins · draws · losses" in page
    assert f"{wins} · {draws} · {losses}" in page
    assert "Head-to-head" in page
    # the last 20 changes are listed, the others one link away
    assert page.count("<details>\n    <summary>") == min(20, len(data["changes"]))
    if len(data["changes"]) > 20:
        assert "?changes=all#changes" in page
        every = read_client.get(f"/leagues/{BE}/players/{name}?changes=all", headers=EN).text
        assert every.count("<details>\n    <summary>") == len(data["changes"])


def test_next_title_says_what_it_needs(built_site: Site) -> None:
    rules = League.open(str(built_site.db), BE).rules
    lowest, above = rules.titles[-1], rules.titles[-2]
    assert above.min_rating is not None
    rating = above.min_rating - 30
    games = max(lowest.min_games, above.min_games)
    found = player_facts.next_title(rules, rating, games)
    assert found is not None and found["title"] == above.name
    assert found["rating_needed"] == 30 and found["games_needed"] == 0
    top = rules.titles[0]
    assert top.min_rating is not None
    assert player_facts.next_title(rules, top.min_rating + 1, 10**6) is None


def test_a_diplomacy_player_sees_ranks_average_place_and_one_line(
    read_client: TestClient, built_site: Site
) -> None:
    name = _busiest(read_client, DIPLO, role="*", mode="")
    data = read_client.get(f"/api/v1/leagues/{DIPLO}/players/{name}").json()
    assert data["record"]["average_place"] is not None and 1 <= data["record"]["average_place"] <= 7
    globals_ = [p for p in data["pools"] if p["role"] == "*"]
    assert globals_ and all(1 <= p["rank"] <= p["of"] for p in data["pools"])
    page = read_client.get(f"/leagues/{DIPLO}/players/{name}", headers=EN).text
    assert "Average place" in page and "Wins · draws · losses" not in page
    # Its roles are countries (the rule file's role_heading): the pages say so.
    assert "Mode and country" in page and ">rating<" not in page
    french = read_client.get(f"/leagues/{DIPLO}/players/{name}", headers={"Accept-Language": "fr"})
    assert "Mode et pays" in french.text and "rôle" not in french.text.lower()
    for lang, word in (("en", "Country"), ("fr", "Pays")):
        every_country = {"role": "", "mode": "classic"}  # the column of each row's country
        ranking = read_client.get(
            f"/leagues/{DIPLO}", params=every_country, headers={"Accept-Language": lang}
        ).text
        assert f'<label>{word} <select name="role">' in ranking
        assert f'<th class="wide-only">{word}</th>' in ranking and "Role" not in ranking
    if len(data["history"]) > 3:  # many pools: one line at a time, picked in a list
        assert page.count('<path class="series"') == 2  # the wide and the narrow drawing
        chosen = data["history"][0]["name"]
        picked = read_client.get(
            f"/leagues/{DIPLO}/players/{name}", params={"pool": chosen}, headers=EN
        ).text
        assert re.search(rf'<path class="series" data-pool="{re.escape(chosen)}"', picked)
        assert f'<option value="{chosen}" selected>' in picked
        # In French the lines are named as the reader reads them, picked by the same value.
        french_picked = read_client.get(
            f"/leagues/{DIPLO}/players/{name}", params={"pool": chosen, "lang": "fr"}
        ).text
        mode, role = data["history"][0]["mode"], data["history"][0]["role"]
        rules = League.open(str(built_site.db), DIPLO).rules
        seen = " · ".join(rules.label(x, "fr") for x in (mode, role) if x)
        assert f'<option value="{chosen}" selected>{seen}</option>' in french_picked
        assert not re.search(r">[^<]*(England|Germany)[^<]*<", french_picked)  # in no text shown


def test_a_single_pool_player_has_no_pool_table(read_client: TestClient) -> None:
    name = _busiest(read_client, BE)
    page = read_client.get(f"/leagues/{BE}/players/{name}", params={"lang": "fr"}).text
    assert '<table class="pools">' not in page  # no "Classement | Elo" table with a row "Elo"
    assert "<dt>Rang</dt>" in page and "<small>sur " in page


def test_what_the_next_title_needs_is_said_with_the_right_number(tmp_path: Path) -> None:
    """ "1 more point", "2 more points", "encore 1 partie": the counts take their noun's form in
    both languages (players placed just under a title by a starting list)."""
    db = tmp_path / "titles.db"
    points = tmp_path / "be.csv"
    points.write_text("player,mode,role,rating,games\nAna,,,1199,5\nBob,,,1198,5\n", "utf-8")
    League.create(str(db), "Empire", "bataille-empire", initial=points)
    games = tmp_path / "adlg.csv"
    games.write_text("player,mode,role,rating,games\nCléo,,,1300,9\nDan,,,1300,8\n", "utf-8")
    League.create(str(db), "Guerre", "adlg", initial=games)
    client = make_client(Site(db, "", ""))

    def said(league: str, name: str, lang: str) -> str:
        page = client.get(f"/leagues/{league}/players/{name}", params={"lang": lang}).text
        found = re.search(r"· ((?:encore )?\d+ [a-z ]+?)</small>", page)
        assert found is not None, page
        return found.group(1)

    assert said("Empire", "Ana", "en") == "1 more point"
    assert said("Empire", "Bob", "en") == "2 more points"
    assert said("Empire", "Ana", "fr") == "encore 1 point"
    assert said("Empire", "Bob", "fr") == "encore 2 points"
    assert said("Guerre", "Cléo", "en") == "1 more game"
    assert said("Guerre", "Dan", "fr") == "encore 2 parties"


def test_the_title_under_the_name_is_in_the_page_s_language(read_client: TestClient) -> None:
    """The badge under a player's name and the title in her facts name it alike, in the page's
    language (the badge showed the rule file's name: "Colonel" on an English page)."""
    name = _busiest(read_client, BE)
    badges = {}
    for lang in ("en", "fr"):
        page = read_client.get(f"/leagues/{BE}/players/{name}", params={"lang": lang}).text
        badge = re.search(r'<p class="title-badge">([^<]+)</p>', page)
        fact = re.search(r"<dt>(?:Title|Grade)</dt><dd>([^<]+?)\s*<", page)
        assert badge is not None and fact is not None, lang
        assert badge.group(1) == fact.group(1), lang
        badges[lang] = badge.group(1)
    assert badges["en"] != badges["fr"]  # bataille-empire names its titles in both languages
