"""Bad input for `eloleague rate`: exit 2, every problem with its line, nothing on stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

GOOD = {
    "id": "ok",
    "date": "2025-01-01",
    "sides": [{"players": ["A"], "outcome": "victory"}, {"players": ["B"], "outcome": "defeat"}],
}


def _side(players: list[object], **kw: object) -> dict[str, object]:
    return {"players": players, **kw}


BAD_ADLG = [
    ('{"id": "x", "date": "2025-01-01", "sides": [', "not valid JSON"),
    (json.dumps({**GOOD, "date": "2025-13-01"}), 'field "date": "2025-13-01" is not a date'),
    (json.dumps({k: v for k, v in GOOD.items() if k != "date"}), 'field "date": missing'),
    (json.dumps({**GOOD, "sides": [_side(["A"], outcome="victory")]}), "at least two sides"),
    (
        json.dumps(
            {**GOOD, "sides": [_side([], outcome="victory"), _side(["B"], outcome="defeat")]}
        ),
        "side 1: no players",
    ),
    (
        json.dumps(
            {**GOOD, "sides": [_side(["A"], outcome="victroy"), _side(["B"], outcome="defeat")]}
        ),
        'side 1: unknown outcome "victroy" (expected one of: defeat, draw, victory)',
    ),
    (
        json.dumps(
            {**GOOD, "sides": [_side(["A"], outcome="victory"), _side(["B"], outcome="victory")]}
        ),
        "outcomes contradict each other",
    ),
    (
        json.dumps(
            {**GOOD, "sides": [_side(["A"], outcome="draw"), _side(["B"], outcome="victory")]}
        ),
        "outcomes contradict each other",
    ),
    (
        json.dumps(
            {**GOOD, "sides": [_side(["A"], outcome="victory"), _side(["A"], outcome="defeat")]}
        ),
        'player "A" is also on side 1: a player cannot face himself',
    ),
    (
        json.dumps(
            {
                **GOOD,
                "sides": [_side(["A", "C"], outcome="victory"), _side(["B"], outcome="defeat")],
            }
        ),
        "allows at most 1 per side",
    ),
    (
        json.dumps({**GOOD, "sides": [_side(["A"], score=3), _side(["B"], outcome="defeat")]}),
        "rates outcomes, not scores",
    ),
]


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("line", "message"), BAD_ADLG, ids=[m for _, m in BAD_ADLG])
def test_each_problem_is_reported_with_its_line(tmp_path: Path, line: str, message: str) -> None:
    path = _write(tmp_path, [json.dumps(GOOD), line])
    done = run_cli("rate", str(path), "--rules", "adlg")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert f"{path}: line 2: " in done.stderr
    assert message in done.stderr


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    path = _write(tmp_path, [line for line, _ in BAD_ADLG])
    done = run_cli("rate", str(path), "--rules", "adlg")
    assert done.returncode == 2 and done.stdout == ""
    for number, (_, message) in enumerate(BAD_ADLG, start=1):
        assert any(
            f"line {number}: " in err and message in err for err in done.stderr.splitlines()
        ), (number, message)


DIPLO_SIDES = [
    {"players": [{"name": f"P{i}", "role": role}], "score": 7 - i}
    for i, role in enumerate(
        ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]
    )
]


def test_ffa_problems(tmp_path: Path) -> None:
    unknown_role = json.loads(json.dumps(DIPLO_SIDES))
    unknown_role[6]["players"][0]["role"] = "Prussia"
    same_role = json.loads(json.dumps(DIPLO_SIDES))
    same_role[6]["players"][0]["role"] = "England"
    bad_score = json.loads(json.dumps(DIPLO_SIDES))
    bad_score[2]["score"] = "seven"
    outcome = json.loads(json.dumps(DIPLO_SIDES))
    outcome[0] = {"players": [{"name": "P0", "role": "England"}], "outcome": "victory"}
    lines = [
        json.dumps({"date": "2025-01-01", "mode": "classic", "sides": s})
        for s in (DIPLO_SIDES, unknown_role, same_role, bad_score, outcome)
    ]
    done = run_cli("rate", str(_write(tmp_path, lines)), "--rules", "diplomacy")
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr
    assert 'line 2: side 7: unknown role "Prussia"' in err
    assert 'line 3: side 7: role "England" is held by both "P0" and "P6"' in err
    assert 'line 4: side 3: score "seven" is not a number' in err
    assert "line 5: side 1: rule set diplomacy ranks players by score" in err
    assert "line 1" not in err


def test_team_too_big_for_card_battle(tmp_path: Path) -> None:
    game = {
        "date": "2025-01-01",
        "sides": [
            {"players": ["A", "B", "C", "D"], "outcome": "3-0"},
            {"players": ["E"], "outcome": "0-3"},
        ],
    }
    done = run_cli("rate", str(_write(tmp_path, [json.dumps(game)])), "--rules", "card-battle")
    assert done.returncode == 2
    assert (
        "line 1: side 1: 4 players, but rule set card-battle allows at most 3 per side"
        in done.stderr
    )


def test_mirror_scores_in_card_battle(tmp_path: Path) -> None:
    game = {
        "date": "2025-01-01",
        "sides": [{"players": ["A"], "outcome": "3-1"}, {"players": ["E"], "outcome": "2-3"}],
    }
    done = run_cli("rate", str(_write(tmp_path, [json.dumps(game)])), "--rules", "card-battle")
    assert done.returncode == 2
    assert '"3-1" (side 1) cannot face "2-3" (side 2); "3-1" faces 1-3' in done.stderr


def test_unknown_rule_set_lists_the_presets(tmp_path: Path) -> None:
    done = run_cli("rate", str(_write(tmp_path, [json.dumps(GOOD)])), "--rules", "chess")
    assert done.returncode == 2 and done.stdout == ""
    assert "unknown rule set 'chess'" in done.stderr
    for preset in ("adlg", "bataille-empire", "bataille-empire-en", "card-battle", "diplomacy"):
        assert preset in done.stderr


def test_bad_rule_file_names_file_and_key(tmp_path: Path) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text(
        'name = "club"\nmethod = "dual"\nstart_rating = 1000\nscale = 400\n[k]\ndefault = -3\n',
        encoding="utf-8",
    )
    done = run_cli("rate", str(_write(tmp_path, [json.dumps(GOOD)])), "--rules", str(rules))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert (
        f"{rules}, line 2: key method: allowed: 'duel', 'team_and_personal', 'ffa_rank' or 'glicko2'"
        in done.stderr
    )
    assert f"{rules}, line 6: key k.default: must be greater than 0" in done.stderr
    fr = run_cli(
        "rate",
        str(_write(tmp_path, [json.dumps(GOOD)])),
        "--rules",
        str(rules),
        env={"ELOLEAGUE_LANG": "fr"},
    )
    assert fr.returncode == 2 and fr.stdout == ""
    assert (
        f"{rules}, ligne 2\u202f: clé method\u202f: valeurs permises\u202f: 'duel', 'team_and_personal'"
        in fr.stderr
    )
    assert f"{rules}, ligne 6\u202f: clé k.default\u202f: doit être supérieur à 0" in fr.stderr


def test_every_rule_file_message_is_translated() -> None:
    """The rule loader's and the model's own messages all have their French version."""
    import ast

    from eloleague import rules as loader
    from eloleague.i18n import _catalogue

    french = _catalogue("fr", "messages")
    wanted = list(loader._TYPES.values())
    methods = Path(loader.__file__).parents[1] / "engine" / "methods"
    modules = [Path(loader.__file__), Path(loader.__file__).parent / "model.py"]
    for module in [*modules, *sorted(methods.glob("*.py"))]:
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "of"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                text = node.args[0].value
                assert isinstance(text, str), text
                wanted.append(text)
    assert len(wanted) > 30
    assert [m for m in wanted if m not in french] == []


def test_missing_file(tmp_path: Path) -> None:
    done = run_cli("rate", str(tmp_path / "nope.jsonl"), "--rules", "adlg")
    assert done.returncode == 2 and "no such file" in done.stderr and done.stdout == ""


def test_bad_initial_file(tmp_path: Path) -> None:
    initial = tmp_path / "initial.csv"
    initial.write_text("player,rating,games\nA,abc,1\nB,1000,-2\n", encoding="utf-8")
    done = run_cli(
        "rate",
        str(_write(tmp_path, [json.dumps(GOOD)])),
        "--rules",
        "adlg",
        "--initial",
        str(initial),
    )
    assert done.returncode == 2 and done.stdout == ""
    assert 'line 2: column rating: "abc" is not a number' in done.stderr
    assert 'line 3: column games: "-2" is not a whole number >= 0' in done.stderr


def test_bad_as_of(tmp_path: Path) -> None:
    done = run_cli(
        "rate", str(_write(tmp_path, [json.dumps(GOOD)])), "--rules", "adlg", "--as-of", "June"
    )
    assert done.returncode == 2 and done.stdout == "" and "not a date" in done.stderr


def test_unrated_game_is_a_warning_not_an_error(tmp_path: Path) -> None:
    lines = [json.dumps(GOOD), json.dumps({**GOOD, "id": "friendly", "rated": False})]
    done = run_cli("rate", str(_write(tmp_path, lines)), "--rules", "adlg")
    assert done.returncode == 0
    assert "line 2: game friendly is not rated (marked as not rated)" in done.stderr
    assert done.stdout.splitlines()[1:] == ["A,,,1025,1,Soldier", "B,,,975,1,Soldier"]


def test_errors_and_warnings_in_french(tmp_path: Path) -> None:
    lines = [
        json.dumps({**GOOD, "date": "2025-02-30"}),
        json.dumps(
            {**GOOD, "sides": [_side(["A"], outcome="victoire"), _side(["B"], outcome="defeat")]}
        ),
    ]
    done = run_cli("--lang", "fr", "rate", str(_write(tmp_path, lines)), "--rules", "adlg")
    assert done.returncode == 2 and done.stdout == ""
    assert (
        'ligne 1\u202f: champ «\u202fdate\u202f»\u202f: "2025-02-30" n’est pas une date'
        in done.stderr
    )
    assert "ligne 2\u202f: camp 1\u202f: résultat inconnu «\u202fvictoire\u202f»" in done.stderr
    ok = _write(tmp_path, [json.dumps(GOOD), json.dumps({**GOOD, "id": "amicale", "rated": False})])
    warned = run_cli("rate", str(ok), "--rules", "adlg", env={"ELOLEAGUE_LANG": "fr"})
    assert warned.returncode == 0
    assert (
        "avertissement\u202f: ligne 2\u202f: la partie amicale n’est pas classée" in warned.stderr
    )
