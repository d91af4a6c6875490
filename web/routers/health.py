"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from ingest.errors import IndexMissing, StoreUnavailable
from web import deps
from web.schemas import Health
from web.services import LocalServices, NotReady

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="The process is up (liveness)")
def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Health,
    summary="Ready to answer: model warmed up, index loaded, rules store reachable",
    responses={
        503: {
            "model": Health,
            "description": "Still warming up, no index yet, or the rules store is unreachable "
            "(with Retry-After)",
        }
    },
)
def readyz(svc: LocalServices = Depends(deps.services)) -> Health | JSONResponse:
    try:
        detail = svc.ready()
    except (NotReady, StoreUnavailable, IndexMissing) as exc:
        return JSONResponse(
            status_code=503,
            content={"status": "not ready", "detail": {"reason": str(exc)}},
            headers={"Retry-After": "5"},
        )
    return Health(status="ready", detail=detail)
