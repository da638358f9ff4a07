"""The officers' and referees' tool pages: balance teams (anyone signed in: referees balance
teams at events), compare rule sets and evaluate predictions (officers: they replay the whole
league).

Each page is a form (with the session's CSRF token, as every form of the site) posted back to the
same address; the result is built by :mod:`eloleague.web.tools_views` (the dict the JSON API
returns) and shown under the form, with the charts of :mod:`eloleague.tools.report`. A mistake
comes back as the same page with the message in the visitor's language and a 4xx status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from markupsafe import Markup
from starlette.datastructures import FormData, UploadFile
from starlette.responses import RedirectResponse, Response

from eloleague.engine.methods import ranked
from eloleague.i18n import Text
from eloleague.league import League
from eloleague.rules import preset_names
from eloleague.rules.model import RuleSet
from eloleague.tools.report import calibration_svg, comparison_svg
from eloleague.web import tools_views, views
from eloleague.web.errors import WebError, error_body
from eloleague.web.inputs import Form, Member, Officer, too_large
from eloleague.web.pages import page_lang, render_page
from eloleague.web.security import require_user, session_user

router = APIRouter(include_in_schema=False)

MAX_DATALIST = 5000  # names the balance page offers to pick from

Context = dict[str, Any]


def _tools_url(league: str, tool: str = "") -> str:
    return f"/leagues/{quote(league, safe='')}/tools" + (f"/{tool}" if tool else "")


def _away(request: Request, league: str, tool: str = "") -> Response | None:
    """To the sign-in page (and back here) for a visitor without a session."""
    if session_user(request) is None:
        return RedirectResponse(f"/login?next={_tools_url(league, tool)}", status_code=303)
    return None


def _field(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _show(
    request: Request, template: str, context: Context, run: Callable[[], Context]
) -> Response:
    """Run a tool (the route runs in the thread pool) and show its result, or its error, under
    the form."""
    try:
        context["result"] = run()
    except WebError as exc:
        return _refused(request, template, context, exc)
    return render_page(request, template, context)


def _refused(request: Request, template: str, context: Context, exc: WebError) -> Response:
    context["error"] = error_body(exc, page_lang(request))["error"]
    return render_page(request, template, context, status=exc.status)


@router.get("/leagues/{league}/tools")
def tools_index(request: Request, league: str) -> Response:
    if (away := _away(request, league)) is not None:
        return away
    require_user(request)
    found = views.open_league(request.app.state.engine, league)
    context = {"league": found.name, "two_sided": not ranked(found.rules)}
    return render_page(request, "tools.html", context)


# balance -------------------------------------------------------------------------------------

_BALANCE_FIELDS = ("players", "teams", "sizes", "together", "apart", "mode", "home")


def _balance_context(found: League, fields: dict[str, str]) -> Context:
    return {
        "league": found.name,
        "fields": fields,
        "known": found.players()[:MAX_DATALIST],
        "modes": [m for m in views.pool_choices(found)["modes"] if m],
        "two_sided": not ranked(found.rules),
        # The home advantage's points: the form asks for the team at home only when there are.
        "venue": found.rules.home_advantage,
    }


@router.get("/leagues/{league}/tools/balance")
def balance_form(request: Request, league: str) -> Response:
    if (away := _away(request, league, "balance")) is not None:
        return away
    require_user(request)
    found = views.open_league(request.app.state.engine, league)
    fields = dict.fromkeys(_BALANCE_FIELDS, "") | {"teams": "2"}
    return render_page(request, "balance.html", _balance_context(found, fields))


@router.post("/leagues/{league}/tools/balance")
def balance_run(request: Request, league: str, user: Member, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    fields = {k: _field(form, k) for k in _BALANCE_FIELDS}
    picked = _field(form, "add_player").strip()
    if picked:  # a name picked from the league's players joins the list
        fields["players"] = "\n".join([*tools_views.names_of(fields["players"]), picked])
    context = _balance_context(found, fields)
    if "add" in form:  # "Add to the list": nothing computed yet
        return render_page(request, "balance.html", context)

    def run() -> Context:
        return tools_views.split_teams(
            found,
            tools_views.names_of(fields["players"]),
            teams=tools_views.whole_number(fields["teams"], Text.of("Number of teams")),
            sizes=tools_views.sizes_of(fields["sizes"]),
            together=tools_views.groups_of(fields["together"]),
            apart=tools_views.groups_of(fields["apart"]),
            mode=fields["mode"],
            home=fields["home"],
        )

    return _show(request, "balance.html", context, run)


# compare and evaluate ------------------------------------------------------------------------


def _rules_context(found: League, fields: dict[str, str]) -> Context:
    return {
        "league": found.name,
        "fields": fields,
        "presets": preset_names(),
        "own_rules": found.rules.name,
    }


def _other_rules(request: Request, form: FormData, fields: dict[str, str]) -> RuleSet | None:
    """The rule set the form chose: a preset, an uploaded rule file, or a pasted one."""
    text: str | None = fields["rules"] or None
    name: str | None = None
    upload = form.get("rules_file")
    if isinstance(upload, UploadFile) and upload.filename:
        limit = request.app.state.settings.max_upload_bytes
        content = upload.file.read(limit + 1)
        if len(content) > limit:
            raise too_large(limit)
        name = upload.filename.replace("\\", "/").rsplit("/", 1)[-1] or "rules.toml"
        text = tools_views.decode_rule_file(content, name)
        fields["rules"] = text  # shown again in the text area, to be fixed there
    return tools_views.other_rules(fields["preset"], text, name)


def _rules_fields(form: FormData) -> dict[str, str]:
    return {k: _field(form, k) for k in ("preset", "rules", "movers", "baselines")}


def _rules_form(request: Request, league: str, tool: str, fields: dict[str, str]) -> Response:
    """The form of a tool that replays the league under another rule set (``compare``,
    ``evaluate``), filled with ``fields``: for officers; a visitor without a session is sent to
    sign in first."""
    if (away := _away(request, league, tool)) is not None:
        return away
    require_user(request, officer=True)
    found = views.open_league(request.app.state.engine, league)
    return render_page(request, f"{tool}.html", _rules_context(found, fields))


@router.get("/leagues/{league}/tools/compare")
def compare_form(request: Request, league: str) -> Response:
    return _rules_form(request, league, "compare", {"preset": "", "rules": "", "movers": "10"})


@router.post("/leagues/{league}/tools/compare")
def compare_run(request: Request, league: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    fields = _rules_fields(form)
    context = _rules_context(found, fields)
    lang = page_lang(request)
    try:
        other = tools_views.require_rules(_other_rules(request, form, fields))
        movers = tools_views.whole_number(fields["movers"], Text.of("Biggest movers to show"))
    except WebError as exc:
        return _refused(request, "compare.html", context, exc)

    def run() -> Context:
        found_c = tools_views.run_comparison(found, other, movers=10 if movers is None else movers)
        out = tools_views.comparison_dict(found, found_c)
        out["chart"] = Markup(comparison_svg(found_c, lang))  # escaped in tools/svg.py
        return out

    return _show(request, "compare.html", context, run)


@router.get("/leagues/{league}/tools/evaluate")
def evaluate_form(request: Request, league: str) -> Response:
    return _rules_form(request, league, "evaluate", {"preset": "", "rules": "", "baselines": "on"})


@router.post("/leagues/{league}/tools/evaluate")
def evaluate_run(request: Request, league: str, user: Officer, form: Form) -> Response:
    found = views.open_league(request.app.state.engine, league)
    fields = _rules_fields(form)
    context = _rules_context(found, fields)
    lang = page_lang(request)
    try:
        other = _other_rules(request, form, fields)
    except WebError as exc:
        return _refused(request, "evaluate.html", context, exc)
    baselines = bool(fields["baselines"])

    def run() -> Context:
        found_e = tools_views.run_evaluation(found, other, baselines=baselines)
        out = tools_views.evaluation_dict(found, found_e)
        out["chart"] = Markup(calibration_svg(found_e, lang))  # escaped in tools/svg.py
        return out

    return _show(request, "evaluate.html", context, run)
