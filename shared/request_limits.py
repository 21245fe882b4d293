"""What an HTTP service accepts before its routes see a request: bodies of bounded size, and
validation errors that name what is wrong without sending the input back.

``BodyLimit`` is a pure ASGI middleware: it refuses a body over the limit by its
``Content-Length`` before reading any of it, and a chunked body as soon as the bytes received
pass the limit, so a request never costs more memory than the limit.
"""

from __future__ import annotations

import json

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 65_536  # bytes of one request body: every API body is a few hundred at most


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once a streamed body passes the limit: an ``HTTPException``, so
    the framework answers it as a 413 even where it wraps errors of reading the body."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, _too_large(limit))


class BodyLimit:
    """Answers 413 to a request whose body is over ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": _too_large(self.limit)}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _too_large(limit: int) -> str:
    return f"The request body is over the limit of {limit} bytes"


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def validation_failed(request: Request, error: Exception) -> JSONResponse:
    """A 422 that says where and what, never echoing the input (which may be huge, or be
    someone else's secret pasted in the wrong field)."""
    assert isinstance(error, RequestValidationError)
    problems = [
        {
            "loc": list(problem.get("loc", ())),
            "msg": problem.get("msg", ""),
            "type": problem["type"],
        }
        for problem in error.errors()[:20]
    ]
    return JSONResponse({"detail": problems}, status_code=422)


def limit_requests(app: FastAPI, limit: int = MAX_BODY) -> None:
    """Cap ``app``'s request bodies at ``limit`` bytes and keep inputs out of its 422s."""
    app.add_middleware(BodyLimit, limit=limit)
    app.add_exception_handler(RequestValidationError, validation_failed)
