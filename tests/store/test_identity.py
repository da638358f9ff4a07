"""Player identity (docs/league.md, "Player identity"): a federation id, a club and a region per
player, carried by the files, matched by id first; two players of one name told apart."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest

from eloleague.errors import EloleagueError, InputError
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import identity
from eloleague.store.db import read
from eloleague.store.identity import Identity, namesakes, namesakes_of


def _game(gid: str, day: str, a: dict[str, str] | str, b: dict[str, str] | str, out: str) -> str:
    lose = {"decisive_victory": "defeat", "draw": "draw"}[out]
    return json.dumps(
        {
            "id": gid,
            "date": day,
            "sides": [{"players": [a], "outcome": out}, {"players": [b], "outcome": lose}],
        },
        ensure_ascii=False,
    )


JEAN_1 = {"name": "Jean Dupont", "id": "FR-001", "club": "Lyon", "region": "Rhône"}
JEAN_2 = {"name": "Jean Dupont", "id": "FR-002", "club": "Brest", "region": "Bretagne"}


def _write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def test_two_players_of_one_name_told_apart_by_their_ids(db_url: str, tmp_path: Path) -> None:
    games = _write(
        tmp_path / "g.jsonl",
        _game("g1", "2025-03-01", JEAN_1, "Alice Martin", "decisive_victory"),
        _game("g2", "2025-03-01", JEAN_2, "Bruno Petit", "draw"),
        _game("g3", "2025-03-02", JEAN_1, JEAN_2, "decisive_victory"),
    )
    league = League.create(db_url, "Fédé", "bataille-empire")
    report = league.import_file(games)
    assert report.added == 3
    assert sorted(league.players()) == [
        "Alice Martin",
        "Bruno Petit",
        "Jean Dupont (FR-001)",
        "Jean Dupont (FR-002)",
    ]
    rows = {r.player: r for r in league.ranking()}
    assert rows["Jean Dupont (FR-001)"].games == 2
    assert rows["Jean Dupont (FR-002)"].games == 2
    assert rows["Jean Dupont (FR-001)"].rating > rows["Jean Dupont (FR-002)"].rating
    assert league.identity("FR-002") == Identity("FR-002", "Brest", "Bretagne")
    # The plain name no longer says which one: refused, with both names.
    with pytest.raises(EloleagueError, match="several players are named"):
        league.player("Jean Dupont")
    name_only = _write(
        tmp_path / "h.jsonl", _game("g4", "2025-03-03", "Jean Dupont", "Alice Martin", "draw")
    )
    with pytest.raises(InputError, match="Jean Dupont \\(FR-001\\)"):
        league.import_file(name_only)
    # Importing the same file again adds nothing; the export carries the ids and reads back.
    assert league.import_file(games).added == 0
    out = io.StringIO()
    league.export_jsonl(out)
    copy = League.create(db_url, "Copie", "bataille-empire")
    copy.import_file(_write(tmp_path / "copy.jsonl", out.getvalue().strip()))
    assert [(r.player, r.rating) for r in copy.ranking()] == [
        (r.player, r.rating) for r in league.ranking()
    ]
    assert copy.identities() == league.identities()


def test_an_id_matches_first_then_the_name(db_url: str, tmp_path: Path) -> None:
    league = League.create(db_url, "Fédé", "bataille-empire")
    league.import_file(
        _write(tmp_path / "a.jsonl", _game("g1", "2025-03-01", "Jean Dupont", "Alice", "draw"))
    )
    # A row with an id and a registered name without id: that player gets the id.
    league.import_file(
        _write(tmp_path / "b.jsonl", _game("g2", "2025-03-02", JEAN_1, "Alice", "draw"))
    )
    assert league.players() == ["Alice", "Jean Dupont"]
    assert league.identity("Jean Dupont").federation_id == "FR-001"
    # Later the id finds her even under another spelling; her club follows the file.
    moved = dict(JEAN_1, name="J. Dupont", club="Villeurbanne")
    league.import_file(
        _write(tmp_path / "c.jsonl", _game("g3", "2025-03-03", moved, "Alice", "draw"))
    )
    assert league.players() == ["Alice", "Jean Dupont"]
    assert league.identity("FR-001").club == "Villeurbanne"
    # A namesake with another id: both told apart, the first keeps her games.
    league.import_file(
        _write(tmp_path / "d.jsonl", _game("g4", "2025-03-04", JEAN_2, "Alice", "draw"))
    )
    assert league.players() == ["Alice", "Jean Dupont (FR-001)", "Jean Dupont (FR-002)"]
    assert len(league.player("Jean Dupont (FR-001)").games) == 3
    assert len(league.player("FR-002").games) == 1


def test_club_and_region_filters(db_url: str, tmp_path: Path) -> None:
    league = League.create(db_url, "Fédé", "bataille-empire")
    league.import_file(
        _write(
            tmp_path / "g.jsonl",
            _game("g1", "2025-03-01", JEAN_1, JEAN_2, "decisive_victory"),
            _game("g2", "2025-03-01", "Alice", JEAN_2, "decisive_victory"),
        )
    )
    assert [r.player for r in league.ranking(club="lyon")] == ["Jean Dupont (FR-001)"]
    assert [r.player for r in league.ranking(region="Bretagne")] == ["Jean Dupont (FR-002)"]
    assert [r.player for r in league.ranking(region="RHÔNE")] == ["Jean Dupont (FR-001)"]
    assert league.ranking(club="Paris") == []
    from eloleague.store.ranking import RankingFilter

    page = league.ranking_page(RankingFilter(region="bretagne"))
    assert [(r.rank, r.player) for r in page.rows] == [(1, "Jean Dupont (FR-002)")]
    assert league.clubs_and_regions() == (["Brest", "Lyon"], ["Bretagne", "Rhône"])


def test_player_add_edit_and_merge_keep_ids(db_url: str, tmp_path: Path) -> None:
    league = League.create(db_url, "Fédé", "bataille-empire")
    assert league.add_player("Chloé Roux", federation_id="FR-010", club="Lyon") == "Chloé Roux"
    with pytest.raises(EloleagueError, match="already"):
        league.add_player("Chloé R.", federation_id="FR-010")
    league.import_file(
        _write(tmp_path / "g.jsonl", _game("g1", "2025-03-01", "Chloe Roux", "Alice", "draw"))
    )
    league.edit_player("Chloe Roux", region="Rhône")
    league.merge_players("Chloe Roux", "Chloé Roux")
    assert league.identity("Chloé Roux") == Identity("FR-010", "Lyon", "Rhône")
    league.edit_player("FR-010", clear=["club"])
    assert league.identity("Chloé Roux") == Identity("FR-010", None, "Rhône")
    league.add_player("Alice B", federation_id="FR-020")
    with pytest.raises(EloleagueError, match="ids differ"):
        league.merge_players("Alice B", "Chloé Roux")
    # A second "Chloé Roux" with another id: both told apart.
    assert league.add_player("Chloé Roux", federation_id="FR-011") == "Chloé Roux (FR-011)"
    assert "Chloé Roux (FR-010)" in league.players()


def test_namesakes_of_some_names_are_those_of_the_whole_league(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import looks up the namesakes of its own plain names through the names' index (a
    prefix range where names sort by code point; on PostgreSQL under a linguistic collation an
    escaped pattern): the same as a scan of the league, names that are prefixes of others, look
    like patterns or hold brackets included."""
    plain = ["Jean", "Jean Dupont", "Jean_x", "JeanAx", "50% Zoé", "50%x Zoé", "A (B)", "Back\\s"]
    league = League.create(db_url, "Fédé", "bataille-empire")
    games = [
        GameRecord(
            dt.date(2025, 3, 1),
            (
                Side((Participant(name, federation_id=f"F{n}-1"),), "draw"),
                Side((Participant(name, federation_id=f"F{n}-2"),), "draw"),
            ),
            id=f"g{n}",
        )
        for n, name in enumerate(plain)
    ]
    league.import_games(games, source="test")
    assert "Jean_x (F2-1)" in league.players() and "A (B) (F6-2)" in league.players()
    asked = [*plain, "A", "50", "Jean ", "Back", "Nobody"]
    with read(league.engine) as conn:
        assert identity.names_sort_by_code_point(conn)  # SQLite; the suite's server: C.UTF-8
    for by_range in [True, False] if league.engine.dialect.name == "postgresql" else [True]:
        # the suite's server sorts by code point (C.UTF-8): the pattern is tried by asking so
        monkeypatch.setattr(identity, "names_sort_by_code_point", lambda conn, r=by_range: r)
        with read(league.engine) as conn:
            whole = namesakes(conn, league.id)
            assert whole["Jean"] == ["Jean (F0-1)", "Jean (F0-2)"]
            for name in asked:
                assert namesakes_of(conn, league.id, [name]) == (
                    {name: whole[name]} if name in whole else {}
                ), (name, by_range)
            expected = {n: whole[n] for n in asked if n in whole}
            assert namesakes_of(conn, league.id, asked) == expected


