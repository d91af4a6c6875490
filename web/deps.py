"""FastAPI dependencies shared by the routers.

The ones that only read the app's state are ``async``: FastAPI runs a plain ``def``
dependency in the thread pool, a hop per dependency per request. The rate limiter's
database work, when limits are on, goes to the pool explicitly.
"""

from __future__ import annotations

import math

from fastapi import HTTPException, Request
from starlette.concurrency import run_in_threadpool

from ingest.settings import Settings
from web.ratelimit import RateLimiter
from web.services import LocalServices


async def services(request: Request) -> LocalServices:
    svc: LocalServices = request.app.state.services
    return svc


async def settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def client_key(request: Request) -> str:
    """The client's address: the peer, or, behind a trusted proxy (ARBITER_TRUSTED_PROXIES),
    the address it forwarded (set by the proxy-headers middleware)."""
    return request.client.host if request.client else "unknown"


async def rate_limited(request: Request) -> None:
    """Per-client limit on the /v1 API: 429 with Retry-After when exceeded."""
    limiter: RateLimiter = request.app.state.rate_limiter
    if limiter.limit <= 0:
        return
    decision = await run_in_threadpool(limiter.hit, client_key(request))
    if not decision.allowed:
        wait = max(1, math.ceil(decision.retry_after))
        raise HTTPException(
            status_code=429,
            detail=f"Too many requests; retry in {int(wait)} s.",
            headers={"Retry-After": str(int(wait))},
        )
