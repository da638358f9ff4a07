"""The data behind the officers' tool pages and their JSON twins: balance teams, compare rule sets,
evaluate predictions (:mod:`eloleague.tools`), as plain JSON-able dicts.

Like :mod:`eloleague.web.views`, each function is the one piece of code both the page and the API
call: it reads the league, calls the tool and shapes the answer; a user's mistake (unknown player,
impossible constraints, a rule file that cannot be used, a game the other rule set refuses)
becomes a :class:`WebError` whose message is translated where it is shown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import partial
from typing import Any

from eloleague.engine.methods import expected_score, ranked, venue_points
from eloleague.errors import EloleagueError, InputError, Problem, RuleSetError, first_problems
from eloleague.i18n import Text
from eloleague.league import League
from eloleague.rules import parse_rules, preset_names, preset_text
from eloleague.rules.model import RuleSet
from eloleague.tools.balance import Balance, balance
from eloleague.tools.compare import CompareRow, Comparison, compare_results
from eloleague.tools.evaluate import Evaluation, Metrics, evaluate_result
from eloleague.tools.players import ToolError, player_ratings, resolve_player
from eloleague.web.errors import WebError, as_web_error
from eloleague.web.numbers import plain, shown
from eloleague.web.views import Context, pools_named, venue_of

MAX_NAMES = 500  # players in one balance request (the search itself is bounded by the tool)


def tool_error(exc: EloleagueError) -> WebError:
    """A tool's refusal as the error the visitor reads (translated where it is shown)."""
    if isinstance(exc, ToolError):
        return WebError(400, "bad_request", exc.text)
    return as_web_error(exc)


# Parsing what a form or a request sends --------------------------------------------------------


def names_of(text: str) -> list[str]:
    """Player names, one a line (commas separate names too); blank lines are ignored."""
    return [n.strip() for line in text.splitlines() for n in line.split(",") if n.strip()]


def groups_of(text: str) -> list[list[str]]:
    """Groups of players, one group a line, names separated by commas."""
    out = []
    for line in text.splitlines():
        names = [n.strip() for n in line.split(",") if n.strip()]
        if names:
            out.append(names)
    return out


