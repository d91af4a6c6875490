"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from web import deps
from web.schemas import Health
from web.services import LocalServices

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="The process is up")
def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Health,
    summary="The index and the embedding model are loaded",
    responses={503: {"model": Health}},
)
def readyz(svc: LocalServices = Depends(deps.services)) -> Health | JSONResponse:
    try:
        detail = svc.ready()
    except Exception as exc:  # noqa: BLE001 - not ready is an answer, not a crash
        return JSONResponse(
            status_code=503, content={"status": "not ready", "detail": {"reason": str(exc)}}
        )
    return Health(status="ready", detail=detail)
