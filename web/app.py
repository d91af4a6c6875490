"""The FastAPI application factory."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ingest.settings import Settings
from ingest.version import package_version
from web.db import Database
from web.docs import install_docs
from web.errors import install_error_handlers
from web.headers import SecurityHeaders
from web.limits import BodySizeLimit
from web.openapi import install_openapi
from web.ratelimit import RateLimiter
from web.routers import ask, health, page, rules
from web.services import LocalServices

DESCRIPTION = """Arbiter answers card-game rules questions with a verdict and the rule cited.

* `POST /v1/ask` answers a question (the answer object of CONTRACT.md).
* `POST /v1/check` decides a structured scenario with the targeting engine.
* `GET /v1/search`, `GET /v1/rules/{game}/{rule}`, `GET /v1/games` find rules.
* `POST /v1/feedback` rates an answer.

Errors are JSON `{"detail": ...}`: 404 unknown game/rule/answer, 413 body too large,
422 invalid input, 429 rate limited and 503 while the rules store is unreachable or the
index is missing (both with `Retry-After`). `GET /healthz`: the process is up;
`GET /readyz`: the model and index are loaded and the store answers.
"""


def create_app(settings: Settings | None = None, services: LocalServices | None = None) -> FastAPI:
    """Build the app. Nothing loads at import time; start-up warms the model in the
    background (``/readyz`` says ready once it is done)."""
    settings = settings or Settings()
    svc = services or LocalServices(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Answers are CPU-bound: they run in the thread pool (never on the event loop), and a
        # pool larger than the cores only queues them inside the process.
        anyio.to_thread.current_default_thread_limiter().total_tokens = pool_size(settings)
        start = getattr(svc, "start_warming", None)
        if settings.warm_on_start and start is not None:
            start()
        yield

    app = FastAPI(
        title="Arbiter",
        version=package_version(),
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.services = svc
    app.state.rate_limiter = RateLimiter(
        lambda: Database.for_settings(settings), settings.rate_limit_per_minute, scope="api"
    )

    app.include_router(health.router)
    app.include_router(ask.router)
    app.include_router(rules.router)
    app.include_router(page.router)
    _include_discord(app, settings)
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    install_docs(app)
    install_openapi(app)
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    if settings.trusted_proxies:  # forwarded headers count only from these peers
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    return app


def pool_size(settings: Settings) -> int:
    """Threads for the routes' work: ``settings.web_threads``, or one per available core."""
    if settings.web_threads:
        return settings.web_threads
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


def _include_discord(app: FastAPI, settings: Settings) -> None:
    from web.discord import build_router

    app.include_router(build_router(settings, lambda: app.state.services))
