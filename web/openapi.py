"""Finishing touches to the generated OpenAPI document for routes whose modules declare
no examples of their own (the Discord webhook takes raw signed bytes)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from web.schemas import errors

DISCORD_PATH = "/discord/interactions"
DISCORD_PING = {"type": 1, "id": "1", "application_id": "1", "token": "t", "version": 1}


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(
                title=app.title, version=app.version, description=app.description,
                routes=app.routes,
            )
            op = spec.get("paths", {}).get(DISCORD_PATH, {}).get("post")
            if op is not None:
                op.setdefault(
                    "description",
                    "Signed by Discord (X-Signature-Ed25519, X-Signature-Timestamp); "
                    "unsigned or forged requests get 401.",
                )
                op.setdefault("requestBody", {
                    "required": True,
                    "content": {"application/json": {
                        "schema": {"type": "object"},
                        "examples": {"ping": {"summary": "Discord's PING", "value": DISCORD_PING}},
                    }},
                })
                for code, doc in errors(413, 429).items():
                    op["responses"].setdefault(str(code), {"description": doc["description"]})
                op["responses"].setdefault("401", {"description": "Bad or missing signature"})
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
