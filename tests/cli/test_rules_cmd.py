"""`eloleague rules`: list, show, check; and docs/rule-sets.md documents every key of the model."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from eloleague.rules import RuleSet, parse_rules, preset_names
from tests.conftest import run_cli

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rule-sets.md"


def test_list_names_every_preset() -> None:
    done = run_cli("rules", "list")
    assert done.returncode == 0
    for name in preset_names():
        assert name in done.stdout


def test_show_prints_a_file_that_loads_back() -> None:
    for name in preset_names():
        done = run_cli("rules", "show", name)
        assert done.returncode == 0
        assert parse_rules(done.stdout, name).name == name


def test_check_reports_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\nmethod = "duel"\nstart_rating = 1000\nscale = 400\n'
        "[k]\ndefault = 10\ntiers = [{ k = 5, games_belo = 3 }]\n",
        encoding="utf-8",
    )
    done = run_cli("rules", "check", str(bad))
    assert done.returncode == 2
    assert f"{bad}, line 7: key k.tiers[0].games_belo: unknown key" in done.stderr


def _keys(model: type[BaseModel]) -> set[str]:
    keys = set()
    for name, field in model.model_fields.items():
        keys.add(name)
        annotation = field.annotation
        for candidate in getattr(annotation, "__args__", (annotation,)):
            inner = getattr(candidate, "__args__", (candidate,))
            for item in inner:
                if isinstance(item, type) and issubclass(item, BaseModel):
                    keys |= _keys(item)
    return keys


def test_every_rule_set_key_is_documented() -> None:
    text = DOCS.read_text("utf-8")
    missing = sorted(k for k in _keys(RuleSet) if f"`{k}" not in text and f"[{k}]" not in text)
    assert missing == []


def test_the_line_of_a_key_in_a_rule_file() -> None:
    from eloleague.rules import key_line

    text = (
        'name = "x"  # a comment = not a key\n'  # 1
        "k.default = 10\n"  # 2
        "[outcomes]\n"  # 3
        'win = { score = 1, against = ["loss"] }\n'  # 4
        '"close loss" = { score = 0.25, against = ["win"] }\n'  # 5
        "[[titles]]\n"  # 6
        'name = "Maître"\n'  # 7
    )
    assert key_line(text, ["name"]) == 1
    assert key_line(text, ["k", "default"]) == 2
    assert key_line(text, ["outcomes"]) == 3
    assert key_line(text, ["outcomes", "win", "against"]) == 4
    assert key_line(text, ["outcomes", "close loss", "score"]) == 5
    assert key_line(text, ["titles", "name"]) == 7
    assert key_line(text, ["season"]) is None
