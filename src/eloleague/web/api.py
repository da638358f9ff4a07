"""The JSON API under ``/api/v1/``: the same data as each page, and authenticated writes.

Reads are public. Writes need ``Authorization: Bearer <token>``: an officer's token imports,
corrects, deletes and closes seasons; a referee's token may post results, which wait for an
officer's review (``202`` with the upload's number). Errors have one shape
(:mod:`eloleague.web.errors`). OpenAPI: ``/api/v1/openapi.json``, browsable at ``/api/v1/docs``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field, ValidationError
from starlette.responses import JSONResponse

from eloleague.errors import Problem
from eloleague.i18n import Text
from eloleague.web import uploads, views
from eloleague.web.errors import WebError
from eloleague.web.pages import events_args, list_args, page_lang, ranking_args
from eloleague.web.rules_words import describe
from eloleague.web.security import bearer_user

router = APIRouter(prefix="/api/v1")

_GAMES_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "Games in the interchange format (RULES.md §2): JSON Lines, or a JSON "
        "array of game objects.",
        "content": {
            "application/x-ndjson": {"schema": {"type": "string"}},
            "application/json": {"schema": {"type": "array", "items": {"type": "object"}}},
        },
    }
}


class Row(BaseModel):
    """One ranking row (the columns of ``eloleague ranking --format csv``)."""

    rank: int
    player: str
    mode: str
    role: str
    rating: int | float
    games: int
    title: str
    trend: int | float | None


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


class ErrorOut(BaseModel):
    """The one error shape: ``{"error": {"code", "message", "problems": [...]}}``."""

    error: dict[str, Any]


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
        *_PAGE,
    ]
}
_EVENTS_QUERY: dict[str, Any] = {"parameters": _PAGE}

# Documents the bearer token on the writes (bearer_user checks it; this only describes it).
_TOKEN = [
    Security(HTTPBearer(auto_error=False, description="An API token: eloleague token create USER"))
]

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut},
    422: {"model": ErrorOut},
    401: {"model": ErrorOut},
}


class SeasonIn(BaseModel):
    """The last day of the season to close."""

    end: dt.date


@router.get("/leagues", summary="The leagues of this site")
def leagues(request: Request) -> dict[str, Any]:
    return views.leagues(request.app.state.engine)


@router.get(
    "/leagues/{league}",
    response_model=RankingOut,
    responses=_ERRORS,
    openapi_extra=_RANKING_QUERY,
    summary="The ranking (filters: mode, role, q, active_since; page, per_page)",
)
def ranking(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.ranking(found, **ranking_args(request, strict=True))


@router.get(
    "/leagues/{league}/ranking",
    response_model=RankingOut,
    responses=_ERRORS,
    openapi_extra=_RANKING_QUERY,
    summary="The ranking (same as /leagues/{league})",
)
def ranking_alias(request: Request, league: str) -> dict[str, Any]:
    return ranking(request, league)


@router.get(
    "/leagues/{league}/players/{name:path}",
    responses=_ERRORS,
    summary="A player: pools, title, history per pool, every change explained",
)
def player(request: Request, league: str, name: str) -> dict[str, Any]:
    return views.player(views.open_league(request.app.state.engine, league), name)


@router.get(
    "/leagues/{league}/history/{name:path}",
    responses=_ERRORS,
    summary="A player's rating after each change, per pool",
)
def history(request: Request, league: str, name: str) -> dict[str, Any]:
    return views.history(views.open_league(request.app.state.engine, league), name)


@router.get(
    "/leagues/{league}/games/{game:path}",
    responses=_ERRORS,
    summary="Explain a game: before, P, K, S, delta and the rules that fired",
)
def explain(request: Request, league: str, game: str) -> dict[str, Any]:
    return views.explain(views.open_league(request.app.state.engine, league), game)


@router.get(
    "/leagues/{league}/events",
    responses=_ERRORS,
    openapi_extra=_EVENTS_QUERY,
    summary="The league's events",
)
def events(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.events(found, **events_args(request, strict=True))


@router.get(
    "/leagues/{league}/events/{name:path}",
    responses=_ERRORS,
    summary="An event's games, results and rating changes",
)
def event(request: Request, league: str, name: str) -> dict[str, Any]:
    return views.event(views.open_league(request.app.state.engine, league), name)


@router.get(
    "/leagues/{league}/list",
    responses=_ERRORS,
    summary="The published list: the ranking as of a day (date, mode, role)",
)
def published_list(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.published_list(found, **list_args(request, found, strict=True))


@router.get("/leagues/{league}/rules", responses=_ERRORS, summary="The rule set in words")
def rules(request: Request, league: str) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return {
        "league": found.name,
        "rules": describe(found.rules, page_lang(request)),
        "toml": found.rules_text,
    }


@router.get("/leagues/{league}/titles", responses=_ERRORS, summary="Who holds which title")
def titles(request: Request, league: str) -> dict[str, Any]:
    return views.titles(views.open_league(request.app.state.engine, league))


class OddsIn(BaseModel):
    """A game to predict: two or more sides of player names, and the mode."""

    sides: list[list[Annotated[str, Field(max_length=200)]]] = Field(
        max_length=64, description="The sides, each a list of player names."
    )
    mode: str = Field("", max_length=200, description="The rating mode, for rule sets with modes.")


@router.post(
    "/leagues/{league}/predict",
    responses=_ERRORS,
    summary="Odds of a game: each player's P, K and the change under every result",
)
def predict(request: Request, league: str, game: OddsIn) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return views.odds(found, game.sides, game.mode)


# Writes -----------------------------------------------------------------------------------------


@router.post(
    "/leagues/{league}/games/preview",
    responses=_ERRORS,
    dependencies=_TOKEN,
    openapi_extra=_GAMES_BODY,
    summary="Dry run: what posting these games would change (nothing is stored)",
)
async def preview(request: Request, league: str) -> dict[str, Any]:
    user = bearer_user(request)
    found = views.open_league(request.app.state.engine, league)
    body = await _body(request)
    records = uploads.games_from_body(found, body)
    report = uploads.preview(found, records, "api", body, user.name)
    return uploads.report_dict(found, report, page_lang(request))


@router.post(
    "/leagues/{league}/games",
    responses=_ERRORS,
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
async def post_games(request: Request, league: str) -> JSONResponse:
    user = bearer_user(request)
    found = views.open_league(request.app.state.engine, league)
    body = await _body(request)
    records = uploads.games_from_body(found, body)
    lang = page_lang(request)
    if not user.is_officer:
        report = uploads.preview(found, records, "api", body, user.name)
        upload_id = uploads.hold(found, user.id, "api.jsonl", _as_jsonl(body))
        return JSONResponse(
            {
                "status": "pending_review",
                "upload": upload_id,
                "preview": uploads.report_dict(found, report, lang),
            },
            status_code=202,
        )
    update = _flag(request, "update")
    report = found.import_games(records, source="api", update=update, user=user.name)
    return JSONResponse(
        {"status": "imported", **uploads.report_dict(found, report, lang)},
        status_code=201 if report.changed else 200,
    )


async def _body(request: Request) -> bytes:
    """The request's body, refused with 413 past the site's upload limit (read in chunks)."""
    limit = request.app.state.settings.max_upload_bytes
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _flag(request: Request, name: str) -> bool:
    """A true/false query parameter; anything else is a 422 (a typo must not mean false)."""
    value = request.query_params.get(name, "").lower()
    if value in ("", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise WebError(
        422,
        "invalid_request",
        Text.of("the request is not valid"),
        [
            Problem(
                Text.of("query parameter {name}", name=name),
                Text.of("{value!r}: expected true or false", value=value),
            )
        ],
    )


def _too_large(limit: int) -> WebError:
    return WebError(413, "too_large", Text.of("the file is larger than {n} bytes", n=limit))


def _as_jsonl(body: bytes) -> bytes:
    text = body.strip()
    if text.startswith(b"["):
        import json

        return b"\n".join(json.dumps(x, ensure_ascii=False).encode() for x in json.loads(text))
    return text


@router.put(
    "/leagues/{league}/games/{game:path}",
    responses=_ERRORS,
    dependencies=_TOKEN,
    openapi_extra=_GAMES_BODY,
    summary="Correct a game (officer): the body is the corrected game",
)
async def correct(request: Request, league: str, game: str) -> dict[str, Any]:
    user = bearer_user(request, officer=True)
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)  # a correction never creates a game: 404
    records = uploads.games_from_body(found, await _body(request), source=game)
    report = uploads.correct(found, game, records, user.name)
    return uploads.report_dict(found, report, page_lang(request))


@router.delete(
    "/leagues/{league}/games/{game:path}",
    responses=_ERRORS,
    dependencies=_TOKEN,
    summary="Delete a game (officer); ratings are recomputed",
)
def delete(request: Request, league: str, game: str) -> dict[str, Any]:
    bearer_user(request, officer=True)
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)
    found.delete_game(game)
    return {"deleted": game}


@router.post(
    "/leagues/{league}/seasons/close",
    responses=_ERRORS,
    dependencies=_TOKEN,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": SeasonIn.model_json_schema()}},
        }
    },
    summary="Close a season (officer): its inactivity adjustments apply now",
)
async def close_season(request: Request, league: str) -> dict[str, Any]:
    user = bearer_user(request, officer=True)  # before reading the body: 401 first
    found = views.open_league(request.app.state.engine, league)
    try:
        season = SeasonIn.model_validate_json(await _body(request))
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    found.close_season(season.end, user=user.name)
    return {"closed": season.end.isoformat()}
