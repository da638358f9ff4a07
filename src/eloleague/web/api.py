"""The JSON API under ``/api/v1/``: the same data as each page, and authenticated writes.

Reads are public. Writes need ``Authorization: Bearer <token>``: an officer's token imports,
corrects, deletes and closes seasons; a referee's token may post results, which wait for an
officer's review (``202`` with the upload's number). Errors have one shape
(:mod:`eloleague.web.errors`). OpenAPI: ``/api/v1/openapi.json``, browsable at ``/api/v1/docs``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.responses import Response

from eloleague.io.jsonl import game_schema
from eloleague.web import live_posts, uploads, views
from eloleague.web.errors import ErrorOut
from eloleague.web.inputs import Body, TokenMember, TokenOfficer
from eloleague.web.offload import heavy, url_of
from eloleague.web.pages import (
    events_args,
    journal_args,
    list_args,
    page_lang,
    player_args,
    ranking_args,
    ratings_args,
)
from eloleague.web.rules_words import describe
from eloleague.web.verification import recomputed, verified

router = APIRouter(prefix="/api/v1")

_GAME = game_schema()
_EXAMPLE = {  # a game of the demo's bataille-empire league (its outcome labels)
    "id": "m-9912",
    "date": "2025-03-02",
    "sides": [
        {"players": ["Alice Dupont"], "outcome": "decisive_victory"},
        {"players": ["Bruno Petit"], "outcome": "defeat"},
    ],
}
_GAMES_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "Games in the interchange format (docs/formats.md): JSON Lines, or a JSON "
        "array of game objects. A game may say which side is at home (`home`: 0 or 1) and that "
        "the site is neutral (`neutral`: true), for rule sets with a home advantage. The body "
        "may be sent compressed, with `Content-Encoding: gzip` (any other coding: 415).",
        "content": {  # JSON first: the form the documentation shows
            "application/json": {
                "schema": {
                    "anyOf": [
                        {"type": "array", "items": _GAME, "minItems": 1},
                        _GAME,
                    ]
                },
                "example": [_EXAMPLE],
            },
            "application/x-ndjson": {
                "schema": {"type": "string", "description": "one game object a line"}
            },
        },
    }
}

_CORRECTED_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The corrected game in the interchange format (docs/formats.md), which "
        "keeps its id: a game object, or a JSON array of that one game (JSON Lines of one line "
        "too). The body may be sent compressed, with `Content-Encoding: gzip`.",
        "content": {
            "application/json": {
                "schema": {
                    "anyOf": [
                        _GAME,
                        {"type": "array", "items": _GAME, "minItems": 1, "maxItems": 1},
                    ]
                }
            },
            "application/x-ndjson": {"schema": {"type": "string"}},
        },
    }
}


class Row(BaseModel):
    """One ranking row (the columns of ``eloleague ranking --format csv``), then the pool fields
    the rule set's method publishes (``shown_fields``: Glicko-2's ``deviation``, ``volatility``)."""

    model_config = ConfigDict(extra="allow")

    rank: int
    player: str
    mode: str
    role: str
    rating: int | float
    games: int
    title: str
    trend: int | float | None
    # Who the player is, when the league knows (docs/league.md, "Player identity").
    federation_id: str | None = None
    club: str | None = None
    region: str | None = None


class RankingOut(BaseModel):
    """A page of the ranking."""

    league: str
    page: int
    per_page: int
    pages: int
    total: int
    trend_since: str | None
    as_of: str | None = None  # the day the ratings stand at
    filters: dict[str, str | None]
    pools: dict[str, list[str]]
    rows: list[Row]
    shown_fields: list[str] = []


class RatingChangeOut(BaseModel):
    """A pool's rating and games before and after an import (``before`` ``null``: a new pool);
    ``adjustment``: the part of ``delta`` made outside the games (a season's penalty, a decay)."""

    player: str
    mode: str
    role: str
    before: int | float | None
    after: int | float
    delta: int | float
    adjustment: int | float
    games_before: int
    games_after: int


class LookAlikeOut(BaseModel):
    """A new name that looks like a registered player's."""

    name: str
    likely: str


class ImportOut(BaseModel):
    """What an import did (or, in a dry run, would do): counts, warnings in the request's
    language, and every touched pool's change (``uploads.report_dict``)."""

    source: str
    dry_run: bool
    summary: str
    added: int
    replaced: int
    unchanged: int
    new_players: list[str]
    name_warnings: list[str]
    look_alikes: list[LookAlikeOut]
    file_warnings: list[str]
    unrated: list[str]
    already_imported: str | None  # when a post of the same bytes came in (a retry)
    rating_changes: list[RatingChangeOut]


class PostedOut(ImportOut):
    """An officer's post, imported."""

    status: Literal["imported"]


class HeldOut(BaseModel):
    """A referee's post, held for an officer's review: the upload's number and the dry run."""

    status: Literal["pending_review"]
    upload: int
    preview: ImportOut


class PoolSideOut(BaseModel):
    """One side of a rating that differs: the stored pool's, or the replay's."""

    rating: float
    games: int
    extra: list[float]  # the method's fields (Glicko-2's deviation and volatility), else empty
    last_played: str | None  # the day of the pool's last rated game, YYYY-MM-DD


class RatingDifferenceOut(BaseModel):
    """A current rating that is not the replay's (a side is ``null`` when it lacks the pool)."""

    player: str
    mode: str
    role: str
    stored: PoolSideOut | None
    replayed: PoolSideOut | None


class HistoryDifferenceOut(BaseModel):
    """An entry of the history that is not the replay's: its 1-based place in processing order,
    its game and pool, the fields that differ with each side's value, or ``["missing"]`` /
    ``["extra"]`` with the whole entry on the side that has it."""

    entry: int
    game: str
    player: str | None
    mode: str | None
    role: str | None
    fields: list[str]
    stored: dict[str, Any]
    replayed: dict[str, Any]


class VerificationOut(BaseModel):
    """Whether the stored ratings are a full replay of the games (``League.verify``)."""

    league: str
    agrees: bool
    games: int
    history_entries: int
    ratings: int
    rating_differences: list[RatingDifferenceOut]
    history_differences: int  # how many entries differ; the first 20 are described
    first_history_differences: list[HistoryDifferenceOut]
    live_state_differences: list[str]
    checkpoints: int
    checkpoint_differences: list[str]  # the dates (YYYY-MM-DD) of the checkpoints that differ


class RecomputedOut(BaseModel):
    """What a recompute from the games changed."""

    league: str
    ratings_changed: int


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


_PAGE = [
    _query("page", {"type": "integer", "minimum": 1, "default": 1}, "Page number."),
    _query("per_page", {"type": "integer", "minimum": 1}, "Rows a page (at most the site's most)."),
]
_RANKING_QUERY: dict[str, Any] = {
    "parameters": [
        _query("mode", {"type": "string"}, "Only this mode (rule sets rated per mode)."),
        _query("role", {"type": "string"}, "Only this role; * for every role's rows."),
        _query("q", {"type": "string"}, "Names containing this text (any case)."),
        _query(
            "active_since",
            {"type": "string", "format": "date"},
            "Only players with a rated game on or after this day (YYYY-MM-DD).",
        ),
        _query("club", {"type": "string"}, "Only this club's players (any case)."),
        _query("region", {"type": "string"}, "Only this region's players (any case)."),
        *_PAGE,
    ]
}
_EVENTS_QUERY: dict[str, Any] = {"parameters": _PAGE}
_PLAYER_QUERY: dict[str, Any] = {
    "parameters": [
        _query(
            "recent",
            {"type": "integer", "minimum": 1},
            "Only the newest rating changes, this many (changes_total counts them all).",
        )
    ]
}

# Documents the bearer token on the writes (bearer_user checks it; this only describes it).
_TOKEN = [
    Security(HTTPBearer(auto_error=False, description="An API token: eloleague token create USER"))
]

_MEANINGS = {
    400: "Refused: the message says why (e.g. a game that cannot be rated).",
    401: "No valid API token (Authorization: Bearer <token>).",
    403: "The token's account may not do this (officers only).",
    404: "No such league, player, game or event.",
    413: "The body is larger than the site's upload limit (decompressed, when sent gzipped).",
    415: "The body is in a Content-Encoding the site does not read (it reads gzip).",
    422: "The request or its games are not valid: every problem, located.",
    503: (
        "Nothing was done: another write held the league too long (code busy) or the database "
        "cannot be reached (code unavailable); send the same request again after Retry-After "
        "seconds."
    ),
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers an operation gives (one shape: :class:`ErrorOut`), for its OpenAPI;
    every operation may answer 503 (its database restarting, or, for a write, a busy league),
    one that takes a body (413) also 415 (web/bodies.py)."""
    codes = (*codes, 415) if 413 in codes else codes
    return {code: {"model": ErrorOut, "description": _MEANINGS[code]} for code in (*codes, 503)}


_READ = _errors(404)
_READ_QUERY = _errors(404, 422)


class SeasonIn(BaseModel):
    """The last day of the season to close (or reopen); ``dry_run``: only list the adjustments."""

    model_config = ConfigDict(strict=True)  # bodies are taken as the schema says, not coerced

    end: dt.date
    dry_run: bool = False


@router.get("/leagues", summary="The leagues of this site")
def leagues(request: Request) -> dict[str, Any]:
    return views.leagues(request.app.state.engine, page_lang(request))


@router.get(
    "/leagues/{league}",
    response_model=RankingOut,
    responses=_READ_QUERY,
    openapi_extra=_RANKING_QUERY,
    summary="The ranking (filters: mode, role, q, active_since, club, region; page, per_page)",
)
def ranking(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.ranking(found, **ranking_args(request, strict=True))


@router.get(
    "/leagues/{league}/ranking",
    response_model=RankingOut,
    responses=_READ_QUERY,
    openapi_extra=_RANKING_QUERY,
    summary="The ranking (same as /leagues/{league})",
)
def ranking_alias(request: Request, league: str) -> dict[str, Any]:
    return ranking(request, league)


@router.get(
    "/leagues/{league}/players/{name:path}",
    responses=_READ_QUERY,
    openapi_extra=_PLAYER_QUERY,
    summary="A player: pools, title, history per pool, every change explained",
)
def player(request: Request, league: str, name: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.player(found, name, **player_args(request))


_RATINGS_QUERY: dict[str, Any] = {
    "parameters": [
        {
            **_query(
                "player",
                {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 100},
                "A player's name or alias; repeat it for each player (?player=A&player=B), "
                "1 to 100 of them.",
            ),
            "required": True,
            "style": "form",
            "explode": True,
        }
    ]
}


@router.get(
    "/leagues/{league}/ratings",
    responses=_READ_QUERY,
    openapi_extra=_RATINGS_QUERY,
    summary="Several players' current ratings at once (a lobby, a matchmaker): names not rated "
    "are listed apart",
)
def ratings(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.ratings(found, ratings_args(request))


@router.get(
    "/leagues/{league}/history/{name:path}",
    responses=_READ,
    summary="A player's rating after each change, per pool",
)
def history(request: Request, league: str, name: str) -> dict[str, Any]:
    return views.history(views.open_league(request.app.state.engine, league), name)


@router.get(
    "/leagues/{league}/games/{game:path}",
    responses=_READ,
    summary="Explain a game: before, P, K, S, delta and the rules that fired",
)
def explain(request: Request, league: str, game: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.explain(found, game, page_lang(request))


@router.get(
    "/leagues/{league}/events",
    responses=_READ_QUERY,
    openapi_extra=_EVENTS_QUERY,
    summary="The league's events",
)
def events(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.events(found, **events_args(request, strict=True))


@router.get(
    "/leagues/{league}/events/{name:path}",
    responses=_READ,
    summary="An event's games, results and rating changes",
)
def event(request: Request, league: str, name: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.event(found, name, page_lang(request))


@router.get(
    "/leagues/{league}/list",
    responses=_READ_QUERY,
    summary="The published list: the ranking as of a day (date, mode, role)",
)
def published_list(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.published_list(found, **list_args(request, found, strict=True))


@router.get("/leagues/{league}/rules", responses=_READ, summary="The rule set in words")
def rules(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return {
        "league": found.name,
        "rules": describe(found.rules, page_lang(request)),
        "toml": found.rules_text,
    }


@router.get("/leagues/{league}/titles", responses=_READ, summary="Who holds which title")
def titles(request: Request, league: str) -> dict[str, Any]:
    return views.titles(views.open_league(request.app.state.engine, league))


class OddsIn(BaseModel):
    """A game to predict: two or more sides of player names, the mode, and the venue."""

    model_config = ConfigDict(strict=True)

    sides: list[list[Annotated[str, Field(max_length=200)]]] = Field(
        max_length=64, description="The sides, each a list of player names."
    )
    mode: str = Field("", max_length=200, description="The rating mode, for rule sets with modes.")
    home: int | None = Field(
        None,
        description=(
            "The side at home: 1 (the first of sides) or 2 (the second); null: neither. With the "
            "rule set's home_advantage, the side at home counts that many more rating points in "
            "the expected score; rule sets without it ignore the venue. Any other number: 422."
        ),
        json_schema_extra={"enum": [1, 2, None]},
    )
    neutral: bool = Field(False, description="A neutral site: no side gets the home advantage.")


@router.post(
    "/leagues/{league}/predict",
    responses=_errors(400, 404, 413, 422),
    summary="Odds of a game: each player's P, K and the change under every result",
)
def predict(request: Request, league: str, game: OddsIn) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.odds(found, game.sides, game.mode, home=game.home, neutral=game.neutral)


# Writes -----------------------------------------------------------------------------------------


@router.post(
    "/leagues/{league}/games/preview",
    responses={
        200: {"model": ImportOut, "description": "What the import would do."},
        **_errors(400, 401, 404, 413, 422),
    },
    dependencies=_TOKEN,
    openapi_extra=_GAMES_BODY,
    summary="Dry run: what posting these games would change (nothing is stored)",
)
def preview(request: Request, league: str, user: TokenMember, body: Body) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return heavy(request).call(
        uploads.previewed_body, url_of(request), found.name, body, user.name, page_lang(request)
    )


@router.post(
    "/leagues/{league}/games",
    responses={
        200: {
            "model": PostedOut,
            "description": "Imported: nothing changed (every game was there already).",
        },
        201: {"model": PostedOut, "description": "Imported: games were added or replaced."},
        202: {"model": HeldOut, "description": "Held for an officer's review (a referee's token)."},
        **_errors(400, 401, 404, 413, 422),
    },
    dependencies=_TOKEN,
    openapi_extra={
        **_GAMES_BODY,
        "parameters": [
            _query(
                "update",
                {"type": "boolean", "default": False},
                "Replace the games whose id exists with other content.",
            )
        ],
    },
    summary="Post results (officer: imported at once; referee: held for review)",
)
def post_games(request: Request, league: str, user: TokenMember, body: Body) -> Response:
    # Posts of a few games are answered by the lean path before FastAPI (web/live_posts.py);
    # larger ones come here: the token is checked before the body is read.
    found = views.open_league(request.app.state.engine, league)
    return live_posts.answer_post(request, found, user, body)


@router.put(
    "/leagues/{league}/games/{game:path}",
    responses={
        200: {"model": ImportOut, "description": "Corrected: what the correction did."},
        **_errors(400, 401, 403, 404, 413, 422),
    },
    dependencies=_TOKEN,
    openapi_extra=_CORRECTED_BODY,
    summary="Correct a game (officer): the body is the corrected game",
)
def correct(
    request: Request, league: str, game: str, user: TokenOfficer, body: Body
) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)  # a correction never creates a game: 404
    records = uploads.games_from_body(found, body, source=game, one=True)
    report = uploads.correct(found, game, records, user.name)
    return uploads.report_dict(found, report, page_lang(request))


@router.delete(
    "/leagues/{league}/games/{game:path}",
    responses=_errors(400, 401, 403, 404),
    dependencies=_TOKEN,
    summary="Delete a game (officer); ratings are recomputed",
)
def delete(request: Request, league: str, game: str, user: TokenOfficer) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)
    found.delete_game(game, user=user.name)
    return {"deleted": game}


_SEASON_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": SeasonIn.model_json_schema()}},
    }
}


def _season(body: bytes) -> SeasonIn:
    """The season a close or reopen names (a 422 naming each problem otherwise)."""
    try:
        return SeasonIn.model_validate_json(body)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None


class LeagueIn(BaseModel):
    """A league to create: its name, a preset rule set, and optionally the published ratings it
    starts from (the ratings CSV of ``eloleague rate``, as text, and its file's name)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: str
    rules: str
    initial: str | None = None
    initial_name: str | None = None


@router.post(
    "/leagues",
    status_code=201,
    responses=_errors(400, 401, 403, 413, 422),
    dependencies=_TOKEN,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": LeagueIn.model_json_schema()}},
        }
    },
    summary="Create a league (officer), optionally from published ratings",
)
def create_league(request: Request, user: TokenOfficer, body: Body) -> dict[str, Any]:
    try:
        wanted = LeagueIn.model_validate_json(body)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    name = views.create_league(
        request.app.state.engine,
        wanted.name,
        wanted.rules,
        user.name,
        wanted.initial,
        wanted.initial_name,
    )
    found = views.open_league(request.app.state.engine, name)
    return {"league": name, **views.ranking(found, per_page=50)}


@router.post(
    "/leagues/{league}/seasons/close",
    responses=_errors(400, 401, 403, 404, 413, 422),
    dependencies=_TOKEN,
    openapi_extra=_SEASON_BODY,
    summary="Close a season (officer): its inactivity adjustments apply now",
)
def close_season(request: Request, league: str, user: TokenOfficer, body: Body) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    season = _season(body)
    applied = found.close_season(season.end, user=user.name, dry_run=season.dry_run)
    return {
        "closed": season.end.isoformat(),
        "dry_run": season.dry_run,
        "adjustments": views.adjustments(found, applied),
    }


@router.post(
    "/leagues/{league}/seasons/reopen",
    responses=_errors(400, 401, 403, 404, 413, 422),
    dependencies=_TOKEN,
    openapi_extra=_SEASON_BODY,
    summary="Reopen a closed season (officer): its adjustments are taken back",
)
def reopen_season(request: Request, league: str, user: TokenOfficer, body: Body) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    season = _season(body)
    undone = found.reopen_season(season.end, user=user.name)
    return {"reopened": season.end.isoformat(), "adjustments": views.adjustments(found, undone)}


@router.get(
    "/leagues/{league}/verification",
    responses={
        200: {"model": VerificationOut, "description": "What the check found."},
        **_errors(401, 403, 404),
    },
    dependencies=_TOKEN,
    summary="Whether the stored ratings are a full replay of the games (officer; nothing stored)",
)
def verification(request: Request, league: str, user: TokenOfficer) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return heavy(request).call(verified, url_of(request), found.name)


@router.post(
    "/leagues/{league}/recompute",
    responses={
        200: {"model": RecomputedOut, "description": "How many ratings changed."},
        **_errors(401, 403, 404),
    },
    dependencies=_TOKEN,
    summary="Rewrite every rating and the history from the games (officer; a repair)",
)
def recompute(request: Request, league: str, user: TokenOfficer) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return heavy(request).call(recomputed, url_of(request), found.name, user.name)


@router.get(
    "/leagues/{league}/journal",
    responses=_errors(401, 403, 404, 422),
    dependencies=_TOKEN,
    openapi_extra={
        "parameters": [
            _query(
                "limit",
                {"type": "integer", "minimum": 1, "default": 100},
                "How many changes, newest first (at most 1,000: more gives 1,000).",
            )
        ]
    },
    summary="The league's journal (officer): who changed what, when, and how much",
)
def journal(request: Request, league: str, user: TokenOfficer) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return {
        "league": found.name,
        "entries": views.journal(found, page_lang(request), **journal_args(request)),
    }
