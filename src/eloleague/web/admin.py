"""The officers' and referees' pages: sign in, upload a result sheet, review, confirm, correct,
delete a game, close a season. Every form carries a CSRF token (:func:`checked_form`).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from starlette.datastructures import FormData, UploadFile
from starlette.responses import RedirectResponse, Response

from eloleague import accounts
from eloleague.errors import EloleagueError, InputError
from eloleague.i18n import Text
from eloleague.store.messages import season_closed, season_reopened
from eloleague.web import uploads, views
from eloleague.web.errors import WebError, as_web_error, error_body, translate
from eloleague.web.inputs import Form, Member, Officer, too_large
from eloleague.web.offload import heavy, url_of
from eloleague.web.pages import page_lang, render_page
from eloleague.web.security import (
    SignInThrottle,
    live_sessions,
    log_in,
    log_out,
    require_user,
    session_user,
    sign_out_everywhere,
)
from eloleague.web.verification import recomputed, verified

router = APIRouter(include_in_schema=False)


def _league_url(name: str) -> str:
    return f"/leagues/{quote(name, safe='')}"


@router.get("/login")
def login_form(request: Request) -> Response:
    return render_page(request, "login.html", {"next": request.query_params.get("next", "")})


@router.post("/login")
def login(request: Request, form: Form) -> Response:
    name = str(form.get("name", ""))
    password = str(form.get("password", ""))
    throttle: SignInThrottle = request.app.state.sign_ins
    address = request.client.host if request.client else ""
    now = request.app.state.clock()
    wait = throttle.wait(address, name, now)
    if wait:
        raise WebError(
            429,
            "too_many_requests",
            Text.plural(
                "too many wrong passwords for this name: try again in {count} minute",
                "too many wrong passwords for this name: try again in {count} minutes",
                (wait + 59) // 60,
            ),
            headers={"Retry-After": str(wait)},
        )
    user = accounts.authenticate(request.app.state.engine, name, password)
    if user is None:
        throttle.failed(address, name, request.app.state.clock())
        return render_page(
            request,
            "login.html",
            {"failed": True, "name": name, "next": str(form.get("next", ""))},
            status=401,
        )
    throttle.succeeded(address, name)
    log_in(request, user)
    target = str(form.get("next") or "/admin")
    if not target.startswith("/") or target.startswith("//"):
        target = "/admin"
    return RedirectResponse(target, status_code=303)


@router.post("/logout")
def logout(request: Request, form: Form) -> Response:
    log_out(request)
    return RedirectResponse("/", status_code=303)


@router.get("/admin")
def dashboard(request: Request) -> Response:
    if session_user(request) is None:  # never signed in, or the session has ended
        return RedirectResponse("/login?next=/admin", status_code=303)
    user = require_user(request)
    engine = request.app.state.engine
    leagues = []
    for item in views.leagues(engine)["leagues"]:
        league = views.open_league(engine, item["name"])
        leagues.append(
            {
                "name": league.name,
                "pending": league.pending_uploads(),
                "closings": league.closings_after_last_game() if user.is_officer else [],
                "journal": views.journal(league, page_lang(request), 10) if user.is_officer else [],
            }
        )
    counts = live_sessions(request)
    people = (
        [
            {"name": u.name, "role": u.role, "sessions": counts.get(u.id, 0)}
            for u in accounts.list_users(engine)
        ]
        if user.is_officer
        else []
    )
    return render_page(
        request,
        "admin.html",
        {"leagues": leagues, "me": user, "my_sessions": counts.get(user.id, 0), "people": people},
    )


@router.post("/admin/sign-out-everywhere")
def sign_out_mine(request: Request, user: Member, form: Form) -> Response:
    """End every session of the signed-in account, this one included."""
    sign_out_everywhere(request, user.name)
    return RedirectResponse("/login", status_code=303)


@router.post("/admin/users/{name}/sign-out")
def sign_out_user(request: Request, name: str, user: Officer, form: Form) -> Response:
    """An officer ends every session of an account (a lost phone, a departed referee)."""
    try:
        count = sign_out_everywhere(request, name)
    except EloleagueError as exc:
        raise WebError(404, "not_found", exc.message) from None
    if name == user.name:
        return RedirectResponse("/login", status_code=303)
    request.session["flash"] = translate(
        accounts.signed_out_text(name, count),
        page_lang(request),
    )
    return RedirectResponse("/admin", status_code=303)


@router.get("/admin/leagues/new")
def new_league_form(request: Request) -> Response:
    if session_user(request) is None:
        return RedirectResponse("/login?next=/admin/leagues/new", status_code=303)
    user = require_user(request)
    if not user.is_officer:
        raise WebError(403, "forbidden", Text.of("only an officer may do this"))
    return render_page(request, "new_league.html", _new_league_context({}))


def _new_league_context(form: dict[str, str]) -> dict[str, Any]:
    from eloleague.rules import preset_names

    return {"presets": preset_names(), "form": form}


@router.post("/admin/leagues/new")
def new_league(request: Request, user: Officer, form: Form) -> Response:
    """Create a league from a rule set, starting from a published ratings CSV when one is sent
    (docs/league.md, "Starting from published ratings")."""
    lang = page_lang(request)
    given = {"name": str(form.get("name", "")).strip(), "rules": str(form.get("rules", ""))}
    ratings = form.get("ratings")
    text = source = None
    try:
        if isinstance(ratings, UploadFile) and ratings.filename:
            limit = request.app.state.settings.max_upload_bytes
            content = ratings.file.read(limit + 1)
            if len(content) > limit:
                raise too_large(limit)
            source = uploads.safe_name(ratings.filename)
            text = uploads.csv_text(content, source)
        created = views.create_league(
            request.app.state.engine, given["name"], given["rules"], user.name, text, source
        )
    except (InputError, EloleagueError, WebError) as exc:
        error = as_web_error(exc)
        return render_page(
            request,
            "new_league.html",
            {**_new_league_context(given), "error": error_body(error, lang)["error"]},
            status=error.status,
        )
    return RedirectResponse(_league_url(created), status_code=303)


@router.get("/leagues/{league}/upload")
def upload_form(request: Request, league: str) -> Response:
    if session_user(request) is None:
        return RedirectResponse(f"/login?next={_league_url(league)}/upload", status_code=303)
    require_user(request)
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, "upload.html", {"league": found.name})


@router.post("/leagues/{league}/upload")
def upload(request: Request, league: str, user: Member, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    sheet = form.get("sheet")
    lang = page_lang(request)
    if not isinstance(sheet, UploadFile) or not sheet.filename:
        return render_page(
            request,
            "upload.html",
            {
                "league": found.name,
                "error": error_body(
                    WebError(400, "no_file", Text.of("choose a file to send")), lang
                )["error"],
            },
            status=400,
        )
    limit = request.app.state.settings.max_upload_bytes
    content = sheet.file.read(limit + 1)
    if len(content) > limit:
        return render_page(
            request,
            "upload.html",
            {
                "league": found.name,
                "error": error_body(too_large(limit), lang)["error"],
            },
            status=413,
        )
    try:
        report = heavy(request).call(
            uploads.previewed_file,
            url_of(request),
            found.name,
            sheet.filename,
            content,
            user.name,
            lang,
        )
    except (InputError, EloleagueError, WebError) as exc:
        error = as_web_error(exc)  # 422 (the file) or 503 (stopped: too long)
        page = render_page(
            request,
            "upload.html",
            {
                "league": found.name,
                "filename": uploads.safe_name(sheet.filename),
                "error": error_body(error, lang)["error"],
            },
            status=422 if error.status == 400 else error.status,
        )
        page.headers.update(error.headers or {})
        return page
    upload_id = found.hold_upload(user.id, uploads.safe_name(sheet.filename), content)
    return render_page(
        request,
        "preview.html",
        {
            "league": found.name,
            "upload_id": upload_id,
            "filename": uploads.safe_name(sheet.filename),
            "report": report,
        },
    )


@router.get("/leagues/{league}/uploads/{upload_id}")
def review(request: Request, league: str, upload_id: int) -> Response:
    user = require_user(request)
    found = views.open_league(request.app.state.engine, league)
    lang = page_lang(request)
    try:
        item, content = found.pending_upload(upload_id)
        report = heavy(request).call(
            uploads.previewed_file,
            url_of(request),
            found.name,
            item.filename,
            content,
            user.name,
            lang,
        )
    except (InputError, EloleagueError) as exc:
        raise as_web_error(exc) from None
    return render_page(
        request,
        "preview.html",
        {
            "league": found.name,
            "upload_id": upload_id,
            "filename": item.filename,
            "status": item.status,
            "sender": item.user,
            "report": report,
        },
    )


@router.post("/leagues/{league}/uploads/{upload_id}/confirm")
def confirm(request: Request, league: str, upload_id: int, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    report = uploads.confirm(found, upload_id, user.name, _name_choices(form))
    request.session["flash"] = report.summary_in(page_lang(request))
    return RedirectResponse(_league_url(found.name), status_code=303)


def _name_choices(form: FormData) -> dict[str, str]:
    """The preview page's choice for each new name that looks like a registered player:
    ``name_N`` the name as the file spells it, ``map_N`` the player it is (empty: a new player)."""
    out = {}
    for key, value in form.multi_items():
        if key.startswith("name_") and isinstance(value, str):
            target = form.get("map_" + key.removeprefix("name_"))
            if isinstance(target, str) and target.strip():
                out[value] = target
    return out


@router.post("/leagues/{league}/uploads/{upload_id}/reject")
def reject(request: Request, league: str, upload_id: int, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    found.reject_upload(upload_id)
    return RedirectResponse("/admin", status_code=303)


@router.post("/leagues/{league}/games/{game:path}/delete")
def delete_game(request: Request, league: str, game: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)
    if form.get("confirm") != "yes":  # the page's box must be ticked: a deletion is not undone
        raise WebError(
            422,
            "invalid_request",
            Text.of("tick the box to confirm the deletion; nothing was deleted"),
        )
    try:
        found.delete_game(game, user=user.name)
    except EloleagueError as exc:
        raise WebError(404, "not_found", exc.message) from None
    request.session["flash"] = translate(
        Text.of("game {game} deleted", game=game), page_lang(request)
    )
    return RedirectResponse(_league_url(found.name), status_code=303)


@router.get("/leagues/{league}/games/{game:path}/edit")
def edit_form(request: Request, league: str, game: str) -> Response:
    require_user(request, officer=True)
    found = views.open_league(request.app.state.engine, league)
    context = views.explain(found, game)
    line = _line(context["game"])
    return render_page(request, "edit.html", {"league": found.name, "game_id": game, "line": line})


def _line(game: dict[str, Any]) -> str:
    out: dict[str, Any] = {"date": game["date"]}
    if not game["id"].startswith("#"):  # #N is the number of a game without id, not an id
        out["id"] = game["id"]
    for key in ("event", "round"):
        if game[key] is not None:
            out[key] = game[key]
    if game["mode"]:
        out["mode"] = game["mode"]
    if not game["rated"]:
        out["rated"] = False
    if game.get("home") is not None:
        out["home"] = game["home"]
    if game.get("neutral"):
        out["neutral"] = True
    out["sides"] = [
        {
            "players": [p["name"] if not p["role"] else p for p in s["players"]],
            **({"outcome": s["outcome"]} if s["outcome"] is not None else {"score": s["score"]}),
        }
        for s in game["sides"]
    ]
    return json.dumps(out, ensure_ascii=False)


@router.post("/leagues/{league}/games/{game:path}/edit")
def edit(request: Request, league: str, game: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    views.require_game(found, game)  # a correction never creates a game: 404
    line = str(form.get("line", "")).strip()
    try:
        records = uploads.games_from_body(found, line.encode(), source=game, one=True)
        uploads.correct(found, game, records, user.name)
    except (InputError, EloleagueError) as exc:
        return render_page(
            request,
            "edit.html",
            {
                "league": found.name,
                "game_id": game,
                "line": line,
                "error": error_body(as_web_error(exc), page_lang(request))["error"],
            },
            status=422,
        )
    request.session["flash"] = translate(
        Text.of("game {game} corrected", game=game), page_lang(request)
    )
    return RedirectResponse(_league_url(found.name), status_code=303)


def _season_end(form: FormData) -> dt.date:
    """The season's last day a form names (400 otherwise)."""
    try:
        return dt.date.fromisoformat(str(form.get("end", "")))
    except ValueError:
        raise WebError(
            400, "bad_date", Text.of("give the season's last day as YYYY-MM-DD")
        ) from None


