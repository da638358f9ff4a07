"""Results posted by game servers (``POST /api/v1/leagues/{league}/games``): what a post does,
and the lean path that serves the small ones (docs/web.md, "Posting results from a game server").

An online game posts each result as its game ends, hundreds a second. Through FastAPI a post cost
the event loop about 1.3 ms of CPU (dependency resolution, the session middleware, a thread hop
for the token and another for the import) before any game was stored. :class:`GamePosts`, a plain
ASGI layer, takes the posts of at most :data:`SMALL_BODY` bytes (a few games) and answers them
itself: the body read on the event loop, then one thread hop for the token, the league and the
import; the smallest, from a token the process knows, are made ready on the event loop and written
by it (SQLite) or by one worker thread for all those of a moment (PostgreSQL).
Larger posts, and every other request, go on to FastAPI, whose route
(:func:`eloleague.web.api.post_games`) checks the token before it reads a body and describes the
endpoint in the OpenAPI document. Both answer through :func:`answer_post`: one behaviour.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import anyio.to_thread
import msgspec
from sqlalchemy import Connection
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from eloleague.accounts import TokenChanged, User, known_officer, remember_officer
from eloleague.errors import InputError, Problem
from eloleague.i18n import Text
from eloleague.league import ImportReport, League, Queued, WriterTurn, write_now
from eloleague.web import uploads, views
from eloleague.web.errors import WebError, as_web_error, respond
from eloleague.web.inputs import too_large
from eloleague.web.pages import page_lang
from eloleague.web.security import bearer_token

SMALL_BODY = 64 * 1024
"""Posts declaring at most this many bytes take the lean path; a stranger's body is read before
its token is refused, so the bound keeps that cheap (larger posts: token first, FastAPI's route)."""

LOOP_BODY = 2 * 1024
"""Posts of at most this many bytes (about a dozen games) may be written by the event loop itself
(:class:`GamePosts`): while it writes, the loop answers nothing else (a post of 2 KiB takes about
6 ms on a league of a million games, docs/benchmarks.md)."""

LOOP_GAMES = 16
"""The most games the event loop writes in one transaction (the rest in its next turn)."""

TURN_WAIT = 0.2
"""How long, in seconds, the event loop's posts wait for the writers' turn another process
(another worker) has, before they wait for it in threads."""

_PATH = re.compile(r"/api/v1/leagues/([^/]+)/games")


def answer_post(
    request: Request,
    found: League,
    user: User,
    body: bytes,
    guard: Callable[[Connection], None] | None = None,
) -> Response:
    """The answer to a post of results to the league ``found``: an officer's games are imported
    at once (``201``, or ``200`` when every game was there already; a retry of a stored post gets
    the answer the post got), a referee's are held for an officer's review (``202``). Raises what
    the visitor sees as an error (:func:`eloleague.web.errors.as_web_error`; a refused import
    in the poster's words, :func:`~eloleague.web.uploads.in_api_words`)."""
    try:
        if not user.is_officer:
            records = uploads.games_from_body(found, body)
            lang = page_lang(request)
            report = uploads.preview(found, records, "api", body, user.name)
            upload_id = found.hold_upload(user.id, "api.jsonl", as_jsonl(body))
            return JSONResponse(
                {
                    "status": "pending_review",
                    "upload": upload_id,
                    "preview": uploads.report_dict(found, report, lang),
                },
                status_code=202,
            )
        queued, finish = officer_post(request, found, user, body, guard)
        return finish(queued.result())
    except InputError as exc:
        raise uploads.in_api_words(exc) from None


def officer_post(
    request: Request,
    found: League,
    user: User,
    body: bytes,
    guard: Callable[[Connection], None] | None = None,
) -> tuple[Queued[ImportReport], Callable[[ImportReport], Response]]:
    """An officer's post (:func:`answer_post`) checked and its import made ready, not run yet,
    and what gives the answer from its report."""
    records = uploads.games_from_body(found, body)
    lang = page_lang(request)
    update = flag(request, "update")
    # A retry of a post that was stored (same games, same content) adds nothing and gets the
    # answer the post got (docs/web.md, "Posting results from a game server").
    digest = hashlib.sha256(b"update=%d\n" % update + body).hexdigest()

    written: list[str] = []

    def answer(report: ImportReport) -> str:  # kept with the import, sent to this post too
        content = {"status": "imported", **uploads.report_dict(found, report, lang)}
        # msgspec: a post of 1,000 games answers with 2,000 changes, and json.dumps spent
        # about a twentieth of the post on them (docs/benchmarks.md, "Live results")
        written.append(msgspec.json.encode(content).decode())
        return written[-1]

    queued = found.import_later(
        records,
        source="api",
        update=update,
        user=user.name,
        content_hash=digest,
        answer=answer,
        guard=guard,
        _checked=True,  # games_from_body checked them against the rules
    )

    def finish(report: ImportReport) -> Response:
        if not report.changed and report.already_imported is not None:
            kept = found.posted_answer(digest)
            if kept is not None:
                return Response(kept, status_code=201, media_type="application/json")
        if written:
            return Response(written[-1], status_code=201, media_type="application/json")
        return JSONResponse(
            {"status": "imported", **uploads.report_dict(found, report, lang)},
            status_code=201 if report.changed else 200,
        )

    return queued, finish


def flag(request: Request, name: str) -> bool:
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


def as_jsonl(body: bytes) -> bytes:
    """A posted body (JSON Lines, or a JSON array) as JSON Lines: how a held upload is kept."""
    text = body.strip()
    if text.startswith(b"["):
        return b"\n".join(json.dumps(x, ensure_ascii=False).encode() for x in json.loads(text))
    return text


class GamePosts:
    """The lean path of small result posts (see the module's docstring). It sits inside the
    security-header and ``Vary`` layers, which add their headers to its answers as to any other,
    and outside the session layer: a post carries a bearer token, never a session.

    On SQLite, a post of at most :data:`LOOP_BODY` bytes from a token this process knows is
    written by the event loop itself, with the posts that came in the same turn of the loop (in
    the next one too when the last transaction held several posts: several game servers are
    posting), in one transaction, when nothing has to be waited for (docs/web.md, "Posting
    results from a game server"): no thread hop, and no thread to share the interpreter with
    while the transaction runs. When another process (another worker) has the database's
    writers' turn, the loop asks for the turn and goes on serving; the posts are written when
    it comes (within :data:`TURN_WAIT`). Otherwise (a write of another thread under way, a turn
    that does not come, a token read for the first time, a referee) the post goes to a worker
    thread, as every post did before.

    On PostgreSQL the loop never waits for the server: such a post is made ready on the loop and
    written by one worker thread with the others made ready meanwhile (:meth:`_write_by_thread`),
    not by a thread of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _OnLoop] = (
            weakref.WeakKeyDictionary()
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _small_post(scope)
        if found is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        try:
            body = await request.body()  # the server holds it to its declared length
            response = await self._on_loop(request, found, body)
            if response is None:
                response = await anyio.to_thread.run_sync(partial(_answer, request, found, body))
        except ClientDisconnect:  # gone before its body came: nobody to answer
            return
        except Exception as exc:  # every error in the site's one shape, never a traceback
            if isinstance(exc, InputError):  # (a post written by the loop, or its thread)
                exc = uploads.in_api_words(exc)
            response = respond(request, as_web_error(exc))
        await response(scope, receive, send)

    async def _on_loop(self, request: Request, league: str, body: bytes) -> Response | None:
        """The answer to a post made ready by the event loop (and written by it on SQLite), or
        ``None``: it goes to a thread (:func:`_answer`)."""
        known = _known_post(request, league, body) if len(body) <= LOOP_BODY else None
        if known is None:
            return None
        found, user, guard = known
        queued, finish = officer_post(request, found, user, body, guard=guard)
        loop = asyncio.get_running_loop()
        posts = self._loops.get(loop)
        if posts is None:
            posts = self._loops[loop] = _OnLoop(found.writers_turn)
        if not found.writes_here:
            return await self._by_thread(loop, posts, queued, finish)
        written = loop.create_future()
        posts.ready.append((queued, written))
        if len(posts.ready) == 1 and posts.asking is None:  # the first of this turn
            if posts.several:  # several servers post: one more turn lets the next ones in
                loop.call_soon(loop.call_soon, partial(self._write, loop))
            else:  # written once the turn's others are read
                loop.call_soon(self._write, loop)
        await written
        try:
            if queued.write.done.is_set():
                report = queued.result()
            else:  # not written: it waits in a thread for the league
                report = await anyio.to_thread.run_sync(queued.result)
        except TokenChanged:  # nothing was stored: as a first post, the token read again
            return None
        return finish(report)

    async def _by_thread(
        self,
        loop: asyncio.AbstractEventLoop,
        posts: _OnLoop,
        queued: Queued[ImportReport],
        finish: Callable[[ImportReport], Response],
    ) -> Response | None:
        """PostgreSQL: the answer to a post made ready on the loop and written by one worker
        thread with the others made ready meanwhile (:meth:`_write_by_thread`), or ``None``
        (its token changed: nothing stored, it goes to a thread as a first post)."""
        answered: asyncio.Future[Response] = loop.create_future()
        posts.by_thread.append((queued, finish, answered))
        if posts.thread is None:  # written once the turn's others are read
            posts.thread = loop.create_task(self._write_by_thread(loop))
        try:
            return await answered
        except TokenChanged:
            return None

    async def _write_by_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write the posts made ready for a thread, in one worker thread, batch after batch until
        none is left: while a batch waits for the server, the loop reads the next posts, which
        form the next batch. One thread for them all, not a thread a post: eight game servers
        posting at once made eight threads share the interpreter, each for one post."""
        posts = self._loops[loop]
        try:
            await asyncio.sleep(0)  # the posts of this turn of the loop join the first batch
            while posts.by_thread:
                batch = posts.by_thread[:]
                posts.by_thread.clear()
                for queued, _, _ in batch:  # in their order, before the thread leads them
                    queued.queue()
                try:
                    outcomes = await anyio.to_thread.run_sync(partial(_answers, batch))
                except BaseException as exc:  # (cancelled: the server stops)
                    for _, _, answered in batch:
                        if answered.done():
                            continue
                        if isinstance(exc, asyncio.CancelledError):
                            answered.cancel()
                        else:
                            answered.set_exception(exc)
                    raise
                for (_, _, answered), (response, error) in zip(batch, outcomes, strict=True):
                    if answered.done():  # its post's task was cancelled
                        continue
                    if error is not None:
                        answered.set_exception(error)
                    else:
                        answered.set_result(response)  # type: ignore[arg-type]
        finally:
            posts.thread = None

    def _write(self, loop: asyncio.AbstractEventLoop, *, ask: bool = True) -> None:
        """Write the posts the loop made ready in this turn, at most :data:`LOOP_GAMES` games
        (the rest in the next turn), in one transaction, if nothing has to be waited for. If
        another process has the writers' turn, ask for it (``ask``): they are written when it
        comes (:meth:`_turn_came`)."""
        posts = self._loops[loop]
        if posts.asking is not None:  # written when the turn comes
            return
        taken, games = 0, 0
        for queued, _ in posts.ready:
            if taken and games + queued.write.games > LOOP_GAMES:
                break
            taken, games = taken + 1, games + queued.write.games
        now = posts.ready[:taken]
        del posts.ready[:taken]
        posts.several = taken > 1
        if posts.ready:
            loop.call_soon(self._write, loop)
        asked = False
        try:
            ran = write_now([queued for queued, _ in now])
            asked = not ran and ask and self._ask_turn(loop, posts, now)
        finally:
            if not asked:
                _written(now)

    def _ask_turn(self, loop: asyncio.AbstractEventLoop, posts: _OnLoop, now: list[_Ready]) -> bool:
        """Ask for the writers' turn for the posts ``now`` (they go back first in line); whether
        it was asked (not when a thread of this process has it or waits for it: they wait in
        threads with it)."""
        turn = posts.turn
        if turn is None or now[0][0].behind_own_writes():
            return False

        def came() -> bool:  # in the turn's helper thread
            try:
                loop.call_soon_threadsafe(self._turn_came, loop)
            except RuntimeError:  # the loop was closed: nobody to write
                return False
            return True

        if not turn.ask(came):
            return False
        posts.ready[:0] = now
        posts.asking = loop.call_later(TURN_WAIT, self._turn_late, loop)
        return True

    def _turn_came(self, loop: asyncio.AbstractEventLoop) -> None:
        """The writers' turn is had for the loop: write what is ready, then give the turn back
        if no transaction took it."""
        posts = self._loops[loop]
        if posts.asking is not None:
            posts.asking.cancel()
            posts.asking = None
        try:
            self._write(loop, ask=False)
        finally:
            assert posts.turn is not None
            posts.turn.unused()

    def _turn_late(self, loop: asyncio.AbstractEventLoop) -> None:
        """The writers' turn did not come in :data:`TURN_WAIT`: the posts wait in threads."""
        posts = self._loops[loop]
        assert posts.turn is not None
        if not posts.turn.withdraw():
            return  # it came meanwhile: _turn_came is on its way
        posts.asking = None
        now = posts.ready[:]
        posts.ready.clear()
        _written(now)


_Ready = tuple[Queued[ImportReport], "asyncio.Future[None]"]
"""A post made ready on the event loop, and what its task awaits until the loop wrote it."""

_ByThread = tuple[
    Queued[ImportReport], Callable[[ImportReport], Response], "asyncio.Future[Response]"
]
"""A post made ready on the event loop for a worker thread to write (PostgreSQL), what gives its
answer from its report, and what its task awaits: the answer, or the error to answer with."""


@dataclass
class _OnLoop:
    """The posts one event loop writes itself (a test client may run several loops)."""

    turn: WriterTurn | None  # the database's writers' turn
    ready: list[_Ready] = field(default_factory=list)  # made ready, not written yet
    several: bool = False  # the last transaction the loop wrote held several posts
    asking: asyncio.TimerHandle | None = None  # the turn asked for, until this timer
    by_thread: list[_ByThread] = field(default_factory=list)  # for the writing thread (PostgreSQL)
    thread: asyncio.Task[None] | None = None  # what hands them to a thread, batch after batch


def _answers(batch: list[_ByThread]) -> list[tuple[Response | None, Exception | None]]:
    """In a worker thread: each post's answer, or the error it is answered with. The first
    post's wait leads the transaction that takes the queued ones with it (up to the group's
    bounds; what is left, the next one's leads)."""
    out: list[tuple[Response | None, Exception | None]] = []
    for queued, finish, _ in batch:
        try:
            out.append((finish(queued.result()), None))
        except Exception as exc:  # its own: the others' answers stand
            out.append((None, exc))
    return out


def _written(posts: list[_Ready]) -> None:
    """Let the posts' tasks go on: written, or to wait in threads."""
    for _, written in posts:
        if not written.done():  # (its post's task may have been cancelled)
            written.set_result(None)


def _small_post(scope: Scope) -> str | None:
    """The league of a post of results declaring a small body, else ``None``."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    match = _PATH.fullmatch(scope["path"])
    if match is None:
        return None
    for name, value in scope["headers"]:
        if name == b"content-length":
            return match[1] if value.isdigit() and int(value) <= SMALL_BODY else None
    return None  # no length said (chunked): FastAPI's route reads it in bounded chunks


def _answer(request: Request, league: str, body: bytes) -> Response:
    """In a worker thread: who posts and to which league (one read), the site's upload limit,
    then the post (in the order of the route's checks: a stranger gets 401 whatever he sent).

    An officer's token this process found lately is not read again: the post's own transaction
    checks, before it stores anything, that the token is still that officer's
    (:func:`~eloleague.accounts.known_officer`); if not, the post is made as a first one."""
    known = _known_post(request, league, body)
    if known is not None:
        found, user, guard = known
        try:
            return answer_post(request, found, user, body, guard=guard)
        except TokenChanged:
            pass  # nothing was stored: as a first post, the token read again
    engine = request.app.state.engine
    token = bearer_token(request)
    user, found = views.open_league_for_token(engine, league, token)
    remember_officer(engine, token, user)
    _within_limit(request, body)
    return answer_post(request, found, user, body)


def _known_post(
    request: Request, league: str, body: bytes
) -> tuple[League, User, Callable[[Connection], None]] | None:
    """For a post from an officer's token this process knows, to a league it has opened: the
    league, the officer and the check his write makes of the token (nothing read); ``None``
    otherwise. The site's upload limit is checked first."""
    engine = request.app.state.engine
    known = known_officer(engine, bearer_token(request))
    found = views.known_league(engine, league) if known is not None else None
    if known is None or found is None:
        return None
    _within_limit(request, body)
    return found, *known


def _within_limit(request: Request, body: bytes) -> None:
    """A body past the site's upload limit is a 413."""
    limit = request.app.state.settings.max_upload_bytes
    if len(body) > limit:
        raise too_large(limit)
