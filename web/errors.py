"""How errors become HTTP responses: one place for the whole exception hierarchy.

Every error body is JSON ``{"detail": ...}``. A store outage or a missing index is a 503
with ``Retry-After`` (the client should try again; nothing is wrong with its request).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ingest.errors import IndexMissing, NotFound, StoreUnavailable, UnknownGame
from web.db import DatabaseUnavailable
from web.services import RuleNotFound

#: Seconds a client should wait before retrying while the index is missing.
INDEX_MISSING_RETRY = 30


def unavailable(message: str, retry_after: int) -> JSONResponse:
    return JSONResponse(
        status_code=503,
        content={"detail": {"message": message, "retry_after": retry_after}},
        headers={"Retry-After": str(retry_after)},
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(UnknownGame)
    async def unknown_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return JSONResponse(
            status_code=404, content={"detail": {"message": str(exc), "games": exc.games}}
        )

    @app.exception_handler(RuleNotFound)
    async def rule_not_found(_: Request, exc: RuleNotFound) -> JSONResponse:
        return JSONResponse(
            status_code=404,
            content={"detail": {"message": str(exc), "suggestions": exc.suggestions}},
        )

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": {"message": str(exc)}})

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # Echoing the input back (it may be megabytes) helps no one: keep loc and msg.
        errors = [
            {"loc": list(e.get("loc", [])), "msg": e.get("msg", "invalid"), "type": e.get("type")}
            for e in exc.errors()
        ]
        return JSONResponse(status_code=422, content={"detail": errors})

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(_: Request, exc: StoreUnavailable) -> JSONResponse:
        return unavailable(f"{exc}; try again shortly", exc.retry_after)

    @app.exception_handler(DatabaseUnavailable)
    async def database_unavailable(_: Request, exc: DatabaseUnavailable) -> JSONResponse:
        return unavailable("state database unavailable; try again shortly", 5)

    @app.exception_handler(IndexMissing)
    async def index_missing(_: Request, exc: IndexMissing) -> JSONResponse:
        return unavailable(str(exc), INDEX_MISSING_RETRY)
