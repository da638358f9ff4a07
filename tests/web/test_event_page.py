"""The event page: dates, standings (games, points, rating change, performance rating), the
round-by-round table, and the games compactly with their explanation on demand."""

from __future__ import annotations

from collections import Counter, defaultdict

from fastapi.testclient import TestClient

from eloleague.league import League
from tests.web.conftest import BE, Site

EN = {"Accept-Language": "en"}


def test_standings_agree_with_the_ledger(read_client: TestClient, built_site: Site) -> None:
    name = read_client.get(f"/api/v1/leagues/{BE}/events").json()["events"][0]["name"]
    data = read_client.get(f"/api/v1/leagues/{BE}/events/{name}").json()
    league = League.open(str(built_site.db), BE)
    report = league.event(name)
    games: Counter[str] = Counter()
    points: dict[str, float] = defaultdict(float)
    delta: dict[str, float] = defaultdict(float)
    opponents: dict[str, list[float]] = defaultdict(list)
    for g in report.games:
        for e in g.entries:
            games[e.key.player] += 1
            points[e.key.player] += e.score or 0.0
            delta[e.key.player] += e.delta
            opponents[e.key.player].append(e.opponent or 0.0)
    rows = {s["player"]: s for s in data["standings"]}
    assert set(rows) == set(games)
    for player, row in rows.items():
        assert row["games"] == games[player]
        assert row["points"] == round(points[player], 3)
        assert row["delta"] == round(delta[player])
        n = len(opponents[player])
        scale = league.rules.scale  # D of the rule set's expected score
        want = sum(opponents[player]) / n + scale * (2 * points[player] - n) / n
        assert abs(row["performance"] - want) <= 0.5  # shown as a whole number
    ordered = [s["points"] for s in data["standings"]]
    assert ordered == sorted(ordered, reverse=True)
    ranks = [s["rank"] for s in data["standings"]]
    for n in range(1, len(ranks)):  # ties on points share a rank
        assert ranks[n] == (ranks[n - 1] if ordered[n] == ordered[n - 1] else n + 1)
    days = sorted(g.game.date for g in report.games)
    assert (data["first"], data["last"]) == (days[0].isoformat(), days[-1].isoformat())


def test_round_by_round_names_each_opponent_by_number(read_client: TestClient) -> None:
    name = read_client.get(f"/api/v1/leagues/{BE}/events").json()["events"][0]["name"]
    data = read_client.get(f"/api/v1/leagues/{BE}/events/{name}").json()
    number = {s["player"]: s["number"] for s in data["standings"]}
    by_number = {v: k for k, v in number.items()}
    for g in data["games"]:
        if not g["entries"] or g["game"]["round"] is None:
            continue
        first, second = g["game"]["sides"][0], g["game"]["sides"][1]
        a, b = first["players"][0]["name"], second["players"][0]["name"]
        cells = data["standings"][number[a] - 1]["rounds"][str(g["game"]["round"])]
        assert any(number[b] in c["against"] for c in cells)
        assert by_number[number[b]] == b
    page = read_client.get(f"/leagues/{BE}/events/{name}", headers=EN).text
    assert "Round by round" in page and 'class="rounds"' in page
    assert page.count("<details>") == len(data["games"]) + sum(
        len(g["entries"]) for g in data["games"]
    )
