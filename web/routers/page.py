"""The chat page (static, no build step, nothing fetched from outside)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.api_route("/", methods=["GET", "HEAD"])
def index() -> FileResponse:
    """HEAD too: uptime monitors probe with it."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html")
