"""The data behind every page, as plain JSON-able dicts: each page renders one of these, and the
JSON API returns the same dict (datasette's habit: every HTML page has a JSON twin).

The functions call the league service (:class:`eloleague.league.League`) and the ranking query
(:mod:`eloleague.store.ranking` through the league); they hold no rating logic of their own.
"""

from __future__ import annotations

import datetime as dt
import weakref
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine

from eloleague import event_facts
from eloleague.accounts import User, user_for_token_and
from eloleague.engine import GLOBAL_ROLE, LedgerEntry
from eloleague.engine.methods import ledger_fields, method_of, ranked, side_places
from eloleague.engine.seasons import next_season_end, season_end
from eloleague.engine.standings import (
    Standing,
    competition_ranks,
    mode_order,
    pool_order,
    standings,
)
from eloleague.errors import EloleagueError, InputError, Problem
from eloleague.i18n import Text
from eloleague.league import League, PlayerReport
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, normalise_name
from eloleague.rules.model import RuleSet
from eloleague.store.identity import Identity
from eloleague.store.ranking import RankingFilter
from eloleague.store.reports import STARTING
from eloleague.tools.players import ToolError, known_players, resolve_player
from eloleague.tools.predict import home_side, predict
from eloleague.web import player_facts as facts
from eloleague.web.errors import WebError, not_found, translate
from eloleague.web.numbers import plain, shown
from eloleague.web.security import token_holder

Context = dict[str, Any]


_OPENED: weakref.WeakKeyDictionary[Engine, dict[tuple[int, str], League]] = (
    weakref.WeakKeyDictionary()
)


def _league(engine: Engine, pk: int, name: str, rules_text: str) -> League:
    """A League object, reused while its rules are unchanged (parsing rules costs time; the
    schema was migrated when the app started)."""
    opened = _OPENED.setdefault(engine, {})
    found = opened.get((pk, name))
    if found is None or found.rules_text != rules_text:
        found = League(engine, pk, name, rules_text)
        opened[pk, name] = found
    return found


# Seconds a write of the site waits for another write to the same league; past it the client
# gets 503 with Retry-After (docs/web.md), and a worker is never held for the database's minute.
WRITE_WAIT = 10.0


def open_league(engine: Engine, name: str) -> League:
    """The league ``name``, or a 404."""
    return _found(engine, name, League.rows(engine, name))


def _found(engine: Engine, name: str, rows: list[tuple[int, str, str]]) -> League:
    """The league of ``rows`` (:meth:`League.rows`), or a 404."""
    if not rows:
        raise not_found("no league named {name!r}", name=name)
    return _bounded(_league(engine, *rows[0]))


def known_league(engine: Engine, name: str) -> League | None:
    """The league ``name`` as this process last opened it, without reading it again (leagues
    are never renamed nor removed; each write reads the league's rules again), or ``None``."""
    opened = tuple(_OPENED.get(engine, {}).items())  # a copy: another thread may open one
    league = next((league for (_, each), league in opened if each == name), None)
    return None if league is None else _bounded(league)


def _bounded(league: League) -> League:
    """``league`` with the site's bound on a write's wait (:data:`WRITE_WAIT`)."""
    league.write_wait = WRITE_WAIT
    return league


def open_league_for_token(engine: Engine, name: str, token: str) -> tuple[User, League]:
    """The user a bearer token belongs to (or 401) and the league ``name`` (or 404), read in one
    transaction: a game server's post asks for both (docs/benchmarks.md, "Live results")."""
    user, rows = user_for_token_and(engine, token, lambda conn: League.rows_in(conn, name))
    holder = token_holder(user)  # a stranger gets 401 whatever league he names
    return holder, _found(engine, name, rows)


def _lookup(call: Any, *args: Any) -> Any:
    """Call a League lookup; its "no such player/game/event" becomes a 404."""
    try:
        return call(*args)
    except EloleagueError as exc:
        raise WebError(404, "not_found", exc.message) from None


TOP = 5  # players each league shows on the home page


