"""Request bodies: bounded whatever the route, and read decompressed when sent with
``Content-Encoding: gzip`` (docs/web.md, "Posting results from a game server").

**Bounded.** The routes that take files and posted games refuse a body past the site's upload
limit (``max_upload_bytes``) as they read it; a route whose body FastAPI reads for it (the odds
of ``/predict``, a season's closing) read whatever came, and a stranger could make the server
hold gigabytes. Every body is now refused with ``413`` once it passes the limit and
:data:`SLACK` (the routes keep their own, exact, check: a file of the limit's size comes in a
form a little larger).

**Compressed.** A game server posting 1,000 games sends about 160 KB of JSON, which gzip makes
about 13 KB; HTTP clients compress a body when told to, and say so in ``Content-Encoding``. Such
a body is decompressed as the route reads it, in pieces of at most :data:`PIECE` bytes, and the
bound above counts the decompressed bytes: a small body that would decompress to gigabytes costs
no more than the limit. It is read when the route reads it, after the route's checks of who
asks (a stranger still gets ``401`` without anything read), which is why the request goes on
without its ``Content-Length`` (the compressed bytes' length): the post takes FastAPI's route, as
a chunked post does. A body in another coding (``br``, ``zstd``, several) is refused with
``415`` once the route reads it, and a body that is not the gzip data it says it is with ``400``:
never read as if it were plain text ("not UTF-8 text" said nothing of the cause).
"""

from __future__ import annotations

import zlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eloleague.i18n import Text
from eloleague.web.errors import WebError
from eloleague.web.inputs import too_large

PIECE = 64 * 1024
"""The most decompressed bytes handed to the route at once."""

SLACK = 64 * 1024
"""How far past the upload limit a body may go before this layer refuses it (the route's own
check is exact; a form holding a file of the limit's size is a little larger than the file)."""

GZIP = ("gzip", "x-gzip")
"""The codings decompressed (``x-gzip``: HTTP/1.1's other name for it)."""


class RequestBodies:
    """The ASGI layer that bounds request bodies and decompresses those sent with
    ``Content-Encoding: gzip`` (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = scope["app"].state.settings.max_upload_bytes
        coding = _coding(scope)
        if coding is None:
            await self.app(scope, _Bounded(receive, limit), send)
            return
        dropped = (b"content-encoding", b"content-length")
        headers = [(name, value) for name, value in scope["headers"] if name not in dropped]
        reader = _Gunzip(receive, limit) if coding in GZIP else _Refused(receive, coding)
        await self.app({**scope, "headers": headers}, reader, send)


def _coding(scope: Scope) -> str | None:
    """The request's ``Content-Encoding`` in lower case, ``None`` when it has none (or
    ``identity``, no coding)."""
    for name, value in scope["headers"]:
        if name == b"content-encoding":
            coding = value.decode("latin-1").strip().lower()
            return None if coding in ("", "identity") else coding
    return None


class _Bounded:
    """``receive``, refusing the body once it passes ``limit`` and :data:`SLACK`."""

    __slots__ = ("_limit", "_receive", "_size")

    def __init__(self, receive: Receive, limit: int) -> None:
        self._receive, self._limit, self._size = receive, limit, 0

    async def __call__(self) -> Message:
        message = await self._receive()
        body = message.get("body")
        if body:
            self._size += len(body)
            if self._size > self._limit + SLACK:
                raise too_large(self._limit)
        return message


class _Gunzip:
    """``receive`` with the body's gzip decompressed, :data:`PIECE` bytes at a time, refused
    once it passes ``limit`` and :data:`SLACK` decompressed."""

    def __init__(self, receive: Receive, limit: int) -> None:
        self._receive = receive
        self._limit = limit
        self._size = 0
        self._stream = zlib.decompressobj(16 + zlib.MAX_WBITS)  # the gzip format
        self._more = True  # the client has more to send
        self._sent = False  # some compressed bytes came
        self._done = False  # the body's end was handed on

    async def __call__(self) -> Message:
        if self._done:  # what comes next (a disconnect), as it comes
            return await self._receive()
        stream = self._stream
        while True:
            if stream.unconsumed_tail:
                piece = self._decompress(stream.unconsumed_tail)
            elif self._more:
                message = await self._receive()
                if message["type"] != "http.request":  # the client went away
                    return message
                self._more = bool(message.get("more_body", False))
                body = message.get("body", b"")
                if stream.eof and body:
                    raise _not_gzip(Text.of("something follows its gzip data"))
                self._sent = self._sent or bool(body)
                piece = self._decompress(body) if body else b""
            elif not stream.eof and self._sent:  # (no body at all: nothing to decompress)
                raise _not_gzip(Text.of("it ends before its gzip data does"))
            else:
                self._done = True
                return {"type": "http.request", "body": b"", "more_body": False}
            if stream.unused_data:
                raise _not_gzip(Text.of("something follows its gzip data"))
            if piece:
                self._size += len(piece)
                if self._size > self._limit + SLACK:
                    raise too_large(self._limit)
                return {"type": "http.request", "body": piece, "more_body": True}

    def _decompress(self, data: bytes) -> bytes:
        try:
            return self._stream.decompress(data, PIECE)
        except zlib.error:
            raise _not_gzip(Text.of("it is not gzip data")) from None


def _not_gzip(why: Text) -> WebError:
    return WebError(
        400,
        "bad_request",
        Text.of("the body is not what its Content-Encoding says (gzip): {why}", why=why),
    )


class _Refused:
    """``receive`` of a body in a coding the site does not read: ``415`` when some of it is
    read (a request without a body goes on: there is nothing to decode)."""

    def __init__(self, receive: Receive, coding: str) -> None:
        self._receive = receive
        self._coding = coding

    async def __call__(self) -> Message:
        message = await self._receive()
        if message.get("body"):
            raise WebError(
                415,
                "unsupported_encoding",
                Text.of(
                    "the body is encoded as {coding}, which the site does not read: send it "
                    "as it is, or compressed with gzip (`Content-Encoding: gzip`)",
                    coding=self._coding,
                ),
            )
        return message
