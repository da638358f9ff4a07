"""The rules page says the new keys in words, in English and in French (web/rules_words.py)."""

from __future__ import annotations

from pathlib import Path

from eloleague.rules import load_rules, parse_rules
from eloleague.web.rules_words import describe

DATA = Path(__file__).parent.parent / "data" / "rules"

EVERYTHING = """
name = "all"
method = "duel"
start_rating = 1500
home_advantage = 65
lead_cap = 400
k_multiplier = "ln(abs(margin) + 1)"
score_value = "if(margin > 0, 1, 0)"
delta_rounding = { mode = "half_up", decimals = 1 }
rating_storage = "sum"
[outcomes]
win = { score = 1, against = ["loss"] }
loss = { score = 0, against = ["win"] }
[k]
default = 20
by_mode = { cup = 32 }
[season]
reversion = { mean = 1505, fraction = 0.75 }
[decay]
idle_days = 30
every_days = 7
points = 2
cap_percent = 10
cap_scope = "career"
"""


def test_every_new_key_in_english() -> None:
    words = describe(parse_rules(EVERYTHING), "en")
    general = " ".join(words["general"])
    assert "The home side counts 65 extra rating points" in general
    assert "more than 400 points counts as 400" in general
    assert "The score S of a side is if(margin > 0, 1, 0)." in general
    assert "exact sum of its rounded changes" in general
    assert words["k"][0] == "K = 32 in games of mode cup"
    assert "K is multiplied by ln(abs(margin) + 1)" in words["k"]
    seasons = " ".join(words["seasons"]["rules"])
    assert "moves toward 1505, keeping 0.75" in seasons
    assert "over the player's whole career" in seasons


def test_every_new_key_in_french() -> None:
    words = describe(parse_rules(EVERYTHING), "fr")
    text = " ".join([*words["general"], *words["k"], *words["seasons"]["rules"]])
    assert "Le camp qui reçoit compte 65 points" in text
    assert "compte pour 400 dans le score attendu" in text
    assert "K = 32 dans les parties du mode cup" in text
    assert "se rapproche de 1505" in text
    assert "sur toute la carrière du joueur" in text
    assert "home side" not in text


def test_published_files_read_in_words() -> None:
    words = describe(load_rules(DATA / "world-football.toml"), "en")
    assert any("100 extra rating points" in line for line in words["general"])
    fide = describe(load_rules(DATA / "fide.toml"), "fr")
    assert any("400 points compte pour 400" in line for line in fide["general"])


def _all_words(words: object) -> str:
    if isinstance(words, str):
        return words
    if isinstance(words, dict):
        return " ".join(_all_words(v) for v in words.values())
    if isinstance(words, list | tuple):
        return " ".join(_all_words(v) for v in words)
    return ""


def test_counts_take_their_noun_s_form() -> None:
    """ "1 decimal", "every day", "1 point is lost" (they read "1 decimals", "every 1 days")."""
    rules = parse_rules(EVERYTHING)
    assert "Changes are rounded to 1 decimal; a rating" in _all_words(describe(rules, "en"))
    assert "arrondies à 1 décimale\u202f; un classement" in _all_words(describe(rules, "fr"))
    assert "after 30 idle days, 2 points are lost every 7 days" in _all_words(describe(rules, "en"))
    assert "après 30 jours sans jouer, 2 points sont perdus tous les 7 jours" in _all_words(
        describe(rules, "fr")
    )
    daily = parse_rules(
        EVERYTHING.replace("idle_days = 30", "idle_days = 1")
        .replace("every_days = 7", "every_days = 1")
        .replace("points = 2", "points = 1")
    )
    assert "after 1 idle day, 1 point is lost every day" in _all_words(describe(daily, "en"))
    assert "après 1 jour sans jouer, 1 point est perdu chaque jour" in _all_words(
        describe(daily, "fr")
    )


def test_the_roles_are_named_in_the_reader_s_language() -> None:
    """Diplomacy's countries in French on the French rules page (they were the rule file's
    English names), under the name the rule file gives its roles (role_heading)."""
    diplomacy = load_rules("diplomacy")
    fr = " ".join(describe(diplomacy, "fr")["general"])
    assert "Chaque pays a son propre Elo (Angleterre, France, Allemagne, Italie," in fr
    assert "England" not in fr
    en = " ".join(describe(diplomacy, "en")["general"])
    assert "Each country has its own rating (England, France, Germany," in en
    plain = diplomacy.model_copy(update={"role_heading": ""})
    assert "Chaque rôle a son propre Elo (Angleterre," in " ".join(describe(plain, "fr")["general"])
