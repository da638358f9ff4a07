"""What the pages' rendering does for speed gives the answers it gave before: a dict's values
read at once for ``x.name`` (its own methods still first, as Jinja gives them), and a lone
number's decimal comma without the rest of French typography (nothing else to change there)."""

from __future__ import annotations

import re
from types import SimpleNamespace

from eloleague.i18n import NARROW_NBSP, french_typography, numbers_in
from eloleague.web.pages import templates


def test_a_dicts_values_and_methods_read_as_jinja_reads_them() -> None:
    page = templates().from_string(
        "{{ d.name }}|{{ d['items'] }}|{{ d.items()|list|length }}|{{ d.missing is undefined }}"
        "|{{ o.name }}|{{ d.get('name') }}"
    )
    d = {"name": "Zoé", "items": 5}
    assert page.render(d=d, o=SimpleNamespace(name="Ana")) == "Zoé|5|2|True|Ana|Zoé"


def test_a_lone_number_takes_the_decimal_comma_as_any_text_does() -> None:
    def through_the_rules(text: str) -> str:  # the path of any other text
        return french_typography(re.sub(r"(?<=\d)\.(?=\d)", ",", text))

    for text in ("1731", "+12", "-3", "−4", "0.560", "+1.25", "12.", ".5", "1e5", "1,234", ""):
        assert numbers_in(text, "fr") == through_the_rules(text), text
    assert numbers_in("0.560", "fr") == "0,560" and numbers_in("0.560", "en") == "0.560"
    assert numbers_in("50.0 %", "fr") == f"50,0{NARROW_NBSP}%"  # not a lone number: the rules
