"""The tools' JSON twins under ``/api/v1/leagues/{league}/tools/``: balance teams, compare rule
sets, evaluate predictions. Each takes a JSON body and returns the dict its page shows
(:mod:`eloleague.web.tools_views`); nothing is written.

Who may call them: a signed-in browser session or ``Authorization: Bearer <token>`` (as API
writes); balance is open to every account (referees balance teams at events), compare and
evaluate to officers (they replay the whole league). Errors have the one shape of
:mod:`eloleague.web.errors`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from eloleague.accounts import User
from eloleague.web import tools_views, views
from eloleague.web.errors import ErrorOut
from eloleague.web.security import bearer_user, require_user, session_user

router = APIRouter(prefix="/api/v1", tags=["tools"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 413, 415, 422)
}


def caller(request: Request) -> User:
    """The API token's user when the request has ``Authorization``, else the session's; 401
    without either."""
    if request.headers.get("authorization") or session_user(request) is None:
        return bearer_user(request)
    return require_user(request)


def officer(request: Request) -> User:
    """As :func:`caller`, and an officer (403 otherwise)."""
    if request.headers.get("authorization") or session_user(request) is None:
        return bearer_user(request, officer=True)
    return require_user(request, officer=True)


class BalanceIn(BaseModel):
    """Players to split into teams of even strength (mean rating), and the constraints."""

    model_config = ConfigDict(strict=True)  # 0 is not false, "3" is not 3: as the schema says

    players: list[str] = Field(description="The players' names, as the league writes them.")
    teams: int | None = Field(None, description="Number of teams (default 2, or len(sizes)).")
    sizes: list[int] | None = Field(
        None, description="Each team's size (default: as even as possible, larger teams first)."
    )
    together: list[list[str]] = Field([], description="Groups of players who play in one team.")
    apart: list[list[str]] = Field([], description="Groups of players who play in different teams.")
    mode: str = Field("", description="The rating mode, for rule sets with modes.")
    home: int | None = Field(
        None,
        description=(
            "The team at home: 1 or 2 (two teams); null: neither. With the rule set's "
            "home_advantage its mean counts that many more points, and the teams are evened with "
            "it (the team at home gets the weaker players); rule sets without it ignore the "
            "venue. Any other number: 422."
        ),
        json_schema_extra={"enum": [1, 2, None]},
    )


class RulesIn(BaseModel):
    """Another rule set: a preset name, or the text of a TOML rule file (not both)."""

    model_config = ConfigDict(strict=True)

    preset: str | None = Field(None, description="A preset shipped with eloleague.")
    rules: str | None = Field(None, description="The text of a TOML rule file.")
    filename: str | None = Field(None, description="The rule file's name, for its messages.")


class CompareIn(RulesIn):
    """The rule set to replay the league's history under."""

    movers: int = Field(10, ge=0, description="How many biggest movers.")
    limit: int = Field(0, ge=0, description="Rows of the side-by-side table (0: all).")


class EvaluateIn(RulesIn):
    """The rule set to evaluate on the league's history (default: the league's own)."""

    baselines: bool = Field(True, description="Also score Elo, Glicko-2 and OpenSkill.")


@router.post(
    "/leagues/{league}/tools/balance",
    responses=_ERRORS,
    dependencies=[Depends(caller)],
    summary="Balance teams (signed in): even teams by mean rating, with constraints",
)
def balance(request: Request, league: str, body: BalanceIn) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    return tools_views.split_teams(
        found,
        body.players,
        teams=body.teams,
        sizes=body.sizes,
        together=body.together,
        apart=body.apart,
        mode=body.mode,
        home=body.home,
    )


@router.post(
    "/leagues/{league}/tools/compare",
    responses=_ERRORS,
    dependencies=[Depends(officer)],
    summary="Compare rule sets (officer): the league's history replayed under another rule set",
)
def compare(request: Request, league: str, body: CompareIn) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    other = tools_views.require_rules(
        tools_views.other_rules(body.preset, body.rules, body.filename)
    )
    result = tools_views.run_comparison(found, other, movers=body.movers)
    return tools_views.comparison_dict(found, result, body.limit)


@router.post(
    "/leagues/{league}/tools/evaluate",
    responses=_ERRORS,
    dependencies=[Depends(officer)],
    summary="Evaluate predictions (officer): log loss, Brier score, accuracy, calibration",
)
def evaluate(request: Request, league: str, body: EvaluateIn) -> dict[str, Any]:
    found = views.open_league(request.app.state.engine, league)
    other = tools_views.other_rules(body.preset, body.rules, body.filename)
    result = tools_views.run_evaluation(found, other, baselines=body.baselines)
    return tools_views.evaluation_dict(found, result)