def test_players_registered_game_by_game_as_by_one_large_import(db_url: str) -> None:
    """A small import reads only the players its own names and ids can be; a large one reads the
    league once. Game by game or all at once, the same players come out: found by id, given an
    id, told apart from a namesake (three players share each plain name here)."""
    day = dt.date(2025, 3, 1)

    def who(i: int) -> Participant:
        club = "Lyon" if i % 3 else None
        return Participant(f"Nom {i % 100:03d}", federation_id=f"FR-{i}", club=club)

    games = [
        GameRecord(
            day + dt.timedelta(days=n // 50),
            (Side((who(2 * n),), "draw"), Side((who((2 * n + 101) % 300),), "draw")),
            id=f"g{n}",
        )
        for n in range(300)
    ]
    at_once = League.create(db_url, "at-once", "bataille-empire")
    at_once.import_games(games, source="test")  # 600 players named: one read of the league
    one_by_one = League.create(db_url, "one-by-one", "bataille-empire")
    for game in games:
        one_by_one.import_games([game], source="api")
    assert "Nom 007 (FR-207)" in at_once.players()
    assert sorted(one_by_one.players()) == sorted(at_once.players())
    assert one_by_one.identities() == at_once.identities()
    assert [(r.player, r.rating) for r in one_by_one.ranking()] == [
        (r.player, r.rating) for r in at_once.ranking()
    ]


HOME_RULES = Path(__file__).parents[1] / "data" / "rules" / "home-club.toml"


def _venue_game(gid: str, a: dict[str, str] | str, b: dict[str, str] | str, **venue: object) -> str:
    sides = [{"players": [a], "outcome": "win"}, {"players": [b], "outcome": "loss"}]
    return json.dumps({"id": gid, "date": "2025-03-01", "sides": sides, **venue})


def test_namesakes_told_apart_keep_their_games_venue(db_url: str, tmp_path: Path) -> None:
    # Telling two "Jean Dupont" apart renames them and nothing else: the side at home keeps its
    # home advantage (home-club.toml: 100 points), a neutral site stays neutral, so the ratings
    # are those of the same games with the two players named apart from the start.
    def venues(a: dict[str, str] | str, b: dict[str, str] | str) -> list[str]:
        return [
            _venue_game("g1", a, "Alice Martin", home=1),
            _venue_game("g2", b, "Alice Martin", home=0, neutral=True),
            _venue_game("g3", "Bruno Petit", a, home=0),
        ]

    told = League.create(db_url, "Club", str(HOME_RULES))
    told.import_file(_write(tmp_path / "told.jsonl", *venues(JEAN_1, JEAN_2)))
    named = League.create(str(tmp_path / "named.db"), "Club", str(HOME_RULES))
    named.import_file(
        _write(tmp_path / "named.jsonl", *venues("Jean Dupont (FR-001)", "Jean Dupont (FR-002)"))
    )
    ratings = {r.player: r.rating for r in told.ranking()}
    assert ratings == {r.player: r.rating for r in named.ranking()}
    # the home side's expectation holds the 100 points: Alice Martin, at home in g1 against a
    # newcomer of her rating, was expected to score more than half
    (home,) = [e for e in told.ledger(game="g1") if e.key.player == "Alice Martin"]
    assert home.expected is not None and home.expected > 0.5
