"""The public pages: ranking, player, game, event, rules and titles (server-rendered Jinja2).

Each route builds its context with :mod:`eloleague.web.views` (the same dict the JSON API returns
under ``/api/v1/``) and renders a template; language, user and CSRF token are added here.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from functools import partial
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from jinja2 import Environment, PackageLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup, escape
from starlette.datastructures import UploadFile as StarletteUpload
from starlette.responses import HTMLResponse, RedirectResponse, Response

from eloleague.engine import GLOBAL_ROLE, Standing
from eloleague.engine.methods import ranked
from eloleague.errors import EloleagueError, Problem
from eloleague.i18n import Text, count_of, grouped, ngettext, numbers_in, translator
from eloleague.io.limits import NAME_MAX, storable
from eloleague.io.published import ListPage, list_pdf
from eloleague.io.sheets.exports import ranking_workbook
from eloleague.league import League
from eloleague.rules.model import RuleSet
from eloleague.store.faces import COLOURS, MAX_LOGO_BYTES, Face
from eloleague.web import language, views
from eloleague.web.chart import NARROW, WIDE, ChartPoint, Series, history_svg, legend
from eloleague.web.errors import WebError, error_body, not_found
from eloleague.web.numbers import colon, day, place, plain, readable, signed
from eloleague.web.rules_words import describe
from eloleague.web.security import checked_form, csrf_token, require_user, session_user

router = APIRouter()


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Pages(Environment):
    """Jinja2's environment, with ``x.name`` on a dict read as ``x["name"]`` at once: Jinja
    tries the attribute first, and for a dict that failed with an exception each time (a fifth
    of an event's page of 200 games: docs/benchmarks.md, "Web site"). The same answers: a
    dict's own attributes (``items``, ``get``…) still come first, as Jinja gives them."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def templates() -> Environment:
    """The Jinja2 environment of the site's templates (autoescaped)."""
    env = _Pages(
        loader=PackageLoader("eloleague.web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["q"] = lambda value: quote(str(value), safe="")
    env.filters["day"] = day
    env.filters["count_of"] = count_of
    # a rule file's label (marginal_victory) broken after its underscores only, not mid-word
    env.filters["breakable"] = lambda value: escape(str(value)).replace("_", Markup("_<wbr>"))
    env.filters["sentence"] = sentence
    env.globals["place"] = place
    env.globals["colon"] = colon
    # Numbers in the page's language (decimal comma in French), names in the rule file's labels.
    native_format = env.filters["format"]

    def in_lang(ctx: Context, text: str) -> str:
        return numbers_in(text, ctx.get("lang", "en"))

    env.filters["format"] = pass_context(
        lambda ctx, fmt, *args, **kw: in_lang(ctx, native_format(fmt, *args, **kw))
    )
    env.filters["signed"] = pass_context(lambda ctx, v: in_lang(ctx, signed(v)))
    env.filters["r"] = pass_context(lambda ctx, v: in_lang(ctx, readable(v)))
    env.filters["n"] = pass_context(lambda ctx, v: "" if v is None else in_lang(ctx, _shown(v)))
    # a count, its thousands apart from 10,000 (48,512; in French 48 512)
    env.filters["grouped"] = pass_context(lambda ctx, v: grouped(v, ctx.get("lang", "en")))
    env.filters["named"] = pass_context(
        lambda ctx, name: (ctx.get("labels") or {}).get(name, name) if name else name
    )
    return env


def sentence(value: object) -> str:
    """A message shown alone, as a sentence (an error box's headline): messages are written to
    follow a place (« ligne 3 : la date manque »), so they start with a small letter."""
    text = value if isinstance(value, Markup) else str(value)
    return text[:1].upper() + text[1:]


def _shown(value: object) -> str:
    """A number as a page shows it: whole numbers without ``.0``, others rounded to 3 places."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(plain(value))
    return str(value)


def rule_labels(rules: RuleSet, lang: str) -> dict[str, str]:
    """The names of a rule file (titles, roles, modes, outcomes) that read otherwise in ``lang``
    (the ``named`` filter of the templates)."""
    names = set(rules.labels.get(lang, {})) | set(rules.outcomes)  # type: ignore[call-overload]
    return {name: rules.label(name, lang) for name in names}


def page_lang(request: Request) -> str:
    """The visitor's language (query, cookie, Accept-Language, then the site's default)."""
    settings = request.app.state.settings
    return language.choose(request, settings.default_lang)


def render_page(
    request: Request, template: str, context: dict[str, Any], status: int = 200
) -> HTMLResponse:
    """Render ``template`` with ``context`` plus language, translator, user and CSRF token."""
    lang = page_lang(request)
    gettext = translator(lang, "web")
    other = "en" if lang == "fr" else "fr"
    if isinstance(context.get("league"), str) and not {"face", "labels"} <= context.keys():
        try:  # the league's name, colour and logo in the header, its rule file's names
            found = views.open_league(request.app.state.engine, context["league"])
            context = {
                "face": views.face(found),
                "labels": rule_labels(found.rules, lang),
                "role_word": found.rules.roles_heading(lang),  # Diplomacy's "Pays"
                "role_noun": found.rules.role_noun(lang),  # and "pays" in a sentence
                **context,
            }
        except WebError:
            context = {"face": None, "labels": {}, **context}
    params = dict(request.query_params)
    params["lang"] = other
    html = request.app.state.templates.get_template(template).render(
        {
            **context,
            "request": request,
            "lang": lang,
            "_": gettext,
            "_n": partial(ngettext, lang, "web"),
            "user": session_user(request),
            "csrf_token": csrf_token(request),
            "switch_url": request.url.path + "?" + urlencode(params),
            "switch_lang": other,
            "json_url": _json_twin(request),
            "flash": request.session.pop("flash", None),
        }
    )
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("lang") in ("fr", "en"):
        response.set_cookie(language.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def _json_twin(request: Request) -> str | None:
    path = request.url.path
    if not path.startswith("/leagues/") or "/upload" in path or path.endswith("/edit"):
        return None
    if path.split("/")[3:4] == ["tools"]:  # the tools' twins take a POSTed body (tools_api)
        return None
    query = request.url.query
    return "/api/v1" + path + ("?" + query if query else "")


_WHOLE = re.compile(r"-?[0-9]+")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class _Query:
    """Reads a query string. Pages are lenient (a bad or empty value falls back to its default,
    the page still shows); the API is strict (a program learns of its mistake: 422 with every
    problem, an empty value included: the OpenAPI says a date or a whole number)."""

    def __init__(self, request: Request, strict: bool) -> None:
        self.params = request.query_params
        self.strict = strict
        self.problems: list[Problem] = []

    def _bad(self, name: str, message: Text) -> None:
        if self.strict:
            self.problems.append(Problem(Text.of("query parameter {name}", name=name), message))

    def _given(self, name: str) -> str | None:
        """The parameter's value; ``None`` when it is absent (or empty, for a page)."""
        value = self.params.get(name)
        return None if value is None or (value == "" and not self.strict) else value

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        value = self._given(name)
        try:
            if value is not None and not _WHOLE.fullmatch(value):  # int() takes " 1_0", "٣"
                raise ValueError(value)
            number = int(value) if value is not None else default
        except ValueError:
            self._bad(name, Text.of("{value!r} is not a whole number", value=value))
            number = default
        if number < low:
            self._bad(name, Text.of("expected {low} or more", low=low))
        return max(low, min(high, number))  # past the most a page shows: that most

    def text(self, name: str, *, strip: bool = False) -> str | None:
        """A text value, ``None`` when absent; one no league can hold (a control character such
        as NUL, too long) is refused (API) or ignored (pages), never sent to the database."""
        value = self.params.get(name) or ""
        if strip:
            value = value.strip()
        if not value:
            return None
        if not storable(value):
            self._bad(
                name,
                Text.of(
                    "expected a text of at most {max} characters, without control characters",
                    max=NAME_MAX,
                ),
            )
            return None
        return value

    def texts(self, name: str, *, most: int) -> list[str]:
        """Every value of a parameter given several times (``?player=A&player=B``): at least
        one, at most ``most``, each as :meth:`text` takes it (an empty one refused)."""
        values = self.params.getlist(name)
        if not values:
            self._bad(name, Text.of("give at least one"))
        elif len(values) > most:
            self._bad(name, Text.of("at most {most} in one request", most=most))
        for value in values:
            if not value.strip():
                self._bad(name, Text.of("expected a name, not an empty text"))
            elif not storable(value):
                self._bad(
                    name,
                    Text.of(
                        "expected a text of at most {max} characters, without control characters",
                        max=NAME_MAX,
                    ),
                )
        return values

    def date(self, name: str) -> dt.date | None:
        value = self._given(name)
        if value is None:
            return None
        try:
            if not _DAY.fullmatch(value):  # fromisoformat() takes "20240101", "2024-W01-1"
                raise ValueError(value)
            return dt.date.fromisoformat(value)
        except ValueError:
            self._bad(name, Text.of("{value!r} is not a date (expected YYYY-MM-DD)", value=value))
            return None

    def done(self) -> None:
        if self.problems:
            raise WebError(
                422, "invalid_request", Text.of("the request is not valid"), self.problems
            )


def ranking_args(request: Request, *, strict: bool = False) -> dict[str, Any]:
    """The ranking's filters and page from the query string (see :class:`_Query`)."""
    settings = request.app.state.settings
    q = _Query(request, strict)
    args = {
        "mode": q.text("mode"),
        "role": q.text("role"),
        "search": q.text("q", strip=True),
        "active_since": q.date("active_since"),
        "club": q.text("club", strip=True),
        "region": q.text("region", strip=True),
        "page": q.integer("page", 1, 1, 10**9),
        "per_page": q.integer("per_page", settings.page_size, 1, settings.max_page_size),
    }
    q.done()
    return args


def events_args(request: Request, *, strict: bool = False) -> dict[str, int]:
    """The events list's page (100 events a page unless ``per_page`` says otherwise, at most 500)."""
    q = _Query(request, strict)
    args = {
        "page": q.integer("page", 1, 1, 10**9),
        "per_page": q.integer("per_page", 100, 1, 500),
    }
    q.done()
    return args


def player_args(request: Request) -> dict[str, int | None]:
    """How many of a player's rating changes the API gives (``recent``: the newest N, at least 1;
    all when absent): a game showing a player's profile after each match needs a few, not all."""
    q = _Query(request, True)
    given = q.params.get("recent")
    args = {"recent": None if given is None else q.integer("recent", 1, 1, 10**9)}
    q.done()
    return args


def ratings_args(request: Request) -> list[str]:
    """The players a request for ratings names: ``player``, repeated, 1 to
    :data:`views.MOST_PLAYERS` of them, each a name a league can hold."""
    q = _Query(request, True)
    names = q.texts("player", most=views.MOST_PLAYERS)
    q.done()
    return names


def journal_args(request: Request) -> dict[str, int]:
    """How many journal entries the API gives (``limit``: 1 to 1,000, default 100)."""
    q = _Query(request, True)
    args = {"limit": q.integer("limit", 100, 1, 1000)}
    q.done()
    return args


@router.get("/", include_in_schema=False)
def home(request: Request) -> Response:
    engine = request.app.state.engine
    rows = League.rows(engine)
    if len(rows) == 1:  # the league's own page, without the home page's summaries
        return RedirectResponse(f"/leagues/{quote(rows[0][1], safe='')}", status_code=303)
    return render_page(request, "home.html", views.leagues(engine, page_lang(request)))


@router.get("/leagues/{league}", include_in_schema=False)
def ranking_page(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    opening: list[tuple[str, str]] = []
    if found.rules.pools.by_role and "role" not in request.query_params:
        # Pooled by role: visitors first see the global ratings; "all" shows every row.
        opening.append(("role", "*"))
    choices = views.pool_choices(found)
    if "mode" not in request.query_params:
        modes = choices["modes"]
        if len(modes) > 1:  # several modes: open on the most played one ("all" shows them all)
            opening.append(("mode", modes[0]))
    if opening:
        params = urlencode([*request.query_params.multi_items(), *opening])
        return RedirectResponse(f"{request.url.path}?{params}", status_code=307)
    context = views.ranking(found, **ranking_args(request), pools=choices)
    today = dt.date.today()
    context["active_choices"] = [
        (today - dt.timedelta(days=days)).isoformat() for days in (365, 730)
    ]
    context["titled"] = bool(found.rules.titles)
    context["clubs"], context["regions"] = found.clubs_and_regions()
    return render_page(request, "ranking.html", context)


MANY_POOLS = 3  # more lines than this: the chart shows one pool at a time, chosen by a link


def _series_start(points: list[dict[str, Any]], start: float) -> float:
    """Where a pool's line starts: its starting rating from the published list, when it has one
    (docs/league.md), else the rule set's start rating."""
    if points and points[0]["kind"] == "initial":
        return float(points[0]["rating"])
    return start


def _chart(context: dict[str, Any], lang: str, rules: RuleSet, chosen: str | None) -> Markup:
    gettext = translator(lang, "web")
    # Each line by its pool's name (the value a link picks it by) and as the reader reads it
    # (« classique · Angleterre »).
    shown = {
        s["name"]: " · ".join(rules.label(x, lang) for x in (s["mode"], s["role"]) if x)
        for s in context["history"]
    }
    series = [
        Series(
            shown[s["name"]] or context["player"],
            _series_start(s["points"], float(context["start_rating"])),
            [
                ChartPoint(
                    p["date"],
                    float(p["rating"]),
                    float(p["delta"]),
                    p["game"]
                    or gettext(
                        "starting rating" if p["kind"] == "initial" else "season adjustment"
                    ),
                    p["season"],
                )
                for p in s["points"]
            ],
        )
        for s in context["history"]
    ]
    if len(series) > MANY_POOLS:
        names = [s["name"] for s in context["history"]]
        longest = max(context["history"], key=lambda s: len(s["points"]))["name"]
        pick = chosen if chosen in names else longest
        context["chart_pools"] = sorted(((n, shown[n]) for n in names), key=lambda p: p[1])
        context["chart_pool"] = pick
        series = [line for line, name in zip(series, names, strict=True) if name == pick]
    title = gettext("Rating history of {player}").format(player=context["player"])
    if context.get("chart_pool"):
        title += f" ({shown[context['chart_pool']]})"
    season = gettext("season end")
    common = {
        "title": title,
        "season_label": season,
        "fmt": "{:.0f}" if rules.rounds_to_integers else "{:.1f}",
        "season_ends": context["season_ends"],
        "lang": lang,
    }
    wide = history_svg(series, size=WIDE, css_class="chart-wide", **common)
    narrow = history_svg(series, size=NARROW, css_class="chart-narrow", **common)
    marks = bool(context["season_ends"]) or any(p.season for s in series for p in s.points)
    # built from escaped parts in chart.py
    return Markup(wide + narrow + legend(series, season_label=season, seasons=marks))


RECENT = 20  # rating changes listed on the player page unless all are asked for


@router.get("/leagues/{league}/players/{name:path}", include_in_schema=False)
def player_page(request: Request, league: str, name: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    every = request.query_params.get("changes") == "all"
    context = views.player(found, name, None if every else RECENT)
    chosen = request.query_params.get("pool")
    context["chart"] = _chart(context, page_lang(request), found.rules, chosen)
    context["two_sided"] = not ranked(found.rules)
    context["titled"] = bool(found.rules.titles)
    context["all_changes"] = every
    against = (request.query_params.get("against") or "").strip()
    home = (request.query_params.get("home") or "").strip()
    context["venue"] = bool(found.rules.home_advantage)  # the form asks for it only then
    context["home"] = home
    if against and context["two_sided"]:
        try:
            context["odds"] = views.odds(found, [[context["player"]], [against]], home=home)
        except WebError as exc:
            context["odds_error"] = error_body(exc, page_lang(request))["error"]
        context["against"] = against
    return render_page(request, "player.html", context)


@router.get("/leagues/{league}/games/{game:path}", include_in_schema=False)
def game_page(request: Request, league: str, game: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, "game.html", views.explain(found, game, page_lang(request)))


@router.get("/leagues/{league}/events", include_in_schema=False)
def events_page(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, "events.html", views.events(found, **events_args(request)))


@router.get("/leagues/{league}/events/{name:path}", include_in_schema=False)
def event_page(request: Request, league: str, name: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, "event.html", views.event(found, name, page_lang(request)))


@router.get("/leagues/{league}/rules", include_in_schema=False)
def rules_page(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    context = {"league": found.name, "rules": describe(found.rules, page_lang(request))}
    return render_page(request, "rules.html", context)


@router.get("/leagues/{league}/titles", include_in_schema=False)
def titles_page(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, "titles.html", views.titles(found))


def list_args(request: Request, found: League, *, strict: bool = False) -> dict[str, Any]:
    """The published list's day and ranking: ``date`` (a bad one: the current list on a page, a
    422 from the API), ``mode`` and ``role`` (by default the ranking the ranking page opens on)."""
    q = _Query(request, strict)
    mode = q.params.get("mode")
    role = q.params.get("role")
    if role is None and found.rules.pools.by_role:
        role = GLOBAL_ROLE
    if mode is None:
        modes = views.pool_choices(found)["modes"]
        mode = modes[0] if len(modes) > 1 else None
    day_wanted = q.date("date")
    q.done()
    return {"day": day_wanted, "mode": mode or None, "role": role or None}


def _list_title(request: Request, context: dict[str, Any]) -> tuple[str, str]:
    lang = page_lang(request)
    gettext = translator(lang, "web")
    face = context.get("face") or {}
    name = face.get("display_name") or context["league"]
    pool = " · ".join(
        x for x in (context["mode"] or "", gettext("global") if context["role"] == "*" else "") if x
    )
    title = f"{name} — {pool}" if pool else name
    return title, gettext("Ranking as of {date}").format(date=day(context["date"], lang))


@router.get("/leagues/{league}/list", include_in_schema=False)
def list_page(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    context = views.published_list(found, **list_args(request, found))
    context["face"] = views.face(found)
    context["list_title"], context["list_date"] = _list_title(request, context)
    context["titled"] = bool(found.rules.titles)
    query = urlencode({k: v for k, v in request.query_params.items() if k != "lang"})
    context["download_query"] = ("?" + query) if query else ""
    return render_page(request, "list.html", context)


def _list_rows(request: Request, found: League, context: dict[str, Any]) -> ListPage:
    lang = page_lang(request)
    gettext = translator(lang, "web")
    titled = bool(found.rules.titles)
    headings = [gettext("Rank"), gettext("Player"), gettext("Rating"), gettext("Games")]
    widths = [14.0, 80.0, 22.0, 18.0]
    if titled:
        headings.append(gettext("Title"))
        widths.append(52.0)
    rows = []
    for r in context["rows"]:
        rating = numbers_in(readable(r["rating"]), lang)
        cells = [str(r["rank"]), r["player"], rating, str(r["games"])]
        if titled:
            cells.append(found.rules.label(r["title"], lang))
        rows.append(cells)
    title, subtitle = _list_title(request, context)
    return ListPage(
        title,
        subtitle,
        headings,
        rows,
        [True, False, True, True, False][: len(headings)],
        widths,
        footer=ngettext(
            lang, "web", "{n} player · rules: {rules}", "{n} players · rules: {rules}", len(rows)
        ).format(n=len(rows), rules=found.rules.name),
    )


def _download_name(context: dict[str, Any], suffix: str) -> str:
    stem = "-".join(x for x in (context["league"], context["mode"] or "", context["date"]) if x)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem)
    return f"{safe}.{suffix}"


@router.get("/leagues/{league}/list.pdf", include_in_schema=False)
def list_pdf_download(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    context = views.published_list(found, **list_args(request, found))
    context["face"] = views.face(found)
    data = list_pdf(_list_rows(request, found, context))
    name = _download_name(context, "pdf")
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/leagues/{league}/list.xlsx", include_in_schema=False)
def list_xlsx_download(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    args = list_args(request, found)
    context = views.published_list(found, **args)
    context["face"] = views.face(found)
    title, subtitle = _list_title(request, context)
    rows = [  # the list as published: ratings at the rule set's display precision
        Standing(r["player"], r["mode"], r["role"], float(r["rating"]), r["games"], r["title"])
        for r in context["rows"]
    ]
    book = ranking_workbook(rows, found.rules, page_lang(request), title, subtitle)
    out = io.BytesIO()
    book.save(out)
    return Response(
        out.getvalue(),
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers={
            "Content-Disposition": f'attachment; filename="{_download_name(context, "xlsx")}"'
        },
    )


# The league's face ---------------------------------------------------------------------------


@router.get("/leagues/{league}/logo", include_in_schema=False)
def logo(request: Request, league: str) -> Response:
    found = views.open_league(request.app.state.engine, league)
    image = found.logo()
    if image is None:
        raise not_found("league {name} has no logo", name=found.name)
    data, media = image
    return Response(data, media_type=media, headers={"Cache-Control": "public, max-age=300"})


@router.get("/leagues/{league}/face", include_in_schema=False)
def face_form(request: Request, league: str) -> Response:
    require_user(request, officer=True)
    found = views.open_league(request.app.state.engine, league)
    context = {"league": found.name, "face": views.face(found), "colours": COLOURS}
    return render_page(request, "face.html", context)


@router.post("/leagues/{league}/face", include_in_schema=False)
async def face_save(request: Request, league: str) -> Response:
    require_user(request, officer=True)
    form = await checked_form(request)
    found = views.open_league(request.app.state.engine, league)
    upload = form.get("logo")
    logo_bytes = None
    if isinstance(upload, StarletteUpload) and upload.filename:
        logo_bytes = await upload.read(MAX_LOGO_BYTES + 1)
    wanted = Face(
        str(form.get("display_name") or ""),
        str(form.get("description") or ""),
        str(form.get("colour") or "") or None,
    )
    try:
        found.set_face(wanted, logo_bytes, keep_logo=form.get("remove_logo") != "yes")
    except EloleagueError as exc:
        context = {
            "league": found.name,
            "face": views.face(found),
            "colours": COLOURS,
            "fields": {k: str(v) for k, v in form.items() if isinstance(v, str)},
            "error": error_body(WebError(422, "invalid_input", exc.message), page_lang(request))[
                "error"
            ],
        }
        return render_page(request, "face.html", context, status=422)
    request.session["flash"] = translator(page_lang(request), "web")("The league's face is saved.")
    return RedirectResponse(f"/leagues/{quote(found.name, safe='')}", status_code=303)
