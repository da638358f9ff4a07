"""Generate the bundled demo leagues (one per preset), deterministically.

    python scripts/make_demo_data.py            # writes src/eloleague/data/demo/*.jsonl

Players have a hidden strength; results follow it with some luck, so the rankings look like a
real community's: a few strong generals, a crowd in the middle, newcomers arriving every season.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "eloleague" / "data" / "demo"

FIRST = [
    "Alice",
    "Bruno",
    "Chloé",
    "David",
    "Élodie",
    "François",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Julien",
    "Karim",
    "Léa",
    "Mathieu",
    "Nadia",
    "Olivier",
    "Pauline",
    "Quentin",
    "Rose",
    "Sébastien",
    "Thérèse",
    "Ulysse",
    "Valérie",
    "William",
    "Yasmine",
    "Zoé",
    "Antoine",
    "Bérénice",
    "Cédric",
    "Delphine",
    "Étienne",
    "Fanny",
    "Grégoire",
    "Hélène",
    "Isabelle",
    "Jérôme",
    "Laurent",
]
LAST = [
    "Martin",
    "Bernard",
    "Dubois",
    "Thomas",
    "Robert",
    "Richard",
    "Petit",
    "Durand",
    "Leroy",
    "Moreau",
    "Simon",
    "Laurent",
    "Lefèbvre",
    "Michel",
    "Garcia",
    "David",
    "Bertrand",
    "Roux",
    "Vincent",
    "Fournier",
    "Morel",
    "Girard",
    "André",
    "Mercier",
    "Dupont",
    "Lambert",
    "Bonnet",
    "François",
    "Martinez",
    "Legrand",
    "Garnier",
    "Faure",
    "Rousseau",
    "Blanc",
    "Guérin",
    "Müller",
]
TOWNS = [
    "Austerlitz",
    "Lyon",
    "Toulouse",
    "Nantes",
    "Lille",
    "Bordeaux",
    "Strasbourg",
    "Rennes",
    "Dijon",
    "Grenoble",
    "Liège",
    "Genève",
    "Montréal",
    "Namur",
]
ROLES = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]


def people(rng: random.Random, n: int) -> list[tuple[str, float]]:
    names: set[str] = set()
    while len(names) < n:
        names.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
    return [(name, rng.gauss(0, 1)) for name in sorted(names)]


def win_probability(a: float, b: float) -> float:
    return 1 / (1 + 10 ** ((b - a) * 0.6))


def duel_league(
    rng: random.Random, labels: dict[str, list[str]], team_max: int, seasons: range
) -> list[dict[str, object]]:
    """Events of 3-5 rounds; games mostly 1 v 1, some team games when allowed."""
    roster = people(rng, 48)
    active = roster[:24]
    games: list[dict[str, object]] = []
    n = 0
    for year in seasons:
        active = [p for p in active if rng.random() > 0.12]
        active += [p for p in roster if p not in active][:6]  # newcomers each season
        for month in sorted(rng.sample(range(1, 13), 5)):
            town = rng.choice(TOWNS)
            event = f"{town} {year}-{month:02d}"
            day = dt.date(year, month, rng.randint(1, 26))
            present = rng.sample(active, k=min(len(active), rng.randint(10, 16)))
            for rnd in range(1, rng.randint(3, 5) + 1):
                rng.shuffle(present)
                size = rng.choice([1, 1, 1, 2, 3]) if team_max > 1 else 1
                pool = list(present)
                while len(pool) >= 2 * size:
                    side_a = [pool.pop() for _ in range(size)]
                    side_b = [pool.pop() for _ in range(size)]
                    sa = sum(s for _, s in side_a) / size
                    sb = sum(s for _, s in side_b) / size
                    p = win_probability(sa, sb)
                    roll = rng.random()
                    if roll < 0.08:
                        oa = ob = labels["draw"][0]
                    elif roll < 0.08 + 0.92 * p:
                        oa, ob = rng.choice(labels["win"]), labels["loss"][0]
                    else:
                        oa, ob = labels["loss"][0], rng.choice(labels["win"])
                    n += 1
                    games.append(
                        {
                            "id": f"{town[:3].upper()}{year}{month:02d}-{n}",
                            "date": (day + dt.timedelta(days=(rnd - 1) // 3)).isoformat(),
                            "event": event,
                            "round": rnd,
                            "sides": [
                                {"players": [x for x, _ in side_a], "outcome": oa},
                                {"players": [x for x, _ in side_b], "outcome": ob},
                            ],
                        }
                    )
    return games


def card_league(rng: random.Random) -> list[dict[str, object]]:
    roster = people(rng, 40)
    results = ["3-0", "3-1", "3-2"]
    mirror = {"3-0": "0-3", "3-1": "1-3", "3-2": "2-3"}
    games: list[dict[str, object]] = []
    day = dt.date(2024, 1, 1)
    for n in range(900):
        day += dt.timedelta(days=rng.choice([0, 0, 0, 1]))
        size_a, size_b = rng.randint(1, 3), rng.randint(1, 3)
        chosen = rng.sample(roster, size_a + size_b)
        a, b = chosen[:size_a], chosen[size_a:]
        p = win_probability(sum(s for _, s in a) / size_a, sum(s for _, s in b) / size_b)
        won = rng.choice(results)
        oa, ob = (won, mirror[won]) if rng.random() < p else (mirror[won], won)
        games.append(
            {
                "id": f"c{n + 1}",
                "date": day.isoformat(),
                "sides": [
                    {"players": [x for x, _ in a], "outcome": oa},
                    {"players": [x for x, _ in b], "outcome": ob},
                ],
            }
        )
    return games


def diplomacy_league(rng: random.Random) -> list[dict[str, object]]:
    roster = people(rng, 30)
    games: list[dict[str, object]] = []
    day = dt.date(2023, 2, 1)
    for n in range(260):
        day += dt.timedelta(days=rng.randint(1, 4))
        players = rng.sample(roster, 7)
        scores = sorted((max(-1, round(rng.gauss(s * 3 + 5, 4))) for _, s in players), reverse=True)
        rng.shuffle(scores)
        sides = [
            {"players": [{"name": name, "role": role}], "score": score}
            for (name, _), role, score in zip(players, rng.sample(ROLES, 7), scores, strict=True)
        ]
        games.append(
            {
                "id": f"d{n + 1}",
                "date": day.isoformat(),
                "mode": rng.choice(["classic", "classic", "blitz"]),
                "sides": sides,
            }
        )
    return games


def write(name: str, games: list[dict[str, object]]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / f"{name}.jsonl").open("w", encoding="utf-8") as out:
        for game in games:
            out.write(json.dumps(game, ensure_ascii=False) + "\n")
    print(f"{name}: {len(games)} games")


def main() -> None:
    be = {
        "win": ["marginal_victory", "decisive_victory", "overwhelming_victory"],
        "loss": ["defeat"],
        "draw": ["draw"],
    }
    write("bataille-empire", duel_league(random.Random(1805), be, 3, range(2022, 2026)))
    write("bataille-empire-en", duel_league(random.Random(1815), be, 3, range(2022, 2026)))
    adlg = {"win": ["victory"], "loss": ["defeat"], "draw": ["draw"]}
    write("adlg", duel_league(random.Random(1066), adlg, 1, range(2021, 2026)))
    write("card-battle", card_league(random.Random(3)))
    write("diplomacy", diplomacy_league(random.Random(1901)))


if __name__ == "__main__":
    main()
