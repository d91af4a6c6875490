"""FastAPI dependencies shared by the routers."""

from __future__ import annotations

import math

from fastapi import HTTPException, Request

from ingest.settings import Settings
from web.ratelimit import RateLimiter
from web.services import LocalServices


def services(request: Request) -> LocalServices:
    svc: LocalServices = request.app.state.services
    return svc


def settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def client_key(request: Request) -> str:
    """The client's address: the peer, or, behind a trusted proxy (ARBITER_TRUSTED_PROXIES),
    the address it forwarded (set by the proxy-headers middleware)."""
    return request.client.host if request.client else "unknown"


def rate_limited(request: Request) -> None:
    """Per-client limit on the /v1 API: 429 with Retry-After when exceeded."""
    limiter: RateLimiter = request.app.state.rate_limiter
    decision = limiter.hit(client_key(request))
    if not decision.allowed:
        wait = max(1, math.ceil(decision.retry_after))
        raise HTTPException(
            status_code=429,
            detail=f"Too many requests; retry in {int(wait)} s.",
            headers={"Retry-After": str(int(wait))},
        )