def opening(league: League) -> tuple[str | None, str | None]:
    """The ranking a visitor first sees: the global rows of rule sets pooled by role, the most
    played mode when there are several (the ranking page opens on it)."""
    modes = pool_choices(league)["modes"]
    return (
        modes[0] if len(modes) > 1 else None,
        GLOBAL_ROLE if league.rules.pools.by_role else None,
    )


def leagues(engine: Engine, lang: str = "en") -> Context:
    """The leagues of the database, each with its face, its top players (of the ranking it
    opens on) and its latest event (the rule set's description in ``lang``)."""
    out = []
    for row in League.rows(engine):
        league = _league(engine, *row)
        mode, role = opening(league)
        top = league.ranking_page(RankingFilter(mode, role), 1, TOP)
        latest = league.events(newest_first=True, limit=1)
        out.append(
            {
                "name": league.name,
                "rules": league.rules.name,
                "description": league.rules.described(lang),
                "face": face(league),
                "mode": mode,
                "as_of": top.as_of.isoformat() if top.as_of else None,
                "players": top.total,
                "top": [
                    {"rank": r.rank, "player": r.player, "rating": shown(league.rules, r.rating)}
                    for r in top.rows
                ],
                "latest_event": (
                    {
                        "name": latest[0].name,
                        "first": latest[0].first.isoformat(),
                        "last": latest[0].last.isoformat(),
                    }
                    if latest
                    else None
                ),
            }
        )
    return {"leagues": out}


def pool_choices(league: League) -> Context:
    """The pools a visitor can pick: modes and roles present (the most played mode first), and
    the global rows."""
    found = league.present_pools()
    modes = mode_order(found)
    roles = sorted({r for _, r in found if r})
    if league.rules.pools.by_role:
        roles = [GLOBAL_ROLE, *roles]
    return {"modes": modes, "roles": roles}


def ranking(
    league: League,
    *,
    mode: str | None = None,
    role: str | None = None,
    search: str | None = None,
    active_since: dt.date | None = None,
    page: int = 1,
    per_page: int = 50,
    pools: Context | None = None,
    club: str | None = None,
    region: str | None = None,
) -> Context:
    """One page of the ranking: ``rows`` of ``player, mode, role, rating, games, title`` in the
    order of docs/formats.md, each with its ``rank`` and its ``trend`` since the last event began,
    and the player's ``federation_id``, ``club`` and ``region`` when known. ``club``, ``region``:
    one club's or one region's players, ranked among themselves."""
    wanted = RankingFilter(
        mode or None, role or None, search or None, active_since, club or None, region or None
    )
    shared = league.kept(
        ("ranking view", wanted, page, per_page),
        lambda: _ranking(league, wanted, page, per_page),
    )
    return {**shared, "pools": pools if pools is not None else pool_choices(league)}


