"""predict: the seeds' tables, computed through the engine (issue 6, RULES.md §5)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest

from eloleague.engine import replay
from eloleague.errors import InputError
from eloleague.i18n import render
from eloleague.league import League
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules import load_rules
from eloleague.tools.players import ToolError
from eloleague.tools.predict import home_side, predict
from tests.conftest import DATA, run_cli
from tests.tools.helpers import write_games, write_initial

SEED_000 = {PoolKey("A"): PoolState(1000, 0), PoolKey("B"): PoolState(1200, 20)}
# RULES §5 / seed 000: A's and B's change for each of their own results.
TABLE_000 = {
    "defeat": (-8, -43),
    "draw": (7, -13),
    "marginal_victory": (22, 17),
    "decisive_victory": (29, 32),
    "overwhelming_victory": (37, 47),
}


def _duel(a: str = "A", b: str = "B") -> list[list[Participant]]:
    return [[Participant(a)], [Participant(b)]]


def test_seed_000_table() -> None:
    pred = predict(load_rules("bataille-empire"), SEED_000, _duel())
    a, b = pred.players
    assert (a.k, b.k) == (30, 60)
    assert (a.expected, b.expected) == (0.28, 0.72)
    assert [s.expected for s in pred.sides] == [0.28, 0.72]
    assert pred.scenarios == tuple(TABLE_000)
    for label, (da, db) in TABLE_000.items():
        assert a.change(label).delta == da
        assert b.change(label).delta == db
        assert a.change(label).after == 1000 + da


def test_seed_001_adlg() -> None:
    pred = predict(load_rules("adlg"), SEED_000, _duel())
    a, b = pred.players
    assert (a.change("victory").delta, b.change("defeat").delta) == (35, -21)
    assert (a.change("defeat").delta, b.change("victory").delta) == (-14, 8)
    assert pred.sides[0].expected == pytest.approx(0.2847, abs=1e-4)


def test_card_battle_teams_and_terms() -> None:
    rules = load_rules("card-battle")
    pred = predict(rules, {}, _duel())
    assert pred.players[0].change("3-1").delta == pytest.approx(12)
    assert pred.players[1].change("1-3").delta == pytest.approx(-4)
    # Teams: side strength is the mean; P of the side is E(mean, mean).
    pools = {
        PoolKey("A"): PoolState(1100, 5),
        PoolKey("B"): PoolState(900, 5),
        PoolKey("C"): PoolState(1000, 5),
    }
    team = predict(rules, pools, [[Participant("A"), Participant("B")], [Participant("C")]])
    assert team.sides[0].mean == 1000
    assert team.sides[0].expected == pytest.approx(0.5)


def test_gain_cap_shows_in_the_table() -> None:
    pools = {PoolKey("A"): PoolState(1600, 20), PoolKey("B"): PoolState(1000, 20)}
    fr = predict(load_rules("bataille-empire"), pools, _duel())
    en = predict(load_rules("bataille-empire-en"), pools, _duel())
    assert fr.players[0].change("marginal_victory").delta == 0
    assert "cap" in fr.players[0].change("marginal_victory").fired
    assert en.players[0].change("marginal_victory").delta > 0


def test_side_expected_score_caps_the_difference_as_the_engine_does() -> None:
    """fide.toml counts a lead of more than 400 points as 400: the side's P is the players' P."""
    rules = load_rules(DATA / "rules" / "fide.toml")
    pools = {PoolKey("A"): PoolState(2000, 40), PoolKey("B"): PoolState(1400, 40)}
    pred = predict(rules, pools, _duel())
    assert [s.expected for s in pred.sides] == [0.91, 0.09]  # E(400), not E(600) = 0.97
    assert [p.expected for p in pred.players] == [0.91, 0.09]


def test_diplomacy_ranks_match_seed_003() -> None:
    rules = load_rules("diplomacy")
    sides = [[Participant(f"P{i}", role)] for i, role in enumerate(rules.roles)]
    pred = predict(rules, {}, sides, mode="classic")
    expected = [204.912, 90.406, 14.069, -36.822, -70.750, -93.368, -108.447]
    for player in pred.players:
        assert player.k == 39.5
        assert player.expected == pytest.approx(1 / 7)
        for rank, delta in enumerate(expected, start=1):
            assert player.change(f"rank {rank}").delta == pytest.approx(delta, abs=1e-3)
    assert sum(s.expected for s in pred.sides) == pytest.approx(1)


def test_a_game_the_league_would_refuse_is_refused() -> None:
    with pytest.raises(InputError, match="at most 1 per side"):
        predict(load_rules("adlg"), {}, [[Participant("A"), Participant("C")], [Participant("B")]])
    with pytest.raises(InputError, match="not be rated"):
        rules = load_rules("diplomacy")
        predict(rules, {}, [[Participant("A", "France")], [Participant("B", "Turkey")]])
    with pytest.raises(ToolError):
        predict(load_rules("adlg"), {}, [[Participant("A")]])


def test_cli_prints_the_seed_table(tmp_path: Path) -> None:
    initial = write_initial(tmp_path / "r.csv", {"A": (1000, 0), "B": (1200, 20)})
    out = run_cli("predict", "A", "B", "--rules", "bataille-empire", "--initial", str(initial))
    assert out.returncode == 0, out.stderr
    assert "28 %" in out.stdout and "72 %" in out.stdout
    rows = {
        line.split("│")[1].strip(): line for line in out.stdout.splitlines() if line.startswith("│")
    }
    assert "-8" in rows["Defeat"] and "-43" in rows["Defeat"]
    assert "+37" in rows["Overwhelming victory"] and "+47" in rows["Overwhelming victory"]
    fr = run_cli(
        "predict", "A", "B", "--rules", "bataille-empire", "--initial", str(initial), "--lang", "fr"
    )
    assert "Victoire écrasante" in fr.stdout
    assert "home advantage" not in out.stdout and "avantage du terrain" not in fr.stdout
    # A player alone has her rating, not a mean; in 80 columns each heading's K and P stay on a
    # line of their own (one line of four figures wrapped between "P" and its value)
    assert "side 1: A (1000) — expected score 28 %" in out.stdout
    narrow = run_cli(
        "predict", "A", "B", "--rules", "bataille-empire", "--initial", str(initial),
        env={"COLUMNS": "80"},
    )  # fmt: skip
    heads = [line for line in narrow.stdout.splitlines() if line.startswith("┃")]
    assert any("K 30, P 0.28" in h and "K 60, P 0.72" in h for h in heads), narrow.stdout
    teams = run_cli(
        "predict", "--team", "A,C", "--team", "B,D", "--rules", "card-battle",
        "--initial", str(write_initial(tmp_path / "t.csv", {"A": (1000, 0), "B": (1200, 20)})),
        "--new",
    )  # fmt: skip
    assert "side 1: A, C (mean " in teams.stdout, teams.stdout + teams.stderr


def test_cli_says_when_the_venue_changes_nothing(tmp_path: Path) -> None:
    """A rule set without a home advantage: --home and --neutral are accepted (a game may say
    where it was played) and the command says they change nothing, the figures being those of
    a game without them; with one, no such note."""
    initial = write_initial(tmp_path / "r.csv", {"A": (1000, 0), "B": (1200, 20)})
    common = ["predict", "A", "B", "--initial", str(initial), "--json"]
    plain = json.loads(run_cli(*common, "--rules", "bataille-empire").stdout)
    common = common[:-1]
    for venue in (["--home", "1"], ["--neutral"]):
        out = run_cli(*common, "--rules", "bataille-empire", *venue)
        assert out.returncode == 0, out.stderr
        assert "rule set bataille-empire has no home advantage: where the game" in out.stdout
        fr = run_cli(*common, "--rules", "bataille-empire", *venue, "--lang", "fr")
        assert "le jeu de règles bataille-empire n’a pas d’avantage du terrain\u202f:" in fr.stdout
        same = json.loads(run_cli(*common, "--rules", "bataille-empire", *venue, "--json").stdout)
        assert same["players"] == plain["players"]
    at_home = run_cli(*common, "--rules", str(HOME_RULES), "--home", "1")
    assert at_home.returncode == 0 and "at home +100" in at_home.stdout
    assert "has no home advantage" not in at_home.stdout


def test_cli_json_and_unknown_names(tmp_path: Path) -> None:
    initial = write_initial(tmp_path / "r.csv", {"Alice Martin": (1000, 0), "B": (1200, 20)})
    out = run_cli(
        "predict", "Alice Martin", "B", "--rules", "adlg", "--initial", str(initial), "--json"
    )
    data = json.loads(out.stdout)
    assert data["players"][0]["changes"]["victory"]["delta"] == 35
    bad = run_cli("predict", "Alice Martn", "B", "--rules", "adlg", "--initial", str(initial))
    assert bad.returncode == 2
    assert 'unknown player "Alice Martn"; did you mean: Alice Martin?' in bad.stderr
    assert "Traceback" not in bad.stderr
    new = run_cli(
        "predict", "Zoé", "B", "--new", "--rules", "adlg", "--initial", str(initial), "--json"
    )
    assert json.loads(new.stdout)["players"][0]["rating"] == 1000


# The venue (docs/rule-sets.md, "Home advantage and margins") ---------------------------------

HOME_RULES = DATA / "rules" / "home-club.toml"
HISTORY = [
    {"id": "g1", "date": "2025-01-04", "home": 0,
     "sides": [{"players": ["Ana"], "outcome": "win"}, {"players": ["Ben"], "outcome": "loss"}]},
    {"id": "g2", "date": "2025-01-11", "home": 1,
     "sides": [{"players": ["Ana"], "outcome": "draw"}, {"players": ["Chloé"], "outcome": "draw"}]},
    {"id": "g3", "date": "2025-01-18", "neutral": True,
     "sides": [{"players": ["Ben"], "outcome": "win"}, {"players": ["Chloé"], "outcome": "loss"}]},
]  # fmt: skip


def _home_league(tmp_path: Path) -> League:
    league = League.create(str(tmp_path / "home.db"), "Home", str(HOME_RULES))
    league.import_file(write_games(tmp_path / "history.jsonl", HISTORY))
    return league


def test_a_home_game_is_predicted_as_the_league_records_it(tmp_path: Path) -> None:
    """Ana at home against Ben: every outcome's changes are those of the replayed game with that
    venue, and the game imported into the league records the predicted changes."""
    league = _home_league(tmp_path)
    rules, pools = league.rules, league.current_pools()
    day = dt.date(2025, 2, 1)
    at_home = predict(rules, pools, _duel("Ana", "Ben"), date=day, home=0)
    neutral = predict(rules, pools, _duel("Ana", "Ben"), date=day, home=0, neutral=True)
    ana, ben = at_home.players
    history = league.games()
    for label in rules.outcomes:
        other = rules.outcomes[label].against[0]
        game = GameRecord(
            day,
            (Side((Participant("Ana"),), label), Side((Participant("Ben"),), other)),
            id="next",
            home=0,
        )
        entries = [e for e in replay(rules, [*history, game]).ledger if e.game == "next"]
        assert [e.delta for e in entries] == [ana.change(label).delta, ben.change(other).delta]
        assert [e.expected for e in entries] == [ana.expected, ben.expected]
    win = neutral.players[0].change("win").delta
    assert ana.change("win").delta < win  # expected to win at home: a win is worth less
    assert ana.expected > neutral.players[0].expected

    next_game = {
        "id": "next", "date": "2025-02-01", "home": 0,
        "sides": [{"players": ["Ana"], "outcome": "win"}, {"players": ["Ben"], "outcome": "loss"}],
    }  # fmt: skip
    league.import_file(write_games(tmp_path / "next.jsonl", [next_game]))
    recorded = {e.key.player: e for e in league.ledger(game="next")}
    assert recorded["Ana"].delta == ana.change("win").delta
    assert recorded["Ben"].delta == ben.change("loss").delta
    assert recorded["Ana"].expected == ana.expected


def test_the_sides_expected_scores_count_the_home_advantage() -> None:
    rules = load_rules(HOME_RULES)
    pools = {PoolKey("A"): PoolState(1500, 20), PoolKey("B"): PoolState(1500, 20)}
    plain = predict(rules, pools, _duel())
    assert [s.expected for s in plain.sides] == [0.5, 0.5]
    first = predict(rules, pools, _duel(), home=0)
    second = predict(rules, pools, _duel(), home=1)
    assert [s.expected for s in first.sides] == [0.64, 0.36]  # E(+100) at scale 400
    assert [s.advantage for s in first.sides] == [100, 0]
    assert [s.expected for s in second.sides] == [0.36, 0.64]
    assert [p.expected for p in first.players] == [0.64, 0.36]  # the engine's own P
    assert first.players[0].change("win").delta == 7 and plain.players[0].change("win").delta == 10
    assert predict(rules, pools, _duel(), home=1, neutral=True).sides == plain.sides
    data = second.to_json()
    assert (data["home"], data["neutral"]) == (2, False)
    sides = data["sides"]
    assert isinstance(sides, list)
    assert sides[1]["advantage"] == 100


def test_the_venue_changes_nothing_without_a_home_advantage() -> None:
    rules = load_rules("bataille-empire")
    assert predict(rules, SEED_000, _duel(), home=1) == replace(
        predict(rules, SEED_000, _duel()), home=1
    )
    diplomacy = load_rules("diplomacy")
    sides = [[Participant(f"P{i}", role)] for i, role in enumerate(diplomacy.roles)]
    ffa = predict(diplomacy, {}, sides, mode="classic", home=0)
    assert ffa.players[0].change("rank 1").delta == pytest.approx(204.912, abs=1e-3)


@pytest.mark.parametrize(
    ("value", "index"), [(None, None), ("", None), (" ", None), ("1", 0), (" 2", 1), (1, 0), (2, 1)]
)
def test_home_side_reads_the_side_s_number(value: str | int | None, index: int | None) -> None:
    assert home_side(value) == index


@pytest.mark.parametrize("value", ["3", "0", "x", 3, 0, True, "1.0"])
def test_home_side_refuses_anything_but_1_or_2(value: str | int) -> None:
    with pytest.raises(ToolError) as caught:
        home_side(value)
    assert render(caught.value.text, "en", "tools") == (
        f'the side at home is 1 or 2, not "{value}"'
    )
    assert render(caught.value.text, "fr", "tools") == (
        f"le camp qui reçoit est 1 ou 2, pas «\u202f{value}\u202f»"
    )


def test_cli_home_and_neutral(tmp_path: Path) -> None:
    initial = write_initial(tmp_path / "r.csv", {"A": (1500, 20), "B": (1500, 20)})
    common = ["predict", "A", "B", "--rules", str(HOME_RULES), "--initial", str(initial)]
    rules = load_rules(HOME_RULES)
    pools = {PoolKey("A"): PoolState(1500, 20), PoolKey("B"): PoolState(1500, 20)}
    for number, index in (("1", 0), ("2", 1)):
        out = run_cli(*common, "--home", number, "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        want = predict(rules, pools, _duel(), home=index)
        assert data["home"] == int(number)
        assert [s["expected"] for s in data["sides"]] == [s.expected for s in want.sides]
        for got, player in zip(data["players"], want.players, strict=True):
            assert {k: v["delta"] for k, v in got["changes"].items()} == {
                c.scenario: c.delta for c in player.changes
            }
    away = json.loads(run_cli(*common, "--home", "2", "--json").stdout)
    assert away["players"][0]["changes"]["win"]["delta"] == 13  # 10 on a neutral site
    table = run_cli(*common, "--home", "1")
    assert "side 1: A (1500, at home +100) — expected score 64 %" in table.stdout
    fr = run_cli(*common, "--home", "1", "--neutral", "--lang", "fr")
    assert fr.returncode == 0, fr.stderr
    assert "terrain neutre : aucun camp n’a l’avantage du terrain" in fr.stdout.replace(
        "\u202f", " "
    )
    assert "score attendu 50\u202f%" in fr.stdout
    plain = run_cli(*common[:4], "bataille-empire", "--initial", str(initial), "--home", "2")
    assert plain.returncode == 0 and "at home" not in plain.stdout  # no home advantage: no effect


def test_cli_refuses_a_side_at_home_that_is_not_1_or_2(tmp_path: Path) -> None:
    initial = write_initial(tmp_path / "r.csv", {"A": (1500, 20), "B": (1500, 20)})
    common = ["predict", "A", "B", "--rules", str(HOME_RULES), "--initial", str(initial)]
    en = run_cli(*common, "--home", "3")
    assert en.returncode == 2 and en.stdout == ""
    assert '--home: the side at home is 1 or 2, not "3"' in en.stderr
    fr = run_cli(*common, "--home", "0", "--lang", "fr")
    assert fr.returncode == 2
    assert "--home\u202f: le camp qui reçoit est 1 ou 2, pas «\u202f0\u202f»" in fr.stderr
    assert "Traceback" not in en.stderr + fr.stderr


def test_a_seven_player_game_is_a_row_a_player_and_takes_the_names_the_tables_show(
    tmp_path: Path,
) -> None:
    """A Diplomacy game's prediction: the countries and the mode as the French tables show them
    ("Turquie", "classique") are the rule file's (Turkey, classic), the figures the same; a row
    for each player (her heading was cut at 100 columns, "(Anglete…"), each place in French
    ("1re place", "2e place"); in a phone's terminal, a player's figures as lines."""
    rules = load_rules("diplomacy")
    initial = tmp_path / "r.csv"
    initial.write_text(
        "player,mode,role,rating,games\n"
        + "".join(
            f"P{i},classic,{role},{1400 + 40 * i},{i}\n" for i, role in enumerate(rules.roles)
        )
    )
    english = [f"P{i}:{role}" for i, role in enumerate(rules.roles)]
    french = [f"P{i}:{rules.label(role, 'fr')}" for i, role in enumerate(rules.roles)]
    assert english != french
    common = ["--rules", "diplomacy", "--initial", str(initial), "--json"]
    as_named = run_cli("predict", *english, "--mode", "classic", *common)
    as_shown = run_cli("predict", *french, "--mode", "classique", *common)
    assert as_named.returncode == 0 and as_shown.returncode == 0, as_shown.stderr
    assert json.loads(as_shown.stdout) == json.loads(as_named.stdout)
    assert {p["games"] for p in json.loads(as_shown.stdout)["players"]} == set(range(7))

    table = run_cli("predict", *french, "--mode", "classique", *common[:-1], "--lang", "fr")
    rows = [line for line in table.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 7, table.stdout
    heads = next(line for line in table.stdout.splitlines() if line.startswith("┃"))
    assert "1re place" in heads and "2e place" in heads and "1e place" not in heads
    assert "…" not in table.stdout
    for n, (row, role) in enumerate(zip(rows, rules.roles, strict=True)):
        assert row.split("│")[1].strip() == f"P{n} ({rules.label(role, 'fr')})"
    narrow = run_cli(
        "predict", *french, "--mode", "classique", *common[:-1], "--lang", "fr",
        env={"COLUMNS": "40"},
    )  # fmt: skip
    lines = narrow.stdout.splitlines()
    at = lines.index("P0 (Angleterre)")
    assert lines[at + 1].startswith("  Elo\u202f: 1400,0 · parties\u202f: 0 · K\u202f: "), lines


def test_a_game_that_would_not_be_rated_is_said_so_in_one_language(tmp_path: Path) -> None:
    """Why a prediction is refused, the tool's sentence and the engine's reason in it both in
    French, the countries as the French tables name them (the reason was left in English, the
    countries named as the rule file names them)."""
    initial = tmp_path / "r.csv"
    initial.write_text("player,mode,role,rating,games\nA,classic,France,1500,3\n")
    common = ["--mode", "classic", "--rules", "diplomacy", "--initial", str(initial), "--new"]
    out = run_cli("predict", "A:France", "B:Turquie", *common, "--lang", "fr")
    assert out.returncode == 2
    said = out.stderr.replace("\u202f", " ").replace("\u00a0", " ")
    lacking = "Angleterre, Allemagne, Italie, Autriche, Russie"  # the countries in French
    assert f"cette partie ne serait pas classée : incomplète : aucun joueur pour {lacking}" in said
    assert "incomplete" not in said and "would not" not in said and "Germany" not in said
