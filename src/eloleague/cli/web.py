"""``eloleague serve``, ``eloleague user add`` and ``eloleague token create``: the web site and its
accounts. Thin shells over :mod:`eloleague.web` and :mod:`eloleague.accounts`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from eloleague.cli import app, use_language
from eloleague.cli.help import Typer
from eloleague.errors import EloleagueError
from eloleague.i18n import Text, pick_language, render

if TYPE_CHECKING:
    from types import ModuleType

    from sqlalchemy import Engine

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database: a file path or URL (default: $ELOLEAGUE_DB or eloleague.db)."
    ),
]


def _accounts(db: str | None) -> tuple[ModuleType, Engine]:
    """The accounts module and the database (imported here: argon2 and SQLAlchemy are slow to
    load, and commands that do not need them should not pay for them)."""
    from eloleague import accounts
    from eloleague.league import engine_for

    return accounts, engine_for(db)


def _said(message: str, /, **params: object) -> str:
    """An account message in the user's language (the site's catalogue, domain ``web``)."""
    return render(Text.in_domain("web", message, **params), pick_language())


def _password(from_stdin: bool, prompt: str) -> str:
    """The password read from standard input (a line), or typed twice, hidden, in the user's
    language (Typer's own confirmation and its mismatch line are English only): asked again
    while it is too short or the two differ, so that a typing mistake does not end the command."""
    from eloleague.accounts import check_password_rules

    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    while True:
        first = str(typer.prompt(_said(prompt), hide_input=True))
        try:
            check_password_rules(first)
        except EloleagueError as exc:
            typer.echo(render(exc.message, pick_language()), err=True)
            continue
        if first == str(typer.prompt(_said("Repeat for confirmation"), hide_input=True)):
            return first
        typer.echo(_said("the two passwords differ: type them again"), err=True)


user_app = Typer(help="Accounts of officers and referees for the web site.", no_args_is_help=True)
token_app = Typer(help="API tokens for programs that post results.", no_args_is_help=True)
app.add_typer(user_app, name="user")
app.add_typer(token_app, name="token")


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes (several use every core; sessions and sign-in limits are "
            "kept in the database, so they hold across processes).",
        ),
    ] = 1,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The site's language for visitors whose browser asks for neither French nor "
            "English, and this command's (fr or en; default: fr).",
        ),
    ] = None,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log/--no-access-log",
            help="A line on standard output for each request (Uvicorn's access log); a busy "
            "results API saves about 0.1 ms of CPU a request without it.",
        ),
    ] = True,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed "
            "(addresses or networks, comma-separated; * for any; default: "
            "$FORWARDED_ALLOW_IPS, else 127.0.0.1).",
        ),
    ] = None,
) -> None:
    """Serve the ranking site and the JSON API of the database's leagues.

    Example: [bold]eloleague serve --db club.db --port 8000[/] then open http://127.0.0.1:8000/

    Sessions are signed with $ELOLEAGUE_SECRET, or a key kept in DB.secret next to a SQLite file.
    """
    from eloleague.league import League
    from eloleague.web import serve as run

    use_language(lang)  # the command's errors too (shown by eloleague.cli.main)
    League.names(db)  # the database exists (a mistyped --db is an error, not an empty site)
    run(
        db,
        host,
        port,
        workers,
        default_lang=lang,
        access_log=access_log,
        forwarded_allow_ips=forwarded_allow_ips,
    )


@user_app.command("add")
def user_add(
    name: Annotated[str, typer.Argument(help="The account's name (used to sign in).")],
    role: Annotated[
        str, typer.Option(help="officer (everything) or referee (uploads for review).")
    ] = "referee",
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Create an account for the web site (the password is asked twice, or read from stdin).

    Example: [bold]eloleague user add "Claire" --role officer --db club.db[/]
    """
    accounts, engine = _accounts(db)
    accounts.check_new_user(engine, name, role)  # before the password is typed
    password = _password(password_stdin, "Password")
    user = accounts.add_user(engine, name, password, role)
    typer.echo(_said("user {name!r} created ({role})", name=user.name, role=_said(user.role)))


@user_app.command("list")
def user_list(db: DbOption = None) -> None:
    """List the accounts and their roles.

    Example: [bold]eloleague user list --db club.db[/]
    """
    accounts, engine = _accounts(db)
    for user in accounts.list_users(engine):
        typer.echo(f"{user.name}\t{_said(user.role)}")


@user_app.command("password")
def user_password(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Give an account a new password.

    Example: [bold]eloleague user password "Claire" --db club.db[/]
    """
    accounts, engine = _accounts(db)
    accounts.check_user(engine, name)  # before the password is typed
    password = _password(password_stdin, "New password")
    accounts.set_password(engine, name, password)
    typer.echo(_said("password of {name!r} changed", name=name))


@user_app.command("sign-out")
def user_sign_out(
    name: Annotated[str, typer.Argument(help="The account whose browser sessions end.")],
    db: DbOption = None,
) -> None:
    """Sign an account out everywhere: every browser session it has ends at once (a lost phone,
    a shared computer). Its API tokens are kept (see `eloleague token revoke`).

    Example: [bold]eloleague user sign-out "Claire" --db club.db[/]
    """
    accounts, engine = _accounts(db)
    count = accounts.sign_out_everywhere(engine, name)
    typer.echo(render(accounts.signed_out_text(name, count), pick_language()))


@token_app.command("create")
def token_create(
    user: Annotated[str, typer.Argument(help="The account the token acts for.")],
    label: Annotated[str, typer.Option(help="What the token is for (shown in lists).")] = "",
    db: DbOption = None,
) -> None:
    """Create an API token and print it once (send it as `Authorization: Bearer TOKEN`).

    Example: [bold]eloleague token create "Claire" --label "game server" --db club.db[/]
    """
    accounts, engine = _accounts(db)
    token = accounts.create_token(engine, user, label)
    typer.echo(token)


@token_app.command("revoke")
def token_revoke(
    user: Annotated[str, typer.Argument(help="The account whose tokens end.")],
    db: DbOption = None,
) -> None:
    """Revoke every API token of an account.

    Example: [bold]eloleague token revoke "Claire" --db club.db[/]
    """
    accounts, engine = _accounts(db)
    count = accounts.revoke_tokens(engine, user)
    if count == 0:
        raise EloleagueError(Text.in_domain("web", "{user!r} has no API token", user=user))
    revoked = Text.plural_in_domain("web", "{count} token revoked", "{count} tokens revoked", count)
    typer.echo(render(revoked, pick_language()))
