"""``POST /discord/interactions``: Discord's interactions webhook."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import JSONResponse
from nacl.signing import VerifyKey
from starlette.concurrency import run_in_threadpool

from ingest.settings import Settings
from web.db import Database, DatabaseError
from web.discord.handlers import BadInteraction, InteractionHandler
from web.discord.replay import ReplayGuard
from web.discord.signature import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    InvalidPublicKey,
    SignatureError,
    load_verify_key,
    verify_request,
)
from web.ratelimit import RateLimiter
from web.services import ArbiterServices

log = logging.getLogger("arbiter.discord")
PATH = "/discord/interactions"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def build_router(
    settings: Settings,
    services_provider: Callable[[], ArbiterServices],
    limiter: RateLimiter | None = None,
    database: Callable[[], Database] | None = None,
) -> APIRouter:
    """The Discord router; ``services_provider`` is called per request that needs services.
    ``database`` (default: the configured state database) holds the interaction ids seen
    and the per-user rate limits, shared by every process that uses it."""
    router = APIRouter(tags=["discord"])
    database = database or (lambda: Database.for_settings(settings))
    handler = InteractionHandler(
        settings,
        services_provider,
        limiter
        or RateLimiter(database, settings.discord_rate_limit_per_minute, scope="discord"),
    )
    replays = ReplayGuard(database, settings.discord_timestamp_window)
    key: VerifyKey | None = None
    key_problem: str | None = None
    if settings.discord_public_key:
        try:
            key = load_verify_key(settings.discord_public_key)
        except InvalidPublicKey as exc:
            key_problem = str(exc)
            log.error("discord endpoint disabled: %s", exc)

    @router.post(PATH, summary="Discord interactions webhook", response_model=None)
    async def interactions(request: Request, background: BackgroundTasks) -> JSONResponse:
        if key is None:
            return _error(503, key_problem or "Discord integration is not configured: set "
                          "ARBITER_DISCORD_PUBLIC_KEY to the application's public key.")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > settings.max_body_bytes:
            return _error(413, "request body too large")
        body = await request.body()
        if len(body) > settings.max_body_bytes:
            return _error(413, "request body too large")
        # Verify before parsing anything (Discord: Security and Authorization).
        try:
            verify_request(
                key,
                request.headers.get(SIGNATURE_HEADER),
                request.headers.get(TIMESTAMP_HEADER),
                body,
                window=settings.discord_timestamp_window,
            )
        except SignatureError as exc:
            return _error(401, f"invalid request signature: {exc}")
        try:
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return _error(400, "request body is not JSON")
        interaction_id = payload.get("id") if isinstance(payload, dict) else None
        try:
            # An exact replay inside the signature window carries the same id: refuse it.
            if isinstance(interaction_id, (str, int)) and str(interaction_id) and not (
                await run_in_threadpool(replays.first_time, str(interaction_id))
            ):
                return _error(409, "interaction already received (replayed request)")
            outcome = await run_in_threadpool(handler.handle, payload)
        except BadInteraction as exc:
            return _error(400, str(exc))
        except DatabaseError as exc:
            log.error("discord interaction refused: %s", exc)
            return JSONResponse(
                {"error": "state database unavailable; try again shortly"},
                status_code=503,
                headers={"Retry-After": "5"},
            )
        if outcome.followup is not None:
            background.add_task(outcome.followup)
        return JSONResponse(outcome.response)

    return router


__all__ = ["PATH", "build_router"]
