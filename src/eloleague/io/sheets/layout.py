"""The shape of a referee workbook for a rule set: sheets, columns, labels and result choices.

One description serves the template writer, the workbook reader and the CSV reader, so the three
can never drift apart (docs/sheets.md). Labels are written in English and translated with the
``sheets`` gettext domain; a reader accepts the labels of either language.

Layouts by method (docs/rule-sets.md):

- ``duel`` and ``team_and_personal``: one row per game — date, round, table, the players of side A
  (up to the team size), the players of side B, the result seen from side A.
- ``ffa_rank``: one block per game — a first row with the game id, date, mode and "rated", then one
  row per role with the player and the score.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace

from openpyxl.utils import get_column_letter

from eloleague.engine.methods import ranked
from eloleague.i18n import Text, render
from eloleague.rules.model import RuleSet

FORMAT_VERSION = 1
STAMP_PREFIX = "eloleague:"
DOMAIN = "sheets"
# A duel rule set with no team-size limit ("any") gets this many player columns per side.
DEFAULT_MAX_PLAYERS = 4

RESULTS = "results"
EVENT = "event"
LISTS = "lists"
INSTRUCTIONS = "instructions"

SHEET_TITLES = {
    INSTRUCTIONS: "Instructions",
    EVENT: "Event",
    RESULTS: "Results",
    LISTS: "Lists",
}
# Position of each sheet in a fresh template (used when a stamp was deleted).
SHEET_ORDER = (INSTRUCTIONS, EVENT, RESULTS, LISTS)

# The event sheet: one field per row, label in column A, value in column B (from row 2).
EVENT_FIELDS = (
    ("name", "Event name"),
    ("start", "First day"),
    ("end", "Last day"),
    ("place", "Place"),
    ("referee", "Referee"),
    ("league", "League"),
    ("rules", "Rule set"),
)

# The venue column of a rule set with a home advantage (docs/rule-sets.md): its choices, in
# English (translated with the ``sheets`` domain); an empty cell means no side is at home.
VENUES = (("home_a", "A at home"), ("home_b", "B at home"), ("neutral", "Neutral site"))

YES = ("yes", "y", "oui", "o", "true", "vrai", "1", "x")
NO = ("no", "n", "non", "false", "faux", "0")


def tr(lang: str, template: str, /, **params: object) -> str:
    """``template`` (English, ``sheets`` domain) in ``lang``, with ``params`` filled in."""
    return render(Text.of(template, **params), lang, DOMAIN)


column_letter = get_column_letter  # the spreadsheet letter of a 1-based column: 1 → A, 27 → AA


def fold(text: str) -> str:
    """A label as compared by the readers: NFC, case-folded, inner spaces collapsed, either
    apostrophe (a label written « l’arbitre » by the template, typed « l'arbitre »)."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().replace("’", "'").split())


@dataclass(frozen=True, slots=True)
class Choice:
    """One entry of the result drop-down: its wording and the outcome labels of sides A and B."""

    fr: str
    en: str
    a: str
    b: str

    def text(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


def _wording(rules: RuleSet, label: str, lang: str) -> str:
    return rules.label(label, lang)  # [labels.<lang>], else the outcome's fr/en wording


def result_choices(rules: RuleSet) -> list[Choice]:
    """The result drop-down of a two-sided rule set, seen from side A (docs/rule-sets.md step 3).

    ``team_and_personal``: the score labels themselves ("3-1" gives side B "1-3"). ``duel``: each
    win "for A", then the draws, then each win "for B" ("Victoire décisive de A", "Match nul").
    """
    if rules.method == "team_and_personal":
        return [
            Choice(label, label, label, against)
            for label, outcome in rules.outcomes.items()
            for against in outcome.against
        ]
    wins_a: list[Choice] = []
    draws: list[Choice] = []
    wins_b: list[Choice] = []
    seen: set[frozenset[str]] = set()
    labels = list(rules.outcomes)
    ordered = sorted(labels, key=lambda lb: (-rules.outcomes[lb].score, labels.index(lb)))
    for label in ordered:
        outcome = rules.outcomes[label]
        for other in outcome.against:
            pair = frozenset((label, other))
            if pair in seen:
                continue
            seen.add(pair)
            if label == other:
                fr, en = _wording(rules, label, "fr"), _wording(rules, label, "en")
                draws.append(Choice(fr, en, label, other))
                continue
            if rules.outcomes[other].score > outcome.score:
                label_w, label_l = other, label
            else:
                label_w, label_l = label, other
            several = len(rules.outcomes[label_w].against) > 1
            texts = {}
            for lang in ("fr", "en"):
                win = _wording(rules, label_w, lang)
                if several:
                    lose = _wording(rules, label_l, lang)
                    texts[lang] = (
                        tr(
                            lang,
                            "{win} for {side}, {loss} for {other}",
                            win=win,
                            side="A",
                            loss=lose,
                            other="B",
                        ),
                        tr(
                            lang,
                            "{win} for {side}, {loss} for {other}",
                            win=win,
                            side="B",
                            loss=lose,
                            other="A",
                        ),
                    )
                else:
                    texts[lang] = (
                        tr(lang, "{win} for {side}", win=win, side="A"),
                        tr(lang, "{win} for {side}", win=win, side="B"),
                    )
            wins_a.append(Choice(texts["fr"][0], texts["en"][0], label_w, label_l))
            wins_b.append(Choice(texts["fr"][1], texts["en"][1], label_l, label_w))
    return wins_a + draws + list(reversed(wins_b))


def max_players(rules: RuleSet) -> int:
    """Player columns per side: the rule set's maximum team size, or 4 when it has none."""
    if rules.teams.max_size is not None:
        return rules.teams.max_size
    return max(DEFAULT_MAX_PLAYERS, rules.teams.min_size)


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the results sheet: a key for the reader and its English header label."""

    key: str
    label: str
    width: float
    named: tuple[tuple[str, str], ...] = ()
    """The rule file's own header, per language (``role_heading``: « Pays »), over ``label``."""

    @property
    def side(self) -> str | None:
        """``"A"`` or ``"B"`` for a player column of a two-sided layout, else ``None``."""
        if self.key[:1] in ("A", "B") and self.key[1:].isdigit():
            return self.key[0]
        return None

    def header(self, lang: str) -> str:
        own = dict(self.named).get(lang)
        if own:
            return own
        if self.side is not None:
            return tr(lang, self.label, side=self.side, n=self.key[1:])
        return tr(lang, self.label)


@dataclass(frozen=True, slots=True)
class Layout:
    """The columns of the results sheet for one rule set (``players`` per side for two sides)."""

    method: str
    players: int
    columns: tuple[Column, ...]

    def index(self, key: str) -> int:
        """1-based column number of ``key``."""
        for i, column in enumerate(self.columns, start=1):
            if column.key == key:
                return i
        raise KeyError(key)

    def has(self, key: str) -> bool:
        """Whether the layout has a column ``key`` (the venue and scores are optional)."""
        return any(column.key == key for column in self.columns)

    @property
    def stamp_column(self) -> int:
        """The hidden column, just right of the table, that holds the sheet's stamp."""
        return len(self.columns) + 1


def layout_for(rules: RuleSet, players: int | None = None) -> Layout:
    """The results-sheet layout of ``rules`` (``players`` overrides the columns per side)."""
    if ranked(rules):
        columns = (
            Column("game", "Game", 12),
            Column("date", "Date", 12),
            Column("mode", "Mode", 12),
            Column("rated", "Rated", 9),
            Column("role", "Role", 16, _role_headings(rules)),
            Column("player", "Player", 26),
            Column("score", "Score", 9),
        )
        return Layout(rules.method, 1, columns)
    n = players if players is not None else max_players(rules)
    cols = [Column("date", "Date", 12), Column("round", "Round", 8), Column("table", "Table", 8)]
    for side in ("A", "B"):
        cols += [Column(f"{side}{i}", "Player {side}{n}", 22) for i in range(1, n + 1)]
    cols.append(Column("result", "Result", 30))
    if rules.uses_margins:  # the formulas read each side's points
        cols += [Column("points_a", "Score of A", 10), Column("points_b", "Score of B", 10)]
    if rules.home_advantage:
        cols.append(Column("venue", "Venue", 16))
    return Layout(rules.method, n, tuple(cols))


def venue_choices(lang: str) -> list[str]:
    """The venue drop-down's entries in ``lang``."""
    return [tr(lang, label) for _, label in VENUES]


def id_columns(layout: Layout) -> tuple[Column, ...]:
    """The optional id columns of a results sheet (docs/sheets.md): one per player column,
    headed "Id A1" ... (two sides) or "Id" (free-for-all), anywhere right of the table."""
    if layout.method in ("duel", "team_and_personal"):
        return tuple(
            Column(f"id:{c.key}", "Id {side}{n}", 12) for c in layout.columns if c.side is not None
        )
    return (Column("id:player", "Id", 12),)


def id_header(column: Column, lang: str) -> str:
    """The header of an id column in ``lang``."""
    key = column.key.removeprefix("id:")
    if key[:1] in ("A", "B") and key[1:].isdigit():
        return tr(lang, column.label, side=key[0], n=key[1:])
    return tr(lang, column.label)


def header_labels(column: Column) -> set[str]:
    """The folded header labels a reader accepts for ``column`` (French and English; a column
    the rule file names, by its words and by the reader's own: « Pays » and « Rôle »)."""
    plain = replace(column, named=())
    return {fold(c.header(lang)) for c in (column, plain) for lang in ("fr", "en")}


def _role_headings(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """What the rule file calls its roles, per language (docs/rule-sets.md, ``role_heading``)."""
    return tuple(
        (lang, heading)
        for lang in ("fr", "en")
        if (heading := rules.roles_heading(lang)) is not None
    )


def make_stamp(kind: str, rules: RuleSet, lang: str, players: int | None = None) -> str:
    """The text stamped in a hidden cell of each sheet: kind, rule set, language, layout."""
    data: dict[str, object] = {"v": FORMAT_VERSION, "kind": kind, "rules": rules.name, "lang": lang}
    if players is not None:
        data["players"] = players
    return STAMP_PREFIX + json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_stamp(value: object) -> dict[str, object] | None:
    """The stamp's data when ``value`` is a stamp, else ``None``."""
    if not isinstance(value, str) or not value.startswith(STAMP_PREFIX):
        return None
    try:
        data = json.loads(value[len(STAMP_PREFIX) :])
    except ValueError:
        return None
    return data if isinstance(data, dict) and "kind" in data else None