def whole_number(text: str, field: str) -> int | None:
    """An optional whole number from a form field (``field``: its label, translatable)."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise WebError(
            422,
            "invalid_request",
            Text.of("{field}: give a whole number, not “{value}”", field=field, value=text),
        ) from None


def sizes_of(text: str) -> list[int] | None:
    """Team sizes from ``4,3`` (or ``4 3``); empty: as even as possible."""
    parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
    if not parts:
        return None
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise WebError(
            422,
            "invalid_request",
            Text.of("team sizes: give whole numbers separated by commas, e.g. 4,3"),
        ) from None


# Rule sets -----------------------------------------------------------------------------------


def _text(value: object) -> str:
    """A message as it is (a :class:`Text` stays translatable), anything else as a string."""
    return value if isinstance(value, str) else str(value)


def _rule_problems(exc: RuleSetError) -> list[Problem]:
    """Each line of a rule file error as a located problem: the file and the key, then what is
    wrong (the rule loader's translatable messages, :func:`eloleague.rules.parse_rules`)."""
    message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    lines: list[str] = [message]
    if isinstance(message, Text) and message.template.startswith("{line0}"):
        lines = [str(v) if not isinstance(v, Text) else v for v in message.params.values()]
    out = []
    for line in lines:
        params = line.params if isinstance(line, Text) else {}
        problem = _text(params.get("problem"))
        source = params.get("source")
        if source is not None and "key" in params and "problem" in params:
            where = Text.of("{file}, key {key}", file=source, key=params["key"])
            out.append(Problem(where, problem))
        elif source is not None and "problem" in params:
            out.append(Problem(_text(source), problem))
        elif source is not None and "error" in params:
            detail = Text.of("not valid TOML: {error}", error=params["error"])
            out.append(Problem(_text(source), detail))
        else:
            out.append(Problem("", line))
    return out


def other_rules(
    preset: str | None, text: str | None, filename: str | None = None
) -> RuleSet | None:
    """The rule set chosen in a form or a request: a preset name, or the text of a TOML rule file
    (``filename`` names it in errors). ``None`` when neither is given. Never a path on the
    server: presets are looked up by name only."""
    preset = (preset or "").strip()
    source = (text or "").strip()
    if preset and source:
        raise WebError(
            422,
            "invalid_request",
            Text.of("choose a preset or send a rule file, not both"),
        )
    if preset:
        if preset not in preset_names():
            raise WebError(
                422,
                "invalid_request",
                Text.of(
                    "unknown rule set “{name}”: choose one of {presets}, or send a rule file",
                    name=preset,
                    presets=", ".join(preset_names()),
                ),
            )
        return parse_rules(preset_text(preset), f"preset {preset}")
    if not source:
        return None
    name = filename or "rules.toml"
    try:
        return parse_rules(source, name)
    except RuleSetError as exc:
        problems = _rule_problems(exc)
        raise WebError(
            422,
            "invalid_input",
            Text.plural(
                "the rule file {file} cannot be used: {count} problem",
                "the rule file {file} cannot be used: {count} problems",
                len(problems),
                file=name,
            ),
            problems,
        ) from None


def require_rules(rules: RuleSet | None) -> RuleSet:
    """The rule set to compare with (compare needs one)."""
    if rules is None:
        raise WebError(
            422,
            "invalid_request",
            Text.of("choose a preset or send a rule file to compare with"),
        )
    return rules


def decode_rule_file(content: bytes, filename: str) -> str:
    """An uploaded rule file's text (UTF-8)."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WebError(
            422,
            "invalid_input",
            Text.of("the rule file {file} is not UTF-8 text", file=filename),
        ) from None


def _replay(league: League, rules: RuleSet | None) -> Any:
    """The league's history replayed under ``rules`` (its own when ``None``)."""
    try:
        return league.replay_result(rules=rules)
    except InputError as exc:
        if rules is None:
            raise as_web_error(exc) from None
        problems = first_problems(exc.problems)
        raise WebError(
            422,
            "invalid_input",
            Text.plural(
                "the league's games do not fit rule set {name}: {count} problem",
                "the league's games do not fit rule set {name}: {count} problems",
                len(exc.problems),
                name=rules.name,
            ),
            problems,
        ) from None


# balance -------------------------------------------------------------------------------------


def split_teams(
    league: League,
    players: Sequence[str],
    *,
    teams: int | None = None,
    sizes: Sequence[int] | None = None,
    together: Sequence[Sequence[str]] = (),
    apart: Sequence[Sequence[str]] = (),
    mode: str = "",
    home: str | int | None = None,
) -> Context:
    """Split ``players`` into even teams (:func:`eloleague.tools.balance.balance`) from their
    current ratings in ``mode``: each team's players and mean rating, the expected score, the
    spread of the means, and whether the split is proven the most even (or its bound). ``home``
    (1 or 2) is the team at home: with the rule set's ``home_advantage`` it counts those points,
    and the spread is that of the strengths (docs/tools.md, "balance")."""
    rules = league.rules
    index = venue_of(home)
    if ranked(rules):
        raise WebError(
            400,
            "bad_request",
            Text.of(
                "balance splits players into teams; rule set {name} rates free-for-all games",
                name=rules.name,
            ),
        )
    if not players:
        raise WebError(422, "invalid_request", Text.of("give the players to split"))
    if len(players) > MAX_NAMES:
        raise WebError(
            422,
            "invalid_request",
            Text.of("at most {n} players can be split at once", n=MAX_NAMES),
        )
    try:
        pools, aliases = pools_named(league, players)  # together, apart: some of players
        modes = {pool_mode for pool_mode, _ in league.present_pools()}
        ratings = player_ratings(rules, pools, players, mode=mode, aliases=aliases, modes=modes)
        known = list(ratings)
        groups_t = [[resolve_player(n, known, aliases=aliases) for n in g] for g in together]
        groups_a = [[resolve_player(n, known, aliases=aliases) for n in g] for g in apart]
        found = balance(
            ratings,
            teams=teams,
            sizes=list(sizes) if sizes is not None else None,
            together=groups_t,
            apart=groups_a,
            expected_score=partial(expected_score, rules),
            bonus=() if index is None else venue_points(rules, index),
        )
    except EloleagueError as exc:
        raise tool_error(exc) from None
    return balance_dict(league, found, mode, index)


def balance_dict(
    league: League, found: Balance, mode: str = "", home: int | None = None
) -> Context:
    """A :class:`Balance` as the page and the API show it (``home``: the index of the team at
    home, shown as its number)."""
    rules = league.rules
    strengths = list(found.strengths)
    if len(found.teams) == 2:
        between = [1, 2]
    else:
        between = [strengths.index(max(strengths)) + 1, strengths.index(min(strengths)) + 1]
    return {
        "league": league.name,
        "rules": rules.name,
        "mode": mode,
        "home": None if home is None else home + 1,
        "teams": [
            {
                "team": i,
                "mean": t.mean,
                "advantage": points,
                "strength": strength,
                "players": [
                    {"player": p, "rating": shown(rules, r)}
                    for p, r in zip(t.players, t.ratings, strict=True)
                ],
            }
            for i, (t, points, strength) in enumerate(
                zip(found.teams, found.advantages, strengths, strict=True), start=1
            )
        ],
        "expected": found.expected,
        "expected_between": between,
        "spread": found.spread,
        "exact": found.exact,
        "bound": None if math.isinf(found.bound) else found.bound,
        "method": found.method,
    }


# compare -------------------------------------------------------------------------------------


def _row(c: Comparison, r: CompareRow) -> Context:
    return {
        "player": r.player,
        "mode": r.mode,
        "role": r.role,
        "rank_a": r.rank_a,
        "rating_a": shown(c.rules_a, r.rating_a),
        "games_a": r.games_a,
        "rank_b": r.rank_b,
        "rating_b": shown(c.rules_b, r.rating_b),
        "games_b": r.games_b,
        "delta": None if r.delta is None else shown(c.rules_b, r.delta),
        "places": r.rank_change,
    }


def run_comparison(league: League, other: RuleSet, *, movers: int = 10) -> Comparison:
    """The league's whole history replayed under ``other`` next to its own replay
    (:func:`eloleague.tools.compare.compare_results`, as ``eloleague compare``): nothing is
    written."""
    games = league.games()
    mine = _replay(league, None)
    theirs = _replay(league, other)
    try:
        return compare_results(games, mine, theirs, movers=max(0, movers))
    except EloleagueError as exc:
        raise tool_error(exc) from None


def comparison_dict(league: League, c: Comparison, limit: int = 0) -> Context:
    """A :class:`Comparison` as the page and the API show it (rows as ``eloleague compare``
    prints them: by rank under A, then name; ``limit`` rows, 0 for all)."""
    rows = sorted(c.rows, key=lambda r: (r.rank_a or 10**9, r.player))
    shown_rows = rows[:limit] if limit > 0 else rows
    return {
        "league": league.name,
        "rules_a": c.rules_a.name,
        "rules_b": c.rules_b.name,
        "games": c.games,
        "identical": c.identical,
        "changed_entries": c.changed_entries,
        "total_rows": len(rows),
        "show_mode": any(r.mode for r in c.rows),
        "show_role": any(r.role for r in c.rows),
        "rows": [_row(c, r) for r in shown_rows],
        "movers": [_row(c, r) for r in c.movers],
        "seasons": [
            {
                "end": s.end.isoformat(),
                "mean_a": None if s.mean_a is None else plain(s.mean_a, 2),
                "mean_b": None if s.mean_b is None else plain(s.mean_b, 2),
                "pools_a": s.pools_a,
                "pools_b": s.pools_b,
            }
            for s in c.seasons
        ],
    }


# evaluate ------------------------------------------------------------------------------------


def _number(value: float | None) -> float | None:
    """A metric for JSON (NaN, where a model has no sample, becomes ``null``)."""
    if value is None or math.isnan(value):
        return None
    return value


def _model(m: Metrics, best_log_loss: float, best_brier: float) -> Context:
    return {
        "model": m.name,
        "samples": m.samples,
        "log_loss": _number(m.log_loss),
        "brier": _number(m.brier),
        "accuracy": _number(m.accuracy),
        "decisive": m.decisive,
        "best_log_loss": m.log_loss == best_log_loss,
        "best_brier": m.brier == best_brier,
        "calibration": [
            {
                "low": b.low,
                "high": b.high,
                "predicted": _number(b.predicted),
                "observed": _number(b.observed),
                "count": b.count,
            }
            for b in m.calibration
        ],
    }


def run_evaluation(
    league: League, other: RuleSet | None = None, *, baselines: bool = True
) -> Evaluation:
    """How well the league's rule set (or ``other``, replayed over the league's history)
    predicts the results, next to the baselines (:func:`eloleague.tools.evaluate`, as
    ``eloleague evaluate``)."""
    games = league.games()
    result = _replay(league, other)
    try:
        return evaluate_result(games, result, baselines=baselines)
    except EloleagueError as exc:
        raise tool_error(exc) from None


def evaluation_dict(league: League, e: Evaluation) -> Context:
    """An :class:`Evaluation` as the page and the API show it (the rule set first)."""
    scored = [m for m in e.models if m.samples]
    best_ll = min((m.log_loss for m in scored), default=math.nan)
    best_brier = min((m.brier for m in scored), default=math.nan)
    return {
        "league": league.name,
        "rules": e.rules.name,
        "games": e.games,
        "models": [_model(m, best_ll, best_brier) for m in e.models],
    }
