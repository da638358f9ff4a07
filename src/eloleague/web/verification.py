"""The API's check of a league and its repair (``GET …/verification``, ``POST …/recompute``,
officers; docs/web.md, "JSON API"): :meth:`eloleague.league.League.verify` and
:meth:`~eloleague.league.League.recompute` as JSON.

Both replay every game of the league (about 30 s on a million games, docs/benchmarks.md,
"Checking a league"), so the routes run them in the server's helper process
(:mod:`eloleague.web.offload`): module-level functions whose arguments and answers are plain
values, the league opened by the database's URL and name.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from eloleague.i18n import render
from eloleague.league import League, engine_for
from eloleague.records import PoolKey, PoolState
from eloleague.store.messages import (
    checkpoints_said,
    fields_said,
    pool_named,
    pool_said,
    recomputed_said,
    tail_said,
    verification_said,
)
from eloleague.store.verify import SHOWN, LedgerDifference, PoolDifference, Verification
from eloleague.web.views import open_league


def verified(url: str, league: str, lang: str | None = None) -> dict[str, Any]:
    """Whether the league's stored ratings and history are a full replay of its games, and
    every difference (see :func:`as_json`); with ``lang``, also in words for the officers' page
    (:func:`in_words`)."""
    found = open_league(engine_for(url), league)
    checked = found.verify()
    out = {"league": found.name, **as_json(checked)}
    if lang is not None:
        in_words(out, found, checked, lang)
    return out


def in_words(out: dict[str, Any], league: League, found: Verification, lang: str) -> None:
    """Add to a verification's JSON (:func:`as_json`) what the officers' page says of it, in
    ``lang``, as the command line says it (:mod:`eloleague.store.messages`): the verdict, each
    side of a differing rating, what differs in each entry, the live state's parts."""
    out["said"] = render(verification_said(league.name, found), lang)
    out["shown"] = SHOWN  # the most differing ratings the page lists: words for those only
    listed = found.pool_differences[:SHOWN]
    for row, pool in zip(out["rating_differences"][:SHOWN], listed, strict=True):
        row["who"] = pool_named(league.rules, pool.key, lang)
        row["stored_said"] = pool_said(pool.stored, lang)
        row["replayed_said"] = pool_said(pool.replayed, lang)
    for row, entry in zip(
        out["first_history_differences"], found.first_ledger_differences, strict=True
    ):
        row["who"] = pool_named(league.rules, entry.key, lang)
        row["what"] = fields_said(entry, lang)
    out["live_state_said"] = (
        tail_said(found.tail_differences, lang) if found.tail_differences else ""
    )
    out["checkpoints_said"] = (
        render(checkpoints_said(found.checkpoint_differences), lang)
        if found.checkpoint_differences
        else ""
    )


def recomputed(url: str, league: str, user: str, lang: str | None = None) -> dict[str, Any]:
    """Every derived table written again from the games, noted in the journal as ``user``'s:
    how many players' ratings changed (with ``lang``, also ``said`` in words)."""
    found = open_league(engine_for(url), league)
    changed = found.recompute(user=user)
    out: dict[str, Any] = {"league": found.name, "ratings_changed": changed}
    if lang is not None:
        out["said"] = render(recomputed_said(found.name, changed), lang)
    return out


def as_json(found: Verification) -> dict[str, Any]:
    """A verification as the API gives it: counts, then each kind of difference (the history's
    counted, the first described with their 1-based place in processing order)."""
    return {
        "agrees": found.agrees,
        "games": found.games,
        "history_entries": found.ledger_entries,
        "ratings": found.pools,
        "rating_differences": [_pool(d) for d in found.pool_differences],
        "history_differences": found.ledger_differences,
        "first_history_differences": [_entry(d) for d in found.first_ledger_differences],
        "live_state_differences": list(found.tail_differences),
        "checkpoints": found.checkpoints,
        "checkpoint_differences": [d.isoformat() for d in found.checkpoint_differences],
    }


def _key(key: PoolKey | None) -> dict[str, str | None]:
    if key is None:
        return {"player": None, "mode": None, "role": None}
    return {"player": key.player, "mode": key.mode, "role": key.role}


def _state(pool: PoolState | None, last: dt.date | None) -> dict[str, Any] | None:
    if pool is None:
        return None
    return {
        "rating": pool.rating,
        "games": pool.games,
        "extra": list(pool.extra),
        "last_played": None if last is None else last.isoformat(),
    }


def _pool(d: PoolDifference) -> dict[str, Any]:
    return {
        **_key(d.key),
        "stored": _state(d.stored, d.stored_last),
        "replayed": _state(d.replayed, d.replayed_last),
    }


def _value(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value


def _entry(d: LedgerDifference) -> dict[str, Any]:
    """A differing entry: the differing fields on each side, or the whole entry on the side that
    has it (``fields``: ``["missing"]`` from the stored history, ``["extra"]`` in it)."""
    whole = d.fields in (("missing",), ("extra",))

    def shown(row: dict[str, Any] | Any) -> dict[str, Any]:
        return {f: _value(v) for f, v in row.items() if whole or f in d.fields}

    return {
        "entry": d.position + 1,
        "game": d.game,
        **_key(d.key),
        "fields": list(d.fields),
        "stored": shown(d.stored),
        "replayed": shown(d.replayed),
    }
