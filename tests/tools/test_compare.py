"""compare: a league with itself changes nothing; French and English Bataille Empire differ only
through the gain cap (issue 6)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from eloleague.engine import replay
from eloleague.engine.ledger import CAP
from eloleague.io import read_games
from eloleague.records import PoolKey, PoolState
from eloleague.rules import load_rules
from eloleague.tools.compare import compare
from tests.conftest import REPLAY, run_cli
from tests.tools.helpers import duel, write_games, write_initial


def test_compare_with_itself_changes_nothing() -> None:
    for preset in ("bataille-empire", "adlg", "diplomacy"):
        rules = load_rules(preset)
        games = read_games(REPLAY / f"{preset}.jsonl", rules)
        c = compare(games, rules, rules)
        assert c.identical
        assert c.changed_entries == 0
        assert c.movers == ()
        assert all(s.mean_a == s.mean_b for s in c.seasons)
        assert len(c.rows) == len(replay(rules, games).standings())


# A crafted history: Ace starts 600 points above Bob and Cid; the cap fires on Ace's wins
# under the French rules only. Dan and Eve play each other, never near the cap.
CAP_GAMES = [
    duel("2024-03-01", "Ace", "Bob", "marginal_victory", "defeat", "g1"),
    duel("2024-03-02", "Dan", "Eve", "draw", "draw", "g2"),
    duel("2024-03-03", "Cid", "Ace", "defeat", "decisive_victory", "g3"),
    duel("2024-03-04", "Eve", "Dan", "overwhelming_victory", "defeat", "g4"),
    duel("2024-03-05", "Ace", "Bob", "defeat", "marginal_victory", "g5"),
]
START = {
    "Ace": (1700, 30),
    "Bob": (1100, 30),
    "Cid": (1050, 30),
    "Dan": (1000, 30),
    "Eve": (1020, 30),
}


def test_french_and_english_differ_only_through_the_cap(tmp_path: Path) -> None:
    fr, en = load_rules("bataille-empire"), load_rules("bataille-empire-en")
    games = read_games(write_games(tmp_path / "g.jsonl", CAP_GAMES), fr)
    initial = {PoolKey(p): PoolState(r, g) for p, (r, g) in START.items()}
    c = compare(games, fr, en, initial=initial)
    assert not c.identical
    ledger_fr = replay(fr, games, initial=initial).ledger
    ledger_en = replay(en, games, initial=initial).ledger
    differing = [(a, b) for a, b in zip(ledger_fr, ledger_en, strict=True) if a.delta != b.delta]
    # Only Ace's two wins differ, and the French entry says the cap fired.
    assert [(a.game, a.key.player) for a, _ in differing] == [("g1", "Ace"), ("g3", "Ace")]
    assert all(CAP in a.fired and a.delta == 0 and b.delta > 0 for a, b in differing)
    # g5 comes after the differing entries: Ace's rating differs, so that game differs too
    # through the ratings only; the players never near the cap are untouched.
    rows = {r.player: r for r in c.rows}
    assert rows["Dan"].delta == 0 and rows["Eve"].delta == 0
    assert rows["Ace"].delta is not None and rows["Ace"].delta > 0
    assert c.movers[0].player == "Ace"
    assert c.seasons[-1].end == dt.date(2024, 12, 31)
    assert c.seasons[-1].mean_b is not None and c.seasons[-1].mean_a is not None
    assert c.seasons[-1].mean_b > c.seasons[-1].mean_a


def test_cli_compare_with_chart(tmp_path: Path) -> None:
    games = write_games(tmp_path / "g.jsonl", CAP_GAMES)
    initial = write_initial(tmp_path / "r.csv", START)
    chart = tmp_path / "chart.svg"
    out = run_cli(
        "compare",
        "--games",
        str(games),
        "--initial",
        str(initial),
        "--base",
        "bataille-empire",
        "--rules",
        "bataille-empire-en",
        "--chart",
        str(chart),
    )
    assert out.returncode == 0, out.stderr
    assert "Biggest movers" in out.stdout and "Ace" in out.stdout
    svg = chart.read_text("utf-8")
    # the mean per season drawn as bars, not as markup (« [blue]█[/] »), and on a terminal of
    # 60 columns cut to what the other columns leave, each bar whole
    for columns in ("200", "60"):
        narrow = run_cli(
            "compare",
            "--games",
            str(REPLAY / "bataille-empire.jsonl"),
            "--base",
            "bataille-empire",
            "--rules",
            "bataille-empire-en",
            env={"COLUMNS": columns},
        )
        assert narrow.returncode == 0, narrow.stderr
        seasons = narrow.stdout.split("Mean rating per season")[1].splitlines()
        bars = [line for line in seasons if "█" in line]
        assert len(bars) >= 4, seasons
        assert all("[" not in line and "…" not in line for line in bars), bars
        assert max(len(line) for line in seasons) <= int(columns)
    assert svg.startswith("<svg") and svg.count('class="series"') == 2
    same = run_cli(
        "compare", "--games", str(REPLAY / "adlg.jsonl"), "--base", "adlg", "--rules", "adlg"
    )
    assert same.returncode == 0 and "No change" in same.stdout
    bad = run_cli(
        "compare", "--games", str(REPLAY / "adlg.jsonl"), "--base", "adlg", "--rules", "diplomacy"
    )
    assert bad.returncode == 2 and "under rule set diplomacy" in bad.stderr


def test_games_the_other_rules_refuse_are_said_so_in_one_language() -> None:
    """A history the other rule set cannot rate (seven-player games under card-battle): the
    refusal's place (« avec les règles card-battle ») and its count of the problems left out
    (« … et N autres problèmes ») are in French with the problems; they came in English."""
    common = ["compare", "--games", str(REPLAY / "diplomacy.jsonl"), "--base", "diplomacy"]
    done = run_cli(*common, "--rules", "card-battle", "--lang", "fr")
    assert done.returncode == 2 and not done.stdout
    lines = done.stderr.replace("\u202f", " ").splitlines()
    assert len(lines) == 21 and all(
        line.startswith("avec les règles card-battle : ") for line in lines
    )
    assert lines[-1].endswith(" autres problèmes"), lines[-1]
    assert lines[-1].startswith("avec les règles card-battle : … et "), lines[-1]  # an ellipsis
    assert "under rule set" not in done.stderr and "more problems" not in done.stderr
