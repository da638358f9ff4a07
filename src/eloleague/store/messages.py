"""The league's user-facing messages: English in the code, French in the ``league`` catalogue
(``locale/fr/LC_MESSAGES/league.po``), rendered by :func:`eloleague.i18n.render`.

Messages carry their domain (:meth:`eloleague.i18n.Text.in_domain`), so an error raised deep in the
store is translated correctly wherever it is printed: the command line's ``main()``, a web page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from eloleague.i18n import Text, number, render

if TYPE_CHECKING:
    from eloleague.records import PoolKey, PoolState
    from eloleague.rules.model import RuleSet
    from eloleague.store.verify import LedgerDifference, Verification

DOMAIN = "league"


def msg(template: str, /, **params: object) -> Text:
    """A message of the ``league`` domain: ``msg("no game {id!r}", id="g1")``."""
    return Text.in_domain(DOMAIN, template, **params)


def msg_plural(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A message of the ``league`` domain with a singular and a plural form, chosen by ``count``
    (``{count}`` in them): ``msg_plural("{count} game", "{count} games", n)``."""
    return Text.plural_in_domain(DOMAIN, singular, plural, count, **params)


def season_closed(end: str, count: int) -> Text:
    """What closing a season did (the command line and the site say it alike)."""
    return msg_plural(
        "season ending {end} closed: {count} rating adjusted",
        "season ending {end} closed: {count} ratings adjusted",
        count,
        end=end,
    )


def season_reopened(end: str, count: int) -> Text:
    """What reopening a season undid."""
    return msg_plural(
        "season ending {end} reopened: {count} adjustment taken back",
        "season ending {end} reopened: {count} adjustments taken back",
        count,
        end=end,
    )


def engine_text(message: str) -> Text | str:
    """A message made by the engine or the readers (catalogue ``messages``), tagged with that
    domain so that it stays translated when it is put inside a league message."""
    if isinstance(message, Text) and message.domain is None:
        return Text.in_domain("messages", message.template, **message.params)
    return message


# A league checked against a full replay (``eloleague verify``, the officers' page, docs/league.md
# "Checking a league"): the command line and the site say it alike.


def verification_said(name: str, found: Verification) -> Text:
    """The verification's verdict: the counts compared when everything agrees."""
    if not found.agrees:
        return msg(
            'the stored ratings of league "{name}" differ from a full replay of its games',
            name=name,
        )
    return msg(
        'the stored ratings of league "{name}" are those of a full replay of its games: '
        "{games}, {entries}, {pools} compared",
        name=name,
        games=msg_plural("{count} game", "{count} games", found.games),
        entries=msg_plural(
            "{count} entry of the history", "{count} entries of the history", found.ledger_entries
        ),
        pools=msg_plural("{count} rating", "{count} ratings", found.pools),
    )


def recomputed_said(name: str, changed: int) -> Text:
    """What a recompute of every rating did."""
    return msg(
        'league "{name}" recomputed from its games: {changed}',
        name=name,
        changed=msg_plural("{count} rating changed", "{count} ratings changed", changed),
    )


TAIL_PARTS = {
    "tail": "the state after the last game",
    "last_game": "the last game",
    "games": "the number of games",
    "ledger_next": "the length of the history",
    "pools": "the number of ratings",
    "as_of": "the day the ratings stand at",
    "season_end": "the end of the season in progress",
    "eligible": "the ratings the season began with",
    "started": "the start of the seasons",
    "periods": "the number of rating periods",
    "active": "the players active in the season",
    "order": "the order of the ratings (ties in the ranking follow it)",
}
"""The parts of the state kept for live results (:func:`eloleague.store.verify.verify`), in
words."""


def tail_said(parts: Sequence[str], lang: str) -> str:
    """The parts of the state kept for live results that differ, in ``lang``."""
    listed = ", ".join(render(msg(TAIL_PARTS.get(part, part)), lang) for part in parts)
    return render(
        msg("the state kept for results posted live differs: {parts}", parts=listed), lang
    )


def value_said(value: object, lang: str) -> str:
    """A stored or replayed value as the reader writes it (a dash for none)."""
    from eloleague.io.ratings_csv import format_plain

    if value is None:
        return "—"
    if isinstance(value, float):
        return number(format_plain(value), lang)
    if isinstance(value, tuple):
        return ",".join(value_said(v, lang) for v in value) or "—"
    return str(value)


def pool_said(pool: PoolState | None, lang: str) -> str:
    """A pool's rating and games, or a dash when that side has no such pool."""
    if pool is None:
        return "—"
    games = render(msg_plural("{count} game", "{count} games", pool.games), lang)
    return f"{value_said(pool.rating, lang)} ({games})"


def fields_said(e: LedgerDifference, lang: str) -> str:
    """What differs in a history entry: each column's stored and replayed values (the ledger
    CSV's column names, French in French), or the entry missing from one side."""
    from eloleague.io.csv_dialect import COLUMNS_FR

    if e.fields == ("missing",):
        return render(msg("missing from the stored history"), lang)
    if e.fields == ("extra",):
        return render(msg("not in the replay"), lang)
    return " · ".join(
        render(
            msg(
                "{field}: {stored} stored, {replayed} replayed",
                field=COLUMNS_FR.get(f, f) if lang == "fr" else f,
                stored=value_said(e.stored[f], lang),
                replayed=value_said(e.replayed[f], lang),
            ),
            lang,
        )
        for f in e.fields
    )


def pool_named(rules: RuleSet, key: PoolKey | None, lang: str) -> str:
    """A pool as the check's tables name it: the player, then her mode and role in ``lang``
    (« Ana · classique · Turquie »)."""
    if key is None:
        return ""
    return " · ".join(
        x for x in (key.player, *(rules.label(y, lang) for y in (key.mode, key.role))) if x
    )


def checkpoints_said(dates: Sequence[dt.date]) -> Text:
    """The checkpoints (the states a recompute starts from) that differ, by their dates."""
    return msg(
        "the saved states a recompute starts from differ: {dates}",
        dates=", ".join(d.isoformat() for d in dates),
    )
