"""Heavy requests in a helper process: reading an uploaded file and its import's dry run.

A server process answers its pages and API reads with one Python interpreter: a thread that
parses a 5 MB file holds that interpreter for most of its time, and every read waiting beside it
slows down. ``eloleague serve`` therefore hands such work to a helper process (one per server
process, started with the server and started again after it was stopped), which has its own
interpreter: the pages keep theirs (docs/web.md, "Heavy requests").

The helper also bounds a request's time: past ``Settings.request_seconds`` it is stopped (killed:
its transaction, a dry run's or an import's, is rolled back by the database, nothing is stored)
and the visitor gets a 503 saying so. One heavy request runs at a time per server process; the
next one waits for it, up to the same bound.

A call is ``offload.call(function, *args)``: ``function`` is a module-level function (the helper
imports it by name) whose arguments and result are plain values; the errors meant for the user
(:class:`~eloleague.errors.EloleagueError`, :class:`~eloleague.web.errors.WebError`) cross back
and are raised in the server as if the work had run there. Without the helper (``create_app``'s
default, used by the tests' in-process clients) the function simply runs in the calling thread.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, TypeVar

from eloleague.errors import EloleagueError
from eloleague.i18n import Text
from eloleague.web.errors import WebError

if TYPE_CHECKING:
    from starlette.requests import Request

log = logging.getLogger("eloleague.web")

T = TypeVar("T")

_OK, _ERROR, _CRASH, _READY = "ok", "error", "crash", "ready"
_START_SECONDS = 120  # a helper that has not started by then is taken for broken


class Offload:
    """The server process's helper process (or none: ``enabled`` false)."""

    def __init__(self, *, enabled: bool, seconds: float) -> None:
        self.enabled = enabled
        self.seconds = seconds
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._ready = False  # the helper said it has imported what the work needs

    def start(self) -> None:
        """Start the helper now (it imports the program while the server starts)."""
        if self.enabled:
            with self._lock:
                self._ensure()

    def close(self) -> None:
        """Stop the helper (the server stops)."""
        with self._lock:
            self._stop()

    def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)``, in the helper when there is one."""
        if not self.enabled:
            return function(*args)
        if not self._lock.acquire(timeout=self.seconds):
            raise _too_long(self.seconds, busy=True)
        try:
            conn = self._ensure()
            try:
                if not self._ready:  # the helper's start (importing the program) is not counted
                    if not conn.poll(_START_SECONDS):
                        raise EOFError
                    conn.recv()
                    self._ready = True
                conn.send((function, args))
                if not conn.poll(self.seconds):
                    self._stop()  # killed: its transaction is rolled back, nothing is stored
                    raise _too_long(self.seconds, busy=False)
                kind, value = conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                self._stop()
                log.error(Text.of("the helper process ended during a request"))
                raise WebError(
                    500, "internal_error", Text.of("internal error: the site could not answer")
                ) from None
        finally:
            self._lock.release()
        if kind == _OK:
            return value  # type: ignore[no-any-return]
        if kind == _ERROR:
            raise value
        raise WebError(500, "internal_error", Text.of("internal error: the site could not answer"))

    def _ensure(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._stop()
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no copied threads
        mine, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs,), name="eloleague-heavy-requests", daemon=True
        )
        with _without_ctrl_c():
            process.start()
        theirs.close()
        self._process, self._conn, self._ready = process, mine, False
        return mine

    def _stop(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None and process.is_alive():
            process.kill()
            process.join(timeout=10)


def _too_long(seconds: float, *, busy: bool) -> WebError:
    message = (
        Text.of(
            "the server is busy with another large request (over {seconds} s); nothing was "
            "stored: try again in a minute",
            seconds=f"{seconds:g}",
        )
        if busy
        else Text.of(
            "the request took more than {seconds} s and was stopped; nothing was stored",
            seconds=f"{seconds:g}",
        )
    )
    return WebError(503, "too_long", message, headers={"Retry-After": "60"})


@contextmanager
def _without_ctrl_c() -> Iterator[None]:
    """Start the helper with Ctrl-C ignored (a process keeps the signals its parent ignores, and
    Python then installs no handler of its own), so that one pressed while it still imports
    cannot interrupt it with a traceback. Only the main thread may change a signal's handler:
    from another (a helper restarted during a request) the helper starts as it is, and ignores
    Ctrl-C once it runs (:func:`_serve`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)


def _serve(conn: Connection) -> None:  # pragma: no cover - runs in the helper process
    """The helper's loop: one call at a time until the server closes the pipe. A Ctrl-C at the
    officer's terminal reaches every process of the server: the server stops the helper itself,
    so the helper lets it pass (else it would print a traceback on the way out). Its log lines
    are written as the server's are (:mod:`eloleague.web.server_log`)."""
    import logging.config

    import eloleague.web.uploads  # noqa: F401 - what the work needs, imported before it is timed
    from eloleague.i18n import pick_language
    from eloleague.web.server_log import log_config

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.config.dictConfig(log_config(pick_language()))
    conn.send((_READY, None))
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, object] = (_OK, function(*args))
        except (EloleagueError, WebError) as exc:
            answer = (_ERROR, exc)
        except Exception:
            log.exception(Text.of("internal error in a heavy request"))
            answer = (_CRASH, None)
        try:
            conn.send(answer)
        except Exception:
            log.exception(Text.of("a heavy request's answer could not be sent back"))
            conn.send((_CRASH, None))


def heavy(request: Request) -> Offload:
    """The application's helper (``app.state.offload``)."""
    offload: Offload = request.app.state.offload
    return offload


def url_of(request: Request) -> str:
    """The database URL, for work done in the helper process."""
    return str(request.app.state.settings.url)
