"""FastAPI dependencies shared by the routers."""

from __future__ import annotations

import math

from fastapi import HTTPException, Request

from ingest.settings import Settings
from web.ratelimit import SlidingWindowLimiter
from web.services import LocalServices


def services(request: Request) -> LocalServices:
    svc: LocalServices = request.app.state.services
    return svc


def settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def client_key(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def rate_limited(request: Request) -> None:
    """Per-client limit on the /v1 API: 429 with Retry-After when exceeded."""
    limiter: SlidingWindowLimiter = request.app.state.rate_limiter
    key = client_key(request)
    if not limiter.allow(key):
        wait = max(1, math.ceil(limiter.retry_after(key)))
        raise HTTPException(
            status_code=429,
            detail=f"Too many requests; retry in {int(wait)} s.",
            headers={"Retry-After": str(int(wait))},
        )