def _ranking(league: League, wanted: RankingFilter, page: int, per_page: int) -> Context:
    found = league.ranking_page(wanted, page, per_page)
    people = league.identities([r.player for r in found.rows])
    rules = league.rules
    fields = method_of(rules).shown_fields
    pages = max(1, -(-found.total // per_page))
    return {
        "league": league.name,
        "filters": {
            "mode": wanted.mode,
            "role": wanted.role,
            "q": wanted.search,
            "active_since": wanted.active_since.isoformat() if wanted.active_since else None,
            "club": wanted.club,
            "region": wanted.region,
        },
        "page": found.page,
        "per_page": per_page,
        "pages": pages,
        "total": found.total,
        "trend_since": found.trend_since.isoformat() if found.trend_since else None,
        "trend_by_event": found.trend_by_event,
        "as_of": found.as_of.isoformat() if found.as_of else None,
        "rows": [
            {
                "rank": r.rank,
                "player": r.player,
                "mode": r.mode,
                "role": r.role,
                "rating": shown(rules, r.rating),
                "games": r.games,
                "title": r.title,
                "trend": shown(rules, r.trend),
                **{name: plain(v, 6) for name, v in zip(fields, r.shown, strict=False)},
                **people.get(r.player, Identity()).as_dict(),
            }
            for r in found.rows
        ],
        "shown_fields": list(fields),
    }


def adjustments(league: League, entries: Sequence[LedgerEntry]) -> list[Context]:
    """Season adjustments (a closing's, or its dry run's) as the pages and the API show them."""
    return [_entry(league, e) for e in entries]


def journal(league: League, lang: str, limit: int = 100) -> list[Context]:
    """The league's newest changes: when, who, what (an action, its details, the words in
    ``lang``), how many games and players' ratings each changed; a run of imports (docs/league.md,
    "The journal") says how many it counts and when the first was made."""
    return [
        {
            "at": e.at.isoformat(timespec="seconds"),
            "user": e.user,
            "action": e.action,
            "detail": dict(e.detail),
            "text": translate(e.text(), lang),
            "games": e.games,
            "players": e.players,
            "changes": e.changes,
            "first_at": None if e.first_at is None else e.first_at.isoformat(timespec="seconds"),
        }
        for e in league.journal(limit)
    ]


def _entry(league: League, e: LedgerEntry) -> Context:
    """One rating change with everything the seeds' example tables show."""
    rules = league.rules
    return {
        "game": e.game or None,
        "date": e.date.isoformat(),
        "player": e.key.player,
        "mode": e.key.mode,
        "role": e.key.role,
        "season": e.game == "" and STARTING not in e.fired,
        "start": STARTING in e.fired,  # a starting rating from the published list
        "before": shown(rules, e.before),
        "opponent": plain(e.opponent, 2),
        "expected": plain(e.expected, 4),
        "k": plain(e.k, 3),
        "score": plain(e.score, 5),
        "outcome": e.outcome,
        "rank": e.rank,
        "points": e.points,
        "raw_delta": plain(e.raw_delta, 3),
        "delta": shown(rules, e.delta) if rules.shown else plain(e.delta, 3),
        "after": shown(rules, e.after),
        "fired": list(e.fired),
        "warning": e.warning or None,
        **{name: plain(v, 6) for name, v in zip(ledger_fields(rules), e.extra, strict=False)},
    }


def _game(league: League, g: GameRecord) -> Context:
    """A game's facts; under a rule set that ranks by score, each side's ``place`` too (its page
    lists the sides by place: numbered in the order they were given, 1. to 7., a Diplomacy
    game's sides read as places they were not)."""
    placed = side_places(league.rules, g)
    return {
        "id": g.id,
        "date": g.date.isoformat(),
        "event": g.event,
        "round": g.round,
        "mode": g.mode,
        "rated": g.rated,
        "home": g.home,
        "neutral": g.neutral,
        "sides": [
            {
                "players": [{"name": p.name, "role": p.role} for p in s.players],
                "outcome": s.outcome,
                "score": s.score,
                **({"place": placed[n]} if placed else {}),
            }
            for n, s in enumerate(g.sides)
        ],
    }


def outcome_names(league: League) -> dict[str, dict[str, str]]:
    """Each outcome label's wording in French and English (the rule file's ``fr``/``en``)."""
    return {
        label: {"fr": league.rules.label(label, "fr"), "en": league.rules.label(label, "en")}
        for label, o in league.rules.outcomes.items()
    }


def _pool_name(mode: str, role: str) -> str:
    return " · ".join(x for x in (mode, role) if x) or ""


def history(league: League, name: str, report: PlayerReport | None = None) -> Context:
    """A player's rating after each change, per pool (season adjustments flagged)."""
    report = report or _lookup(league.player, name)
    series: dict[tuple[str, str], list[Context]] = defaultdict(list)
    for e, rating in zip(report.history, report.ratings, strict=True):
        series[e.key.mode, e.key.role].append(
            {
                "date": e.date.isoformat(),
                "game": e.game or None,
                "season": e.game == "" and STARTING not in e.fired,
                "kind": next(iter(e.fired), "") if e.game == "" else "game",
                "delta": shown(league.rules, e.delta) if league.rules.shown else e.delta,
                "rating": shown(league.rules, rating),
            }
        )
    return {
        "league": league.name,
        "player": report.name,
        "start_rating": shown(league.rules, league.rules.start_rating),
        "series": [
            {"mode": mode, "role": role, "name": _pool_name(mode, role), "points": points}
            for (mode, role), points in series.items()
        ],
    }


def season_ends(league: League, first: dt.date, last: dt.date) -> list[str]:
    """The season ends between two days (the rule set's seasons, and the seasons an officer
    closed), for the history chart."""
    ends = {d for d in league.closings() if first <= d <= last}
    end = season_end(league.rules.season, first)
    while end is not None and end <= last:
        ends.add(end)
        end = next_season_end(league.rules.season, end)
    return sorted(d.isoformat() for d in ends)


def _pool(rules: RuleSet, fields: Sequence[str], row: Standing, **place: int) -> Context:
    """One of a player's pools as her page and the ratings of several players give it
    (``place``: its rank and how many it ranks, on her page)."""
    return {
        "mode": row.mode,
        "role": row.role,
        **place,
        "rating": shown(rules, row.rating),
        "games": row.games,
        "title": row.title,
        **{name: plain(v, 6) for name, v in zip(fields, row.shown, strict=False)},
    }


def player(league: League, name: str, recent: int | None = None) -> Context:
    """A player's pools with her rank in each, title and the next one, peak rating, record
    (wins, draws, losses or average place), events, head-to-head, history per pool and every
    rating change with its explanation (newest first; the ``recent`` newest only, when given:
    ``changes_total`` counts them all)."""
    report = _lookup(league.player, name)
    places = league.ranks(report.name)
    rules = league.rules
    fields = method_of(rules).shown_fields
    games_by_id = {g.id: g for g in report.games}
    changes = []
    newest = list(reversed(report.history))
    for e in newest[:recent] if recent is not None else newest:
        item = _entry(league, e)
        if item["start"]:
            item["source"] = report.starting_source
        g = games_by_id.get(e.game) if e.game else None
        if g is not None:
            mine = next((s for s in g.sides if any(p.name == report.name for p in s.players)), None)
            item["event"] = g.event
            item["opponents"] = [p.name for s in g.sides if s is not mine for p in s.players]
            item["partners"] = [
                p.name for p in (mine.players if mine else ()) if p.name != report.name
            ]
        changes.append(item)
    overall, against = facts.records(rules, report.name, report.history, report.games)
    top = facts.peak(report.history, report.ratings)
    best = max(report.standings, key=lambda r: r.rating, default=None)
    total_games = sum(r.games for r in report.standings if r.role != GLOBAL_ROLE)
    events_played = sorted({g.event for g in report.games if g.event})
    history_first = report.history[0].date if report.history else None
    history_last = report.history[-1].date if report.history else None
    return {
        "league": league.name,
        "player": report.name,
        **league.identity(report.name).as_dict(),
        "aliases": report.aliases,
        "title": report.title,
        "next_title": (
            facts.next_title(rules, best.rating, total_games) if best and rules.titles else None
        ),
        "pools": [
            _pool(rules, fields, r, rank=places[r.mode, r.role].rank, of=places[r.mode, r.role].of)
            for r in sorted(report.standings, key=pool_order)
        ],
        "shown_fields": list(fields),
        "games": len(report.games),
        "record": {
            "games": overall.games,
            "wins": overall.wins,
            "draws": overall.draws,
            "losses": overall.losses,
            "average_place": plain(overall.average_place, 2),
        },
        "peak": (
            {
                "rating": shown(rules, top.rating),
                "date": top.date,
                "mode": top.mode,
                "role": top.role,
            }
            if top
            else None
        ),
        "events_played": len(events_played),
        "head_to_head": [
            {
                "opponent": opponent,
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "ahead": r.ahead,
                "behind": r.behind,
                "delta": shown(rules, r.delta) if rules.shown else plain(r.delta, 3),
            }
            for opponent, r in against.items()
        ],
        "start_rating": shown(rules, rules.start_rating),
        "outcomes": outcome_names(league),
        "season_ends": (
            season_ends(league, history_first, history_last)
            if history_first and history_last
            else []
        ),
        "changes": changes,
        "changes_total": len(report.history),
        "history": history(league, report.name, report)["series"],
    }


def require_game(league: League, game_id: str) -> None:
    """A 404 when the league has no game ``game_id`` (before a correction or a deletion)."""
    _lookup(league.explain, game_id)


def explain(league: League, game_id: str, lang: str = "en") -> Context:
    """One game and, for each player, rating before, P, K, S, delta and the rules that fired;
    why it is not rated, if it is not, in ``lang``."""
    found = _lookup(league.explain, game_id)
    return {
        "league": league.name,
        "game": _game(league, found.game),
        "outcomes": outcome_names(league),
        "unrated_reason": _reason(found.unrated_reason, lang),
        "entries": [_entry(league, e) for e in found.entries],
    }


def events(league: League, page: int = 1, per_page: int = 100) -> Context:
    """The league's events, newest first, one page at a time."""
    page = max(1, page)
    total = league.event_count()
    chosen = league.events(newest_first=True, limit=per_page, offset=(page - 1) * per_page)
    return {
        "league": league.name,
        "page": page,
        "per_page": per_page,
        "pages": max(1, -(-total // per_page)),
        "total": total,
        "events": [
            {
                "name": e.name,
                "first": e.first.isoformat(),
                "last": e.last.isoformat(),
                "games": e.games,
                "players": e.players,
                "place": e.place,
                "referee": e.referee,
            }
            for e in chosen
        ],
    }


def _reason(message: str | None, lang: str) -> str | None:
    """Why a game is not rated, in ``lang`` (an engine's message, « incomplet : aucun joueur
    pour Angleterre, … » on a French page and in a French API answer; it came in English)."""
    return None if message is None else translate(message, lang)


def event(league: League, name: str, lang: str = "en") -> Context:
    """An event: its dates, standings (games, points, rating change, performance rating),
    round-by-round table, and its games with their rating changes (why a game is not rated in
    ``lang``).

    ``place`` and ``referee``: as the referee's workbook gave them (docs/sheets.md), or ``None``."""
    report = _lookup(league.event, name)
    rules = league.rules
    out = []
    for g in report.games:
        out.append(
            {
                "game": _game(league, g.game),
                "unrated_reason": _reason(g.unrated_reason, lang),
                "entries": [_entry(league, e) for e in g.entries],
            }
        )
    lines = event_facts.standings(rules, report.games)
    places = event_facts.places(lines)
    cross = event_facts.crosstable(lines)
    days = sorted(g.game.date for g in report.games)

    def number(value: float) -> float | int | None:
        return shown(rules, value) if rules.shown else plain(value, 3)

    return {
        "league": league.name,
        "event": report.name,
        "first": days[0].isoformat() if days else None,
        "last": days[-1].isoformat() if days else None,
        "place": report.place,
        "referee": report.referee,
        "outcomes": outcome_names(league),
        "rounds": event_facts.rounds_of(lines),
        "standings": [
            {
                "rank": rank,
                "number": n,
                "player": line.player,
                "games": line.games,
                "points": plain(line.points, 3),
                "average_place": plain(line.average_place, 2),
                "before": shown(rules, line.first_before),
                "after": shown(rules, line.last_after),
                "delta": number(line.delta),
                "performance": shown(rules, line.performance(rules.scale)),
                "rounds": {
                    str(rnd): [{"result": code, "against": against} for code, against in results]
                    for rnd, results in sorted(cross[line.player].items())
                },
            }
            for n, (rank, line) in enumerate(zip(places, lines, strict=True), start=1)
        ],
        "games": out,
        "players": [
            {"player": line.player, "delta": number(line.delta)}
            for line in sorted(lines, key=lambda x: (-x.delta, x.player))
        ],
    }


def create_league(
    engine: Engine,
    name: str,
    rules: str,
    user: str | None,
    initial_text: str | None = None,
    initial_source: str | None = None,
) -> str:
    """Create a league from a preset (its name), starting from the published ratings CSV
    ``initial_text`` when given; returns its name. Only presets: a rule file on the server's
    disk is not for a web form to name."""
    from eloleague.rules import preset_names

    if rules not in preset_names():
        raise EloleagueError(
            Text.of(
                "unknown rule set {rules!r} (presets: {presets})",
                rules=rules,
                presets=", ".join(preset_names()),
            )
        )
    league = League.create(
        engine, name, rules, user=user, initial_text=initial_text, initial_source=initial_source
    )
    return league.name


def face(league: League) -> Context:
    """The league's face: display name, description, logo and colour (set by an officer)."""
    found = league.face()
    return {
        "display_name": found.display_name,
        "description": found.description,
        "colour": found.colour,
        "logo": found.logo_type is not None,
    }


def published_list(
    league: League, day: dt.date | None, mode: str | None, role: str | None
) -> Context:
    """The ranking as of a day (the current ratings when ``day`` is ``None`` or not before the
    ratings' own date), one ranking (a mode and a role), each row with its competition rank:
    the list a federation publishes. ``dates`` offers the season ends since the first game."""
    first, _last = league.game_span()
    current = league.rated_as_of()
    if day is not None and current is not None and day >= current:
        day = None
    rows = league.ranking(mode=mode, role=role, as_of=day)
    ranks = competition_ranks(rows)
    rules = league.rules
    today = dt.date.today()
    ends = season_ends(league, first, min(today, current or today)) if first else []
    return {
        "league": league.name,
        "date": (day or current or today).isoformat(),
        "current": day is None,
        "mode": mode,
        "role": role,
        "dates": [d for d in reversed(ends) if current is None or d < current.isoformat()],
        "pools": pool_choices(league),
        "rows": [
            {
                "rank": rank,
                "player": r.player,
                "mode": r.mode,
                "role": r.role,
                "rating": shown(rules, r.rating),
                "games": r.games,
                "title": r.title,
            }
            for rank, r in zip(ranks, rows, strict=True)
        ],
    }


def titles(league: League, limit: int = 200) -> Context:
    """Who holds which title (for rule sets pooled by role: the global rows): read from the
    whole ranking (54 ms among 10,000 players), kept while the league is unchanged."""
    return league.kept(("titles view", limit), lambda: _titles(league, limit))


def _titles(league: League, limit: int) -> Context:
    rules = league.rules
    rows = league.ranking(role=GLOBAL_ROLE if rules.pools.by_role else None)
    holders: dict[str, list[Context]] = defaultdict(list)
    counts: Counter[str] = Counter()
    for r in rows:
        counts[r.title] += 1
        if counts[r.title] <= limit:  # those shown only (a title may be 9,000 players')
            holders[r.title].append(
                {
                    "player": r.player,
                    "mode": r.mode,
                    "role": r.role,
                    "rating": shown(rules, r.rating),
                    "games": r.games,
                }
            )
    return {
        "league": league.name,
        "titles": [
            {
                "title": t.name,
                "min_rating": t.min_rating,
                "min_games": t.min_games,
                "count": counts[t.name],
                "holders": holders.get(t.name, []),
            }
            for t in rules.titles
        ],
    }


def venue_of(home: str | int | None) -> int | None:
    """The side at home as a page or a request gives it (1 or 2, or nothing), as a game record's
    index (:func:`eloleague.tools.predict.home_side`); anything else is a 422 located at
    ``home``."""
    try:
        return home_side(home)
    except ToolError as exc:
        raise WebError(
            422, "invalid_request", Text.of("the request is not valid"), [Problem("home", exc.text)]
        ) from None


FEW_PLAYERS = 64
"""The most players whose pools :func:`pools_named` reads alone (more than any game has)."""


def pools_named(
    league: League, names: Sequence[str]
) -> tuple[dict[PoolKey, PoolState], dict[str, str]]:
    """The pools and aliases a prediction or a balance between the players ``names`` needs:
    theirs alone (:meth:`League.pools_of`: a matchmaker asks for odds all day, and reading every
    pool made a prediction cost what the league's size costs), or the whole league's when a
    name is not one of its players (its error suggests the close names among all of them) or
    there are more names than any game has players."""
    if len(names) <= FEW_PLAYERS:
        spelled = [normalise_name(n) for n in names]
        pools, aliases = league.pools_of(spelled)
        known = {key.player for key in pools}
        if all(aliases.get(n, n) in known for n in spelled):
            return pools, aliases
    return league.current_pools(), league.aliases()


MOST_PLAYERS = 100
"""The most players one request for ratings names (a lobby, a matchmaker's candidates)."""


def ratings(league: League, names: Sequence[str]) -> Context:
    """The current ratings of the players ``names`` spell (names or aliases, as asked), each
    with her pools (and, for rule sets pooled by role, her global rows) as the ranking shows
    them, read for those players alone (:meth:`League.pools_of`); the names that are no rated
    player's are listed apart: a newcomer starts at ``start_rating``. What a game shows in a
    lobby or weighs to pair players, in one request (docs/web.md, "Posting results from a game
    server")."""
    rules = league.rules
    asked = list(dict.fromkeys(normalise_name(n) for n in names))
    pools, aliases = league.pools_of(asked)
    rows: dict[str, list[Standing]] = defaultdict(list)
    for row in standings(rules, pools):
        rows[row.player].append(row)
    fields = method_of(rules).shown_fields
    found: list[Context] = []
    unknown: list[str] = []
    listed: set[str] = set()
    for spelling in asked:
        name = aliases.get(spelling, spelling)
        if name not in rows:
            unknown.append(spelling)
            continue
        if name in listed:  # her name and an alias of hers both asked
            continue
        listed.add(name)
        found.append(
            {
                "player": name,
                "asked": spelling,
                "pools": [_pool(rules, fields, r) for r in sorted(rows[name], key=pool_order)],
            }
        )
    as_of = league.rated_as_of()
    return {
        "league": league.name,
        "as_of": as_of.isoformat() if as_of else None,
        "start_rating": shown(rules, rules.start_rating),
        "players": found,
        "unknown": unknown,
    }


def odds(
    league: League,
    sides: list[list[str]],
    mode: str = "",
    *,
    home: str | int | None = None,
    neutral: bool = False,
) -> Context:
    """What a game between ``sides`` would put at stake (:func:`eloleague.tools.predict`):
    each player's P and K, and the change under every result. Names resolve as the league's
    (a close name is suggested); newcomers are not accepted, so a typo is never a new player.
    ``home`` (the side at home, 1 or 2) and ``neutral`` are the game's venue: the league's
    ``home_advantage`` counts as it would for that game (docs/rule-sets.md)."""
    rules = league.rules
    index = venue_of(home)
    if ranked(rules):
        raise WebError(
            400,
            "bad_request",
            Text.of(
                "odds are given for two-sided games; for free-for-all games use eloleague predict"
            ),
        )
    pools, aliases = pools_named(league, [n for side in sides for n in side])
    known = known_players(pools)
    try:
        resolved = [[resolve_player(n, known, aliases=aliases) for n in side] for side in sides]
        found = predict(
            rules,
            pools,
            [[Participant(n) for n in side] for side in resolved],
            mode=mode,
            home=index,
            neutral=neutral,
        )
    except InputError:
        raise
    except EloleagueError as exc:
        raise WebError(400, "bad_request", exc.message) from None
    data: dict[str, Any] = found.to_json()
    data["labels"] = {
        label: {"fr": rules.label(label, "fr"), "en": rules.label(label, "en")}
        for label in rules.outcomes
    }
    for p in data["players"]:
        p["rating"] = shown(rules, p["rating"])
        p["expected"] = plain(p["expected"], 4)
        p["k"] = plain(p["k"], 3)
        for change in p["changes"].values():
            change["delta"] = (
                shown(rules, change["delta"]) if rules.shown else plain(change["delta"], 3)
            )
            change["after"] = shown(rules, change["after"])
    data["league"] = league.name
    return data
