"""The FastAPI application factory."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ingest.settings import Settings
from web.db import Database, DatabaseUnavailable
from web.limits import BodySizeLimit
from web.ratelimit import RateLimiter
from web.routers import ask, health, page, rules
from web.services import LocalServices, RuleNotFound, UnknownGame

DESCRIPTION = """Arbiter answers card-game rules questions with a verdict and the rule cited.

* `POST /v1/ask` answers a question (the answer object of CONTRACT.md).
* `POST /v1/check` decides a structured scenario with the targeting engine.
* `GET /v1/search`, `GET /v1/rules/{game}/{rule}`, `GET /v1/games` find rules.
* `POST /v1/feedback` rates an answer.
"""


def create_app(settings: Settings | None = None, services: LocalServices | None = None) -> FastAPI:
    """Build the app. Nothing loads at import time; the index loads on first use."""
    settings = settings or Settings()
    app = FastAPI(title="Arbiter", version="1.0", description=DESCRIPTION)
    app.state.settings = settings
    app.state.services = services or LocalServices(settings)
    app.state.rate_limiter = RateLimiter(
        lambda: Database.for_settings(settings), settings.rate_limit_per_minute, scope="api"
    )

    app.include_router(health.router)
    app.include_router(ask.router)
    app.include_router(rules.router)
    app.include_router(page.router)
    _include_discord(app, settings)
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    _install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    if settings.trusted_proxies:  # forwarded headers count only from these peers
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    return app


def _include_discord(app: FastAPI, settings: Settings) -> None:
    from web.discord import build_router

    app.include_router(build_router(settings, lambda: app.state.services))


def _install_error_handlers(app: FastAPI) -> None:
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

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # Echoing the input back (it may be megabytes) helps no one: keep loc and msg.
        errors = [
            {"loc": list(e.get("loc", [])), "msg": e.get("msg", "invalid"), "type": e.get("type")}
            for e in exc.errors()
        ]
        return JSONResponse(status_code=422, content={"detail": errors})

    from ingest import IndexMissing

    @app.exception_handler(DatabaseUnavailable)
    async def database_unavailable(_: Request, exc: DatabaseUnavailable) -> JSONResponse:
        return JSONResponse(
            status_code=503,
            content={"detail": "state database unavailable; try again shortly"},
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(IndexMissing)
    async def index_missing(_: Request, exc: IndexMissing) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(exc)})
