"""Names of a rule file in both languages: ``[labels.fr]``/``[labels.en]`` and a description per
language (docs/rule-sets.md, "Names in French and English")."""

from __future__ import annotations

from pathlib import Path

import pytest

from eloleague.errors import RuleSetError
from eloleague.rules import load_rules, parse_rules, preset_names
from tests.conftest import run_cli

CLUB = """
name = "club"
description = { fr = "Le club", en = "The club" }
method = "duel"
start_rating = 1000
roles = ["England", "Turkey"]
[k]
default = 20
[pools]
by_role = true
[outcomes]
win = { score = 1, against = ["loss"], fr = "Victoire", en = "Win" }
loss = { score = 0, against = ["win"] }
[[titles]]
name = "Knight"
min_rating = 1100
[labels.fr]
Knight = "Chevalier"
Turkey = "Turquie"
win = "Gagné"
classic = "classique"
"""


def test_labels_name_titles_roles_modes_and_outcomes_in_each_language() -> None:
    rules = parse_rules(CLUB)
    assert rules.label("Knight", "fr") == "Chevalier" and rules.label("Knight", "en") == "Knight"
    assert rules.label("Turkey", "fr") == "Turquie" and rules.label("classic", "fr") == "classique"
    assert rules.label("win", "fr") == "Gagné"  # [labels] wins over the outcome's wording
    assert rules.label("win", "en") == "Win" and rules.label("loss", "fr") == "loss"
    assert rules.label("England", "fr") == "England"  # no label: the name as written
    assert rules.label("", "fr") == ""
    assert rules.names_of()["Turquie"] == "Turkey"
    assert rules.described("fr") == "Le club" and rules.described("en") == "The club"


def test_plain_names_and_descriptions_keep_working() -> None:
    rules = parse_rules(
        CLUB.split("[labels.fr]")[0].replace('{ fr = "Le club", en = "The club" }', '"Le club"')
    )
    assert rules.labels == {} and rules.label("Knight", "fr") == "Knight"
    assert rules.described("en") == "Le club"


def test_a_label_table_of_another_language_is_refused_with_its_key() -> None:
    with pytest.raises(RuleSetError, match="labels"):
        parse_rules(CLUB + '\n[labels.de]\nKnight = "Ritter"\n')


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_reads_in_both_languages(name: str) -> None:
    rules = load_rules(name)
    assert rules.described("fr") and rules.described("en")
    assert rules.described("fr") != rules.described("en")
    assert " :" not in rules.described("fr")  # French typography: a narrow no-break space
    for title in rules.titles:  # titles are named in both languages (a label where they differ)
        fr, en = rules.label(title.name, "fr"), rules.label(title.name, "en")
        assert fr and en
    for outcome in rules.outcomes:
        assert rules.label(outcome, "fr") != outcome and rules.label(outcome, "en") != outcome


def test_the_presets_translate_the_names_people_read() -> None:
    assert load_rules("adlg").label("Knight", "fr") == "Chevalier"
    assert load_rules("bataille-empire").label("Maréchal d'Empire", "en") == "Marshal of the Empire"
    assert load_rules("bataille-empire-en").label("Battalion Chief", "fr") == "Chef de bataillon"
    diplomacy = load_rules("diplomacy")
    assert [diplomacy.label(r, "fr") for r in diplomacy.roles] == [
        "Angleterre",
        "France",
        "Allemagne",
        "Italie",
        "Autriche",
        "Russie",
        "Turquie",
    ]


def test_a_rule_file_names_its_roles_in_each_language() -> None:
    """Diplomacy's roles are countries: its pages, tables and workbooks say « Pays »."""
    diplomacy = load_rules("diplomacy")
    assert diplomacy.roles_heading("fr") == "Pays" and diplomacy.roles_heading("en") == "Country"
    assert parse_rules(CLUB).roles_heading("fr") is None  # the reader's own word: Role, Rôle
    one = parse_rules(CLUB.replace("roles = [", 'role_heading = { fr = "Nation" }\nroles = ['))
    assert one.roles_heading("fr") == one.roles_heading("en") == "Nation"  # the one given
    plain = parse_rules(CLUB.replace("roles = [", 'role_heading = "Faction"\nroles = ['))
    assert plain.roles_heading("en") == "Faction"
    without_roles = CLUB.replace('roles = ["England", "Turkey"]', 'role_heading = "Faction"')
    without_roles = without_roles.replace("[pools]\nby_role = true\n", "")
    with pytest.raises(RuleSetError, match="'role_heading' names the 'roles': list them"):
        parse_rules(without_roles)


def test_rules_check_asks_about_a_label_that_looks_like_a_misspelt_name(tmp_path: Path) -> None:
    """A ``[labels.fr]`` entry for ``Knigt`` is never shown (the French tables print "Knight"):
    ``rules check`` asks whether ``Knight`` was meant, on standard error, the file still valid; a
    mode's label (``classic``, modes being free-form) looks like nothing and is not asked about."""
    text = CLUB.replace('Knight = "Chevalier"', 'Knigt = "Chevalier"')
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    done = run_cli("--lang", "fr", "rules", "check", str(path))
    assert done.returncode == 0 and "est valide" in done.stdout, done.stderr
    said = done.stderr.replace("\u202f", " ")
    assert (
        said
        == f"{path} : [labels.fr] « Knigt » ne nomme aucun titre, rôle ni résultat ; « Knight » ?\n"
    )
    (tmp_path / "fine.toml").write_text(CLUB, encoding="utf-8")
    fine = run_cli("rules", "check", str(tmp_path / "fine.toml"))
    assert fine.returncode == 0 and fine.stderr == "", fine.stderr
    for preset in preset_names():  # the presets' labels all name something, or a mode
        shipped = run_cli("rules", "check", preset)
        assert shipped.returncode == 0 and shipped.stderr == "", (preset, shipped.stderr)