@router.post("/leagues/{league}/seasons/close")
def close_season(request: Request, league: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    end = _season_end(form)
    if form.get("confirm") != "yes":  # first the list of what the closing will do
        planned = found.close_season(end, user=user.name, dry_run=True)
        return render_page(
            request,
            "season_close.html",
            {
                "league": found.name,
                "end": end.isoformat(),
                "adjustments": views.adjustments(found, planned),
            },
        )
    applied = found.close_season(end, user=user.name)
    request.session["flash"] = translate(
        season_closed(end.isoformat(), len(applied)), page_lang(request)
    )
    return RedirectResponse(_league_url(found.name), status_code=303)


@router.post("/leagues/{league}/seasons/reopen")
def reopen_season(request: Request, league: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    end = _season_end(form)
    undone = found.reopen_season(end, user=user.name)
    request.session["flash"] = translate(
        season_reopened(end.isoformat(), len(undone)), page_lang(request)
    )
    return RedirectResponse(_league_url(found.name), status_code=303)


@router.post("/leagues/{league}/verify")
def verify(request: Request, league: str, user: Officer, form: Form) -> Response:
    """Whether the league's stored ratings are a full replay of its games (docs/league.md,
    "Checking a league"): replayed in the helper process, nothing stored."""
    found = views.open_league(request.app.state.engine, league)
    checked = heavy(request).call(verified, url_of(request), found.name, page_lang(request))
    return render_page(request, "verify.html", checked)


@router.post("/leagues/{league}/recompute")
def recompute(request: Request, league: str, user: Officer, form: Form) -> Response:
    """Every rating and the history written again from the games (a repair, in the journal)."""
    found = views.open_league(request.app.state.engine, league)
    done = heavy(request).call(
        recomputed, url_of(request), found.name, user.name, page_lang(request)
    )
    request.session["flash"] = done["said"]
    return RedirectResponse(_league_url(found.name), status_code=303)
