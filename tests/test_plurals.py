"""Plural forms (``Text.plural``, ``msgid_plural`` in the catalogues): "1 place", "3 places" in
English, and French's own rule (0 and 1 are singular)."""

from __future__ import annotations

import pickle

import pytest

from eloleague.i18n import Text, ngettext, plural_form, render
from eloleague.tools.balance import balance
from eloleague.tools.players import ToolError


def test_the_plural_rule_of_each_language() -> None:
    assert [plural_form("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [plural_form("fr", n) for n in (0, 1, 2)] == [0, 0, 1]


def _together_error(teams: int, players: int) -> Text:
    ratings = {f"P{i}": 1000.0 + i for i in range(players)}
    with pytest.raises(ToolError) as info:
        balance(
            ratings,
            teams=teams,
            together=[["P0", "P1"]],
            expected_score=lambda a, b: 0.5,
        )
    assert isinstance(info.value.text, Text)
    return info.value.text


def test_balance_says_one_place_and_two_places_in_both_languages() -> None:
    one = _together_error(teams=3, players=3)
    assert str(one).endswith("the largest team has 1 place")
    assert render(one, "fr", "tools").endswith("la plus grande équipe a 1 place")
    assert render(one, "en", "tools").endswith("has 1 place")
    back = pickle.loads(pickle.dumps(one))  # an error sent by another process keeps its forms
    assert render(back, "fr", "tools") == render(one, "fr", "tools")


def test_a_catalogue_without_the_message_falls_back_to_english() -> None:
    assert ngettext("fr", "tools", "{count} apple", "{count} apples", 2) == "{count} apples"
    assert ngettext("en", "tools", "{count} apple", "{count} apples", 1) == "{count} apple"
