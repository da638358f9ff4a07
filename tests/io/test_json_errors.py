"""A malformed JSON text is explained in the reader's language, with its line and column
(io/json_errors.py): the readers, the API's posts and its JSON bodies read by pydantic say what is
wrong in French or English, never in the parser's own English."""

from __future__ import annotations

import json

import pytest

from eloleague.i18n import render
from eloleague.io import parse_jsonl
from eloleague.io.json_errors import _said, json_problem

CASES = [
    # (text, English, French)
    (b'{"a" 1}', "a colon was expected at column 6", "un deux-points était attendu à la colonne 6"),
    (b"[1 2]", "a comma was expected at column 4", "une virgule était attendue à la colonne 4"),
    (b'{"a": tru}', "a value was expected at column 7", "une valeur était attendue à la colonne 7"),
    (
        b'{"a": 1,}',
        "a comma before a closing bracket or brace at column 9",
        "une virgule juste avant un crochet ou une accolade fermante à la colonne 9",
    ),
    (
        b"{a: 1}",
        'a field name in double quotes (") was expected at column 2',
        'un nom de champ entre guillemets droits (") était attendu à la colonne 2',
    ),
    (
        b'{"a": 1} x',
        "more text after the end of the JSON at column 10",
        "du texte après la fin du JSON à la colonne 10",
    ),
    (
        b'{"a": 1',
        "the text ends too early at column 8",
        "le texte s’arrête trop tôt à la colonne 8",
    ),
    (
        b'{"a": "abc',
        "quotes that are not closed at column 7",
        "des guillemets qui ne sont pas fermés à la colonne 7",
    ),
    (
        b'{"a": "\\q"}',
        "a backslash (\\) that starts no valid escape at column 8",
        "une barre oblique inversée (\\) qui ne commence aucun échappement valide à la colonne 8",
    ),
    (
        b'{"a": "x\x01"}',
        "a control character (tab, line break) inside quotes at column 9",
        "un caractère de contrôle (tabulation, saut de ligne) entre guillemets à la colonne 9",
    ),
    (
        b'[\n  {"a": 1},\n  {"b" 2}\n]',
        "a colon was expected at line 3, column 8",
        "un deux-points était attendu à la ligne 3, colonne 8",
    ),
    (
        b'{"a": NaN}',
        "NaN and Infinity are not JSON numbers",
        "NaN et Infinity ne sont pas des nombres JSON",
    ),
    (b'{"a": 1e400}', "a number out of range", "un nombre hors limites"),
    (b"  ", "the text is empty", "le texte est vide"),
    (
        b'{"a": "\xff"}',
        "not UTF-8 text: save the file as UTF-8",
        "le texte n’est pas en UTF-8\u202f: enregistrez le fichier en UTF-8",
    ),
    (b"[" * 100_000, "nested too deeply", "imbrication trop profonde"),
    (
        b'{"a": "x\\ud800"}',
        "an escape of half a character (\\ud800: a lone surrogate) at column 9",
        "un échappement d’un demi-caractère (\\ud800\u202f: demi-codet isolé) à la colonne 9",
    ),
    (  # a pair is one character, an escaped backslash no escape: the lone half comes after
        b'{"a": "\\\\ud800",\n "b": "\\ud83d\\ude00\\uDC01"}',
        "an escape of half a character (\\uDC01: a lone surrogate) at line 2, column 20",
        "un échappement d’un demi-caractère (\\uDC01\u202f: demi-codet isolé) "
        "à la ligne 2, colonne 20",
    ),
]


@pytest.mark.parametrize(("text", "english", "french"), CASES)
def test_what_is_wrong_and_where_in_both_languages(text: bytes, english: str, french: str) -> None:
    problem = json_problem(text)
    assert render(problem, "en") == english
    assert render(problem, "fr") == french


def test_a_kind_the_table_does_not_know_keeps_its_place() -> None:
    # words of a later Python's that no row of the table starts with
    unknown = json.JSONDecodeError("Something new", '{"a"\n: 1}', 5)
    assert render(_said(unknown, one_line=False), "fr") == "à la ligne 2, colonne 1"


def test_a_games_file_line_says_it_in_french() -> None:
    good = {
        "date": "2025-01-01",
        "sides": [{"players": ["A"], "outcome": "draw"}, {"players": ["B"], "outcome": "draw"}],
    }
    text = (json.dumps(good) + "\n" + '{"date": "2025-01-02", "sides" []}' + "\n").encode()
    records, problems = parse_jsonl(text)
    assert len(records) == 1
    (problem,) = problems
    assert render(problem.message, "fr") == (
        "JSON invalide (un deux-points était attendu à la colonne 32)"
    )
    assert "Expecting" not in render(problem.message, "en")
